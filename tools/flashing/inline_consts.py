"""The device build's shared codes: consts imported from their owner become private.

A code (a phase, a settings index, a sound, a kind) is defined once, as a public
module-level `NAME = const(value)` in the module that owns it; others write
`from owner import NAME`. On CPython and from source that is a plain import. On the
device a public name is a slot in the owner's globals and an interned name, and an
import keeps the owner loaded; so the build (tools/flashing/build.py) rewrites each module's
source before mpy-cross compiles it:

- `from M import NAME` of a const of M: the name leaves the statement (a statement left
  empty becomes `pass`) and the module gets `_NAME = const(value)` on its first line,
  with every use renamed; mpy-cross folds it, so nothing of M is loaded or kept;
- in M itself, its public consts become private (`_NAME`, every use renamed);
- values are evaluated here, also expressions of other consts (`B = const(A << 8)`);
- `M.NAME` (attribute use of another module's const) fails the build: it would read a
  name the device build no longer has.

Only module-level `NAME = const(<int expression>)` counts as a const. A const name that
is bound anywhere else in a module (a parameter, a local, a class attribute) fails the
build too, since renaming would change what it means.
"""
import ast


class ConstError(Exception):
    pass


def module_name(rel):
    """"core/dice.py" -> "core.dice"; "ui/__init__.py" -> "ui"."""
    parts = rel[:-3].split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _is_const_call(node):
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "const" and len(node.args) == 1 and not node.keywords)


_BINOPS = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b, ast.LShift: lambda a, b: a << b,
    ast.RShift: lambda a, b: a >> b, ast.BitOr: lambda a, b: a | b,
    ast.BitAnd: lambda a, b: a & b, ast.BitXor: lambda a, b: a ^ b,
    ast.Pow: lambda a, b: a ** b,
}
_UNOPS = {ast.USub: lambda a: -a, ast.UAdd: lambda a: a, ast.Invert: lambda a: ~a}


def _value(node, names, where, soft=False):
    """The int a const expression stands for; names: the consts known so far (soft:
    a name not known yet raises _Unknown, to be tried again)."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.Name):
        if node.id in names:
            return names[node.id]
        if soft:
            raise _Unknown(node.id)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        return _BINOPS[type(node.op)](_value(node.left, names, where, soft),
                                      _value(node.right, names, where, soft))
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNOPS:
        return _UNOPS[type(node.op)](_value(node.operand, names, where, soft))
    raise ConstError("%s:%d: const() of something that is not an int expression of "
                     "consts: %s" % (where, node.lineno, ast.unparse(node)))


class _Module:
    def __init__(self, rel, source):
        self.rel = rel
        self.name = module_name(rel)
        self.source = source
        try:
            self.tree = ast.parse(source, rel)
        except SyntaxError:
            self.tree = None  # mpy-cross reports it, with the file's name
        self.defs = {}      # NAME -> the Assign node of `NAME = const(...)` (module level)
        self.values = {}    # NAME -> int, once evaluated (every const, private ones too)
        if self.tree is not None:
            for node in self.tree.body:
                if (isinstance(node, ast.Assign) and len(node.targets) == 1
                        and isinstance(node.targets[0], ast.Name) and _is_const_call(node.value)):
                    self.defs[node.targets[0].id] = node

    def public(self):
        return {k: v for k, v in self.values.items() if not k.startswith("_")}


def _resolve(mod, node):
    """The absolute module name of an ImportFrom in mod."""
    if not node.level:
        return node.module or ""
    pkg = mod.name.split(".")
    if not mod.rel.endswith("__init__.py"):
        pkg = pkg[:-1]
    pkg = pkg[:len(pkg) - (node.level - 1)] if node.level > 1 else pkg
    return ".".join(pkg + ([node.module] if node.module else []))


def _imports(mod, mods):
    """(ImportFrom node, owner name, [(alias, name), ...]) for every from-import in mod
    of one of the firmware's modules."""
    out = []
    for node in ast.walk(mod.tree):
        if isinstance(node, ast.ImportFrom):
            owner = _resolve(mod, node)
            if owner in mods:
                out.append((node, owner, node.names))
    return out


class _Unknown(Exception):
    pass


def _evaluate(mods):
    """Every module's const values, following imported consts across modules (in
    rounds, so modules that import each other resolve too). A const a module imports is
    one of its values too: importing it from there again is inlined the same way."""
    for m in mods.values():
        m.values = {}
    todo = [(m, k) for m in mods.values() for k in m.defs]
    while True:
        changed = False
        for m in mods.values():
            if m.tree is None:
                continue
            for node, owner, aliases in _imports(m, mods):
                theirs = mods[owner].values
                for a in aliases:
                    local = a.asname or a.name
                    if (a.name in theirs and not a.name.startswith("_")
                            and local not in m.defs and local not in m.values):
                        m.values[local] = theirs[a.name]
                        changed = True
        left = []
        for m, k in todo:
            try:
                m.values[k] = _value(m.defs[k].value.args[0], m.values, m.rel, True)
            except _Unknown:
                left.append((m, k))
        if not changed and len(left) == len(todo):
            if not left:
                return  # nothing new: every import and def is resolved
            m, k = left[0]
            _value(m.defs[k].value.args[0], {}, m.rel)  # raises with the reason
            raise ConstError("%s: const %s cannot be evaluated" % (m.rel, k))
        todo = left


def _line_starts(data):
    starts = [0]
    for i, b in enumerate(data):
        if b == 0x0A:
            starts.append(i + 1)
    return starts


