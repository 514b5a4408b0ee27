"""Where the tools are: the repository's root, and the tools' folders on sys.path.

A program in a folder of tools/ reaches the modules beside it by name (Python puts a
script's folder first on sys.path). A module of another folder it reaches by name once
it has imported this, which puts every folder of GROUPS on sys.path:

    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import paths  # noqa: E402

Module names are unique across the folders, so their order on the path does not matter.
Runs under the unix port too (no os.path there). tools/sim/ is not among GROUPS: its
stand-ins (machine, framebuf, espnow, network) shadow the port's modules, so a program
puts it on the path only where it means to.
"""
import sys

try:
    from os.path import abspath, dirname

    TOOLS = dirname(abspath(__file__))
    ROOT = dirname(TOOLS)
except ImportError:  # the unix port
    TOOLS = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
    ROOT = TOOLS + "/.."

# One folder per purpose (tools/README.md says what each holds).
GROUPS = ("bench", "check", "cpu", "emuboard", "flashing", "gen", "simulator", "web")

for _g in GROUPS:
    if TOOLS + "/" + _g not in sys.path:
        sys.path.insert(0, TOOLS + "/" + _g)
