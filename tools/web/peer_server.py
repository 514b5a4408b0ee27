#!/usr/bin/env python3
"""A local PeerServer (npm `peer`, pinned in web/package-lock.json): the signalling the
link game's pages use to find each other (web/link_radio.js), on 127.0.0.1 only. `make web`
starts one beside the page; the link tests and the bench start their own.

    python tools/web/peer_server.py [--port 9000]

It only introduces the pages (offers, answers, ICE candidates over a WebSocket); the
game's frames go from page to page over WebRTC data channels.
"""
import argparse
import os
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BIN = os.path.join("peer", "dist", "bin", "peerjs.js")  # in web/node_modules (or mods)


class PeerServerError(Exception):
    pass


def free_port(host="127.0.0.1"):
    s = socket.socket()
    s.bind((host, 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start(port=0, root=ROOT, host="127.0.0.1", timeout=20, mods=None):
    """Starts the PeerServer on host:port (0: a free port); returns (process, port) once
    it listens. The caller stops it (stop()). mods: the node_modules it is in (default
    web/node_modules; make web's lean copy is build/web-npm's)."""
    path = os.path.join(mods or os.path.join(root, "web", "node_modules"), BIN)
    if not os.path.isfile(path):
        raise PeerServerError("no PeerServer at %s: run `make web-deps`" % os.path.relpath(path, root))
    port = port or free_port(host)
    proc = subprocess.Popen(["node", path, "--host", host, "--port", str(port), "--path", "/"],
                            cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    t0 = time.time()
    while time.time() - t0 < timeout:
        if proc.poll() is not None:
            raise PeerServerError("the PeerServer stopped: %s" % proc.stdout.read()[-2000:])
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return proc, port
        except OSError:
            time.sleep(0.1)
    stop(proc)
    raise PeerServerError("the PeerServer did not listen on %s:%d in %d s" % (host, port, timeout))


def stop(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--port", type=int, default=9000)
    args = p.parse_args(argv)
    try:
        proc, port = start(args.port)
    except PeerServerError as e:
        print("peer: %s" % e, file=sys.stderr)
        return 2
    print("peer: PeerServer on http://127.0.0.1:%d/  (Ctrl-C stops)" % port, flush=True)
    try:
        proc.wait()
    except KeyboardInterrupt:
        pass
    finally:
        stop(proc)
    return 0


if __name__ == "__main__":
    sys.exit(main())
