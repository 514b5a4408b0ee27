"""Build, then bring a board's filesystem in line with the build using mpremote.

Usage: python tools/flashing/deploy.py --board esp32_devkit --port /dev/ttyUSB0 [--dry-run]
       [--build-dir build] [--no-reset]

1. tools/flashing/build.py builds build/<board>/ (the board profile installed as board.mpy: that
   file is the board choice written to the device).
2. One mpremote call lists the device: each folder of the build (and of the last deploy)
   with the sha256 of every file, hashed on the device with hashlib, plus /.deploy, the
   list of files the last deploy put there.
3. One mpremote call makes the device match: mkdir what is missing, `cp` only the files
   whose hash differs, `rm` stale files, write /.deploy when it changed, `reset`.
   Stale: a `.py` beside a `.mpy` of the build (a .py wins over a .mpy on import), any
   other .py/.mpy in the build's folders that the build does not have (boot.py stays:
   it may be the user's), and anything the last deploy put there that is gone from the
   build. Data (saves, settings, logs) is never touched.
A second deploy of the same tree copies nothing. Prints what it did and the timings.
"""
import argparse
import ast
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import build as buildmod  # noqa: E402

MANIFEST = "/.deploy"
KEEP = ("/boot.py",)  # never removed unless the build brings its own

# Runs on the device (MicroPython 1.23+): prints one Python literal per line.
_LIST = """
import os, hashlib, binascii
def _h(p, b=bytearray(512)):
    h = hashlib.sha256()
    with open(p, 'rb') as f:
        while True:
            n = f.readinto(b)
            if not n:
                break
            h.update(memoryview(b)[:n])
    return binascii.hexlify(h.digest()).decode()
for d in %r:
    try:
        es = list(os.ilistdir(d))
    except OSError:
        continue
    print(repr(('D', d)))
    for e in es:
        p = (d if d != '/' else '') + '/' + e[0]
        if e[1] == 0x8000:
            print(repr(('F', p, _h(p))))
try:
    with open(%r) as f:
        for line in f:
            if line.strip():
                print(repr(('M', line.strip())))
except OSError:
    pass
"""


class DeployError(Exception):
    pass


def mpremote_cmd():
    here = os.path.join(os.path.dirname(sys.executable), "mpremote")
    return [here] if os.path.exists(here) else [sys.executable, "-m", "mpremote"]


def run_mpremote(port, args, timeout=180):
    cmd = mpremote_cmd() + ["connect", port] + args
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise DeployError("mpremote timed out after %d s: %s" % (timeout, " ".join(args[:6])))
    if res.returncode != 0:
        raise DeployError("mpremote failed (%d): %s%s" % (res.returncode, res.stdout[-2000:], res.stderr[-2000:]))
    return res.stdout


def device_dirs(paths):
    """Every folder holding one of the device paths ('/' included), parents first."""
    out = {"/"}
    for p in paths:
        parts = p.strip("/").split("/")[:-1]
        for i in range(1, len(parts) + 1):
            out.add("/" + "/".join(parts[:i]))
    return sorted(out, key=lambda d: (d.count("/") if d != "/" else 0, d))


def list_device(port, dirs):
    """({path: sha256}, set of existing folders, lines "path sha256" of the last deploy)."""
    out = run_mpremote(port, ["exec", _LIST % (list(dirs), MANIFEST)])
    files, found, last = {}, set(), []
    for line in out.splitlines():
        line = line.strip()
        if not line.startswith("("):
            continue
        item = ast.literal_eval(line)
        if item[0] == "D":
            found.add(item[1])
        elif item[0] == "F":
            files[item[1]] = item[2]
        elif item[0] == "M":
            last.append(item[1])
    return files, found, last


