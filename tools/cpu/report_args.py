"""The report tools' command lines (tools/cpu/cpu_report.py, cpu_shakeup_report.py,
cpu_frenzy_report.py): `--name value` options, one parser. Portable: runs under
MicroPython too (cpu_report.py --part time on the 32-bit gauge)."""


def options(argv, spec, usage):
    """argv (without the program name) -> {name: value}. spec: {name: kind}, kind
    "int" or "str" (--name V), "list" (--name V, repeatable: the values in order) or
    "flag" (--name alone). Not given: None, [] for a list, False for a flag. Anything
    else raises ValueError(usage)."""
    out = {}
    for name, kind in spec.items():
        out[name] = [] if kind == "list" else (False if kind == "flag" else None)
    i = 0
    while i < len(argv):
        a = argv[i]
        kind = spec.get(a[2:]) if a.startswith("--") else None
        if kind is None or kind != "flag" and i + 1 >= len(argv):
            raise ValueError(usage)
        name = a[2:]
        if kind == "flag":
            out[name] = True
            i += 1
            continue
        v = argv[i + 1]
        if kind == "int":
            try:
                v = int(v)
            except ValueError:
                raise ValueError(usage)
        if kind == "list":
            out[name].append(v)
        else:
            out[name] = v
        i += 2
    return out