def _bound_names(tree):
    """Every name bound in tree other than by a module-level `NAME = const(...)`,
    with the line it is bound on (params, assignments, loops, imports, defs)."""
    top = set()
    for node in tree.body:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and _is_const_call(node.value)):
            top.add(id(node.targets[0]))
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            if id(node) not in top:
                out.setdefault(node.id, node.lineno)
        elif isinstance(node, ast.arg):
            out.setdefault(node.arg, node.lineno)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.setdefault(node.name, node.lineno)
        elif isinstance(node, ast.Import):
            for a in node.names:
                out.setdefault(a.asname or a.name.split(".")[0], node.lineno)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for n in node.names:
                out.setdefault(n, node.lineno)
    return out


def _module_aliases(mod, mods):
    """Local dotted names that stand for a firmware module in mod: `import a.b` gives
    "a.b" (and "a" for the package), `import a.b as m` "m", `from a import b` "b"."""
    out = {}
    for node in ast.walk(mod.tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    out[a.asname] = a.name
                else:
                    parts = a.name.split(".")
                    for i in range(1, len(parts) + 1):
                        out[".".join(parts[:i])] = ".".join(parts[:i])
        elif isinstance(node, ast.ImportFrom):
            owner = _resolve(mod, node)
            for a in node.names:
                full = (owner + "." + a.name) if owner else a.name
                if full in mods:
                    out[a.asname or a.name] = full
    return {k: v for k, v in out.items() if v in mods}


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _rewrite(mod, mods):
    """mod's source as the device build compiles it (bytes), or None when unchanged."""
    tree = mod.tree
    if tree is None:
        return None
    # Attribute use of another module's const: refuse.
    aliases = _module_aliases(mod, mods)
    wrong = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            base = _dotted(node.value)
            owner = aliases.get(base) if base is not None else None
            if owner is not None and owner != mod.name and node.attr in mods[owner].values:
                wrong.append(
                    "%s:%d: %s.%s reads a const of %s as an attribute; write "
                    "`from %s import %s` (the device build inlines it)"
                    % (mod.rel, node.lineno, base, node.attr, owner, owner, node.attr))
    if wrong:
        raise ConstError("\n".join(wrong))
    rename = {}   # local name -> private name
    define = {}   # private name -> value (consts this module gets from others)
    edits = []    # (start, end, replacement) in bytes offsets
    data = mod.source
    starts = _line_starts(data)

    def off(line, col):
        return starts[line - 1] + col

    for node, owner, names in _imports(mod, mods):
        theirs = mods[owner].values
        keep = []
        for a in names:
            if a.name in theirs and not a.name.startswith("_"):
                local = a.asname or a.name
                priv = "_" + local
                old = define.get(priv)
                if old is not None and old != theirs[a.name]:
                    raise ConstError("%s:%d: %s is imported with two values (%d, %d)"
                                     % (mod.rel, node.lineno, local, old, theirs[a.name]))
                define[priv] = theirs[a.name]
                rename[local] = priv
            else:
                keep.append(a)
        if len(keep) == len(names):
            continue
        if keep:
            text = "from %s%s import %s" % ("." * node.level, node.module or "", ", ".join(
                a.name + (" as " + a.asname if a.asname else "") for a in keep))
        else:
            text = "pass"
        edits.append((off(node.lineno, node.col_offset),
                      off(node.end_lineno, node.end_col_offset), text))
    for k in mod.defs:
        if not k.startswith("_"):
            rename[k] = "_" + k
    if not rename:
        return None
    bound = _bound_names(tree)
    mine = set(mod.defs)
    for local, priv in sorted(rename.items()):
        if local in bound:
            raise ConstError("%s:%d: the const %s is also bound here; the build cannot "
                             "make it private" % (mod.rel, bound[local], local))
        if priv in mine or priv in bound:
            if not (priv in define and local not in mine and priv not in mine):
                raise ConstError("%s: %s and %s would be one name in the device build"
                                 % (mod.rel, local, priv))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in rename:
            edits.append((off(node.lineno, node.col_offset),
                          off(node.end_lineno, node.end_col_offset), rename[node.id]))
    edits.sort()
    out = []
    pos = 0
    for a, b, text in edits:
        if a < pos:
            raise ConstError("%s: overlapping rewrite at byte %d" % (mod.rel, a))
        out.append(data[pos:a])
        out.append(text.encode())
        pos = b
    out.append(data[pos:])
    body = b"".join(out)
    if define:
        # One line in front: the module's own lines keep their numbers but one.
        head = "; ".join("%s = const(%d)" % (k, define[k]) for k in sorted(define))
        body = head.encode() + b"  # inlined by tools/flashing/build.py\n" + body
    return body


def _read_tree(items):
    """{module name: _Module} of items ((device path, host path)), consts evaluated."""
    mods = {}
    for rel, host in items:
        with open(host, "rb") as f:
            m = _Module(rel, f.read())
        mods[m.name] = m
    _evaluate(mods)
    return mods


def rewrite_tree(items):
    """items: (device path "a/b.py", host path) of every firmware module. Returns
    {device path: rewritten source bytes} for the modules the build changes."""
    mods = _read_tree(items)
    out = {}
    for m in mods.values():
        text = _rewrite(m, mods)
        if text is not None:
            out[m.rel] = text
    return out


def values(items):
    """{module name: {const name: value}} of every module (what the build inlines)."""
    return {n: dict(m.values) for n, m in _read_tree(items).items()}
