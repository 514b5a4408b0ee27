"""`make sim LINK=3`: linked handhelds for a LINK GAME on one computer (docs/link.md,
"On this computer"). The handheld on the screen is station STATION (default 0); with
STATION 0 the others (1 to LINK - 1) run in the background, each played at its buttons by
tools/sim/link_pilot.py: they JOIN the first host they see, so choose LINK GAME, HOST,
wait for them, START. To play every handheld yourself, run one terminal each:
`make sim LINK=3 STATION=0`, `... STATION=1 PILOTS=0`, ... (then host on one, join on
the others). They talk through tools/sim/espnow.py's stand-in on 127.0.0.1; AIR adds
loss and the like ("loss=20,dup=5,reorder=10,delay=5,jitter=20").
"""
import os
import subprocess

BASE = 47800


def radio_env(args, station):
    env = dict(os.environ)
    air = ("," + args.air) if getattr(args, "air", "") else ""
    env["POCKET_RADIO"] = "id=%d,base=%d%s" % (station, BASE, air)
    return env


def start_pilots(args, mp, firmware):
    """The background handhelds (station 0 on screen, pilots on): their processes."""
    if not args.link or args.station or not args.pilots:
        return []
    procs = []
    root = os.path.abspath(args.root)
    for sid in range(1, args.link):
        fs = os.path.join(root, "build", "sim-link", "station%d" % sid)  # (git ignores build/)
        os.makedirs(fs, exist_ok=True)
        cmd = [mp, os.path.join(root, "tools", "sim", "simrun.py"), "--root", root,
               "--board", args.board, "--fs", fs, "--pilot", "join"]
        if firmware.compiled:
            cmd += ["--firmware", firmware.path]
        procs.append(subprocess.Popen(cmd, cwd=root, env=radio_env(args, sid),
                                      stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, start_new_session=True))
    return procs


def stop(procs):
    for p in procs:
        if p.poll() is None:
            p.kill()
        p.wait()
