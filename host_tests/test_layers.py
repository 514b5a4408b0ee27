"""The firmware's import graph against its stated layers (docs/architecture.md, "Architecture
contracts"), read from the sources: every import, also those inside functions.

Layers, imports going one way:
- core (core/): pure rules and dice; imports only core, micropython and binascii (a
  pure function in C: the data tables' CRC-32).
- hal (hal/): drivers; imports only hal and the port's modules (machine, framebuf, time,
  os, micropython).
- store (system/store/): persistence; imports core (the game registry) and the port's os.
- ui (ui/): screens; imports ui, core, store's codes (settings indices) and hal.events'
  codes (the event bytes are its input), those two only as codes.
- link (link/): the link game's radio and sessions; imports core, link and the port's
  hashlib, espnow, network (loaded by the app for LINK GAME only).
- app (app.py, main.py, boot.py and the rest of system/: guard*, watch, power*, crashlog,
  heap): imports any of them, and the board profile.
- host_only (host_only/): never on the device, no device module imports it; imports core.

No cycles. A `from M import NAME` that takes only consts of M is a compile-time code
reference (tools/flashing/inline_consts.py turns it into the importer's private const: the device
never runs it), so it is checked against the layers but is no edge of the run-time
graph; every other import is.
"""
import ast
import os

from conftest import ROOT


import build  # noqa: E402
import inline_consts  # noqa: E402

FW = os.path.join(ROOT, "firmware")

_PORT = {"micropython", "machine", "framebuf", "time", "os", "gc", "sys", "io", "esp32",
         "binascii", "traceback"}
# What each layer may import: firmware layers, and modules of the port. `version` is a
# leaf of data (one string) that every layer may read and that imports nothing.
_MAY = {
    "core": ({"core", "version"}, {"micropython", "binascii"}),
    "hal": ({"hal", "version"}, {"micropython", "machine", "framebuf", "time", "os"}),
    "store": ({"core", "store", "version"}, {"micropython", "os", "binascii"}),
    "ui": ({"ui", "core", "version"}, {"micropython"}),
    "link": ({"core", "link", "version"}, {"micropython", "hashlib", "espnow", "network"}),
    "app": ({"app", "core", "hal", "store", "ui", "board", "version", "link"}, _PORT),
    "version": (set(), set()),
    "host_only": ({"core", "host_only", "version"}, {"micropython"}),
}


def layer(mod):
    top = mod.split(".")[0]
    if top in ("core", "hal", "ui", "link", "host_only"):
        return top
    if mod.startswith("system.store"):
        return "store"
    if top in ("board", "version"):
        return top
    return "app"


def _modules():
    items = [(rel, host) for rel, host in build.sources(FW, host_only=True)
             if rel.endswith(".py")]
    return items, {inline_consts.module_name(rel): host for rel, host in items}


def graph():
    """{module: {imported: True when it is a run-time edge}}, and the external imports
    {module: set of top-level names}."""
    items, mods = _modules()
    consts = inline_consts.values(items)
    edges = {}
    external = {}
    for name, host in mods.items():
        with open(host) as f:
            tree = ast.parse(f.read(), host)
        out = edges.setdefault(name, {})
        ext = external.setdefault(name, set())

        def add(target, runtime):
            if target == name:
                return
            if target in mods or target == "board":
                out[target] = out.get(target, False) or runtime
            else:
                ext.add(target.split(".")[0])

        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    add(a.name, True)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    pkg = name.split(".")[:-node.level] if not host.endswith("__init__.py") \
                        else name.split(".")[:len(name.split(".")) - node.level + 1]
                    base = ".".join(pkg + ([base] if base else []))
                for a in node.names:
                    full = base + "." + a.name if base else a.name
                    if full in mods:
                        add(full, True)  # a module of the package
                    elif base in mods:
                        only_const = a.name in consts.get(base, {}) and not a.name.startswith("_")
                        add(base, not only_const)
                    else:
                        add(base, True)
    return edges, external


def test_every_import_goes_down_the_layers():
    edges, external = graph()
    wrong = []
    for mod, targets in sorted(edges.items()):
        may, port = _MAY[layer(mod)]
        for t in sorted(targets):
            code_only = not targets[t]
            if layer(mod) == "ui" and code_only and t in ("hal.events", "system.store"):
                continue
            if layer(t) not in may:
                wrong.append("%s (%s) imports %s (%s)" % (mod, layer(mod), t, layer(t)))
        for e in sorted(external[mod]):
            if e not in port:
                wrong.append("%s (%s) imports the port's %s" % (mod, layer(mod), e))
    assert not wrong, "\n".join(wrong)


def _cycles(edges):
    """The strongly connected components with more than one module (Tarjan)."""
    index = {}
    low = {}
    stack = []
    on = set()
    out = []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycles():
    edges, _ = graph()
    runtime = {m: {t for t, rt in ts.items() if rt} for m, ts in edges.items()}
    cycles = _cycles(runtime)
    assert cycles == [], cycles


def test_the_checks_see_a_wrong_import_and_a_cycle():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(edges) == [["a", "b", "c"]]
    assert layer("core.dice") == "core" and layer("system.power_sleep") == "app"
    assert layer("system.store.check") == "store" and layer("system.store") == "store"
    assert layer("host_only.odds") == "host_only"
    may, _ = _MAY["core"]
    assert layer("ui.gfx") not in may and layer("hal.display") not in _MAY["ui"][0]


def test_const_only_imports_are_no_runtime_edge():
    edges, _ = graph()
    # core.shakeup_why takes only codes from core.shakeup: checked, but no edge.
    assert edges["core.shakeup_why"]["core.shakeup"] is False
    # ui.launch needs core.games' game() at run time.
    assert edges["ui.launch"]["core.games"] is True


def test_no_device_module_imports_a_host_only_one():
    edges, _ = graph()
    host = {m for m in edges if layer(m) == "host_only"}
    assert host == {"host_only", "host_only.frenzy_checked", "host_only.odds"}
    wrong = ["%s imports %s" % (m, t) for m, ts in sorted(edges.items()) if m not in host
             for t in ts if t in host]
    assert not wrong, wrong
