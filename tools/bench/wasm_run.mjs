// Runs tools/bench/harness.py in the 32-bit MicroPython WebAssembly port under Node.
//
//   node tools/bench/wasm_run.mjs MODULE_MJS ROOT LIB MODE [harness args...]
//
// MODULE_MJS is micropython.mjs of @micropython/micropython-webassembly-pyscript. The
// harness, tools/sim and LIB (the firmware as built) are copied into the port's
// in-memory file system at the same paths, then harness.main() runs with the same
// arguments as on the unix port. Exit status: 0, or 3 when the harness ran out of
// memory, 1 on another error.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const [modPath, root, lib, ...rest] = process.argv.slice(2);
const { loadMicroPython } = await import(pathToFileURL(modPath).href);

let status = 0;
const mp = await loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});

function mkdirs(FS, dir) {
  let cur = "";
  for (const part of dir.split("/").filter(Boolean)) {
    cur += "/" + part;
    try { FS.mkdir(cur); } catch (e) { /* exists */ }
  }
}

function copyTree(FS, src, filter) {
  mkdirs(FS, src);
  for (const ent of fs.readdirSync(src, { withFileTypes: true })) {
    const p = path.join(src, ent.name);
    if (ent.isDirectory()) {
      if (ent.name !== "__pycache__") copyTree(FS, p, filter);
    } else if (filter(ent.name)) {
      FS.writeFile(p, fs.readFileSync(p));
    }
  }
}

const py = (n) => n.endsWith(".py") || n.endsWith(".mpy");
copyTree(mp.FS, path.join(root, "tools", "bench"), py);
copyTree(mp.FS, path.join(root, "tools", "sim"), py);
copyTree(mp.FS, lib, () => true);
mkdirs(mp.FS, "/tmp");

const args = JSON.stringify([rest[0], root, lib, ...rest.slice(1)]);
const boot = `
import sys, gc
sys.path.insert(0, ${JSON.stringify(path.join(root, "tools", "bench"))})
import harness
`;
try {
  mp.runPython(boot);
  if (rest[0] === "game" || rest[0] === "imports") {
    // One frame (or import) per call: the port collects garbage only between calls
    // from here, so each tick sees the heap after a collection (gc.collect() inside a
    // call only marks one due).
    mp.runPython(`S = harness.session(${args})\ngc.collect()`);
    mp.runPython("S.set_base()\ngc.collect()");
    for (;;) {
      mp.runPython("T = S.tick(False)\ngc.collect()");
      if (!mp.globals.get("T")) break;
    }
    mp.runPython("if hasattr(S, 'gen'): S.gen = None\ngc.collect()");
    mp.runPython("S.tick(False)\nS.report()\nprint('R exit', 0 if S.ok else 3)");
  } else {
    mp.runPython(`
try:
    harness.main(${args})
except SystemExit as e:
    print("R exit", e.args[0] if e.args else 0)
`);
  }
} catch (e) {
  process.stderr.write(String(e) + "\n");
  status = 1;
}
process.exit(status);
