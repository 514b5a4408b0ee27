"""What every tools/gen_*.py does with the text it made: write the file when it changed,
or with --check only say whether it is current (exit status 1 when not)."""


def write_or_check(path, text, argv, name):
    """name: how the file is called in the messages ("ui/font.py")."""
    with open(path) as f:
        old = f.read()
    if "--check" in argv:
        print("%s is up to date" % name if old == text else "STALE: %s, run the generator" % name)
        return 0 if old == text else 1
    if old != text:
        with open(path, "w") as f:
            f.write(text)
        print("wrote " + path)
    return 0


def seal(body):
    """A data table as the device checks it (core.data_check): body, then b"PDTC", its
    length and its CRC-32 (uint32 little-endian each). zlib's CRC-32 here, binascii's
    on the device: two implementations that must agree."""
    import zlib

    from core.data_check import MAGIC
    body = bytes(body)
    return body + MAGIC + len(body).to_bytes(4, "little") + \
        zlib.crc32(body).to_bytes(4, "little")
