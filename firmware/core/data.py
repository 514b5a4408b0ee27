"""The data files under data/ (firmware/data/ in the clone): tables the CPUs read in
place, a seek and a few bytes at a time, so they stay in flash and off the heap."""


def open_data(name):
    """data/<name> opened for binary reading, or None when it is missing. Looked for
    beside the core package (the clone, the device's filesystem), then at /data/."""
    try:
        here = __file__
    except NameError:  # a build without module file names
        here = ""
    i = here.rfind("core/")
    for path in ((here[:i] if i >= 0 else "") + "data/" + name, "/data/" + name):
        try:
            return open(path, "rb")
        except OSError:
            pass
    return None