def plan(listing, device_files, device_found, last_deploy):
    """What to do: (mkdirs, copies [(device path, sha)], removals, new manifest text)."""
    want = {"/" + dev: sha for dev, _size, sha in listing}
    build_dirs = device_dirs(want)
    mkdirs = [d for d in build_dirs if d != "/" and d not in device_found]
    copies = sorted(p for p, sha in want.items() if device_files.get(p) != sha)
    remove = set()
    for p in device_files:
        if p in want or p in KEEP:
            continue
        folder = p.rsplit("/", 1)[0] or "/"
        if p.endswith((".py", ".mpy")) and folder in build_dirs:
            remove.add(p)  # includes x.py beside the build's x.mpy
    for p in last_deploy:
        if p not in want and p in device_files and p not in KEEP:
            remove.add(p)
    manifest = "".join("%s %s\n" % (p, want[p]) for p in sorted(want))
    return mkdirs, copies, sorted(remove), manifest


def deploy(board, port, build_root=buildmod.DEFAULT_OUT, reset=True, dry_run=False, out=sys.stdout):
    t0 = time.monotonic()
    listing = buildmod.build(board, build_root)
    t_build = time.monotonic() - t0
    want_paths = ["/" + dev for dev, _s, _h in listing]
    t1 = time.monotonic()
    files, found, last_lines = list_device(port, device_dirs(want_paths + [MANIFEST]))
    last = [line.split()[0] for line in last_lines]
    # Folders of the last deploy that the build no longer has: list those too.
    extra = [d for d in device_dirs(last) if d not in found]
    if extra:
        more_files, more_found, _ = list_device(port, extra)
        files.update(more_files)
        found |= more_found
    t_list = time.monotonic() - t1
    mkdirs, copies, removals, manifest = plan(listing, files, found, last)
    write_manifest = manifest != "".join(line + "\n" for line in last_lines)
    args = []
    for d in mkdirs:
        args += ["mkdir", ":" + d, "+"]
    src_dir = os.path.join(build_root, board)
    for p in copies:
        args += ["cp", "-f", os.path.join(src_dir, p.lstrip("/")), ":" + p, "+"]
    for p in removals:
        args += ["rm", ":" + p, "+"]
    if write_manifest:
        code = "f=open(%r,'w')\nf.write(%r)\nf.close()" % (MANIFEST, manifest)
        args += ["exec", code, "+"]
    if reset:
        args += ["reset"]
    elif args:
        args.pop()  # the trailing "+"
    t2 = time.monotonic()
    if args and not dry_run:
        run_mpremote(port, args)
    t_sync = time.monotonic() - t2
    sent = sum(os.path.getsize(os.path.join(src_dir, p.lstrip("/"))) for p in copies)
    for p in mkdirs:
        out.write("  mkdir %s\n" % p)
    for p in copies:
        out.write("  copy  %s\n" % p)
    for p in removals:
        out.write("  rm    %s\n" % p)
    out.write("deploy %s -> %s: %d files in the build, %d copied (%d bytes), %d removed, "
              "%d folders made%s; build %.1f s, list %.1f s, sync+reset %.1f s\n"
              % (board, port, len(listing), len(copies), sent, len(removals), len(mkdirs),
                 " (dry run)" if dry_run else "", t_build, t_list, t_sync))
    return {"copied": copies, "removed": removals, "mkdirs": mkdirs, "bytes": sent,
            "files": len(listing), "seconds": time.monotonic() - t0}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", required=True)
    ap.add_argument("--port", required=True, help="serial port (e.g. /dev/ttyUSB0, /dev/pts/3)")
    ap.add_argument("--build-dir", default=buildmod.DEFAULT_OUT)
    ap.add_argument("--no-reset", action="store_true", help="leave the board in the REPL")
    ap.add_argument("--dry-run", action="store_true", help="list the device, change nothing")
    args = ap.parse_args(argv)
    try:
        deploy(args.board, args.port, args.build_dir, reset=not args.no_reset, dry_run=args.dry_run)
    except (DeployError, buildmod.BuildError) as e:
        sys.stderr.write("deploy: %s\n" % e)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
