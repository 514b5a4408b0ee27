"""`make sim LINK=3` (tools/simulator/sim.py --link 3): the handheld on the terminal and two more
in the background, played by tools/sim/link_pilot.py, which join the host the person
opens: the lobby on the terminal shows all three."""
import os

from sim_rig import sim_factory  # noqa: F401 (a fixture)


def _said(s, text):
    """The screen's texts (--prompt: shown under the panel) hold text."""
    return any(text in ln for ln in s.screen.text())


def test_three_linked_handhelds_on_one_terminal(sim_factory):  # noqa: F811
    base = 23000 + os.getpid() % 20000  # (its own ports: tests may run side by side)
    s = sim_factory(extra=["--link", "3", "--air", "base=%d" % base])
    s.until(lambda: s.screen_name() == "menu", what="the menu")
    for k in "dd\r":  # NEXT x2 to LINK GAME, OK
        s.send(k)
    s.until(lambda: s.screen_name() == "link", what="LINK GAME")
    s.send("\r")  # HOST
    s.until(lambda: s.screen_name() == "link_lobby", what="the lobby")
    s.until(lambda: _said(s, "BLUE JOINED"), timeout=40, what="two handhelds joined")
    assert _said(s, "GREEN JOINED") and s.screen_name() == "link_lobby"
    s.send("\r")  # START (where the cursor starts)
    s.until(lambda: s.screen_name() == "link_live", what="the live round")
    assert s.proc.poll() is None
