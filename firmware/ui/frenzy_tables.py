"""Farkle Frenzy's tables: the round summary, the SCORES view and the winner's final
standings (texts and drawing), for ui.frenzy_screen, which imports this module when
one of them is first shown: the game's start, when the heap is fullest, holds less
code. The texts go into the screen's t_* attributes, as its own views' do.

Rows per seat (t_rows colour, t_tags "CUT", t_cols the round, t_tot the total).
"""
from core.frenzy import FARKLED, PH_COMMON, RELAY
from ui import gfx
from ui.screens import COLOURS, end_choices

from micropython import const

# The screen's views and ui bytes' offsets used here (ui.frenzy_screen's V_* and _*;
# host_tests/test_ui_clarity checks they agree).
V_SUMMARY = const(4)
V_SCORES = const(6)
_SROUND = const(37)
_SFLAGS = const(39)
_SIN = const(40)
_SCUT = const(44)
_SFARK = const(48)


def _new_table(scr):
    scr.t_rows = ["", "", "", ""]
    scr.t_cols = ["", "", "", ""]
    scr.t_tot = ["", "", "", ""]
    scr.t_tags = ["", "", "", ""]
    return scr.t_rows, scr.t_cols, scr.t_tot

def summary_texts(scr):
    """The round's headline, per seat its colour, the round's score ("-" out of
    the round, "350<400" below the entry, "FARKLE"), "CUT" where a later fill
    cut the round, the total; the footer: the last Farkle's dice, who cut at
    which step, a tie."""
    g = scr.game
    ov = scr.ov
    rows, cols, tot = _new_table(scr)
    cuts = []
    scr.t_line1 = "ROUND %d" % (ov[_SROUND] << 8 | ov[_SROUND + 1])
    if ov[_SFLAGS] & 1:
        scr.t_line1 += "  2^ DOUBLED"
    for s in range(g.players):
        rows[s] = COLOURS[s]
        if not ov[_SIN] >> s & 1:
            cols[s] = "-"
        else:
            c = g.round_scores[s]
            raw = g.round_raw[s]
            cols[s] = "FARKLE" if ov[_SFARK] >> s & 1 else \
                "+%d" % c if c or not raw else "%d<400" % raw
            k = ov[_SCUT + s]
            if k:
                scr.t_tags[s] = "CUT"
                t = "CUT AT STEP %d BY %s" % (k & 63, COLOURS[k >> 6])
                if t not in cuts:
                    cuts.append(t)
        tot[s] = str(g.totals[s])
    # The footer, two lines at most: the round's last Farkle's dice (when its
    # own screen was folded into this one), the cuts, and a tie (the marked rows
    # play one more round) on the last line.
    if scr.t_fark:
        cuts = [scr.t_fark] + cuts[-1:]
    if ov[_SFLAGS] >> 4:
        cuts = cuts[:1] + ["TIE: ONE MORE ROUND"]
    cuts = ["", ""] + cuts
    scr.t_line3 = cuts[-2]
    scr.t_line2 = cuts[-1]

def scores_texts(scr):
    """Every seat's sheet total; this round's running totals where the schedule
    shows them (Lockstep: every seat's; Relay: only the player's own)."""
    g = scr.game
    rows, cols, tot = _new_table(scr)
    scr.t_line1 = "SCORES: ROUND %d" % g.round
    hide = g.schedule == RELAY and g.players > 1
    for s in range(g.players):
        rows[s] = COLOURS[s]
        tot[s] = str(g.totals[s])
        if not g.in_round >> s & 1:
            cols[s] = "-"
        elif g.phase != PH_COMMON and (s == g.player or not hide):
            cols[s] = "FARKLE" if g.status(s) == FARKLED else "+%d" % g.running(s)
    scr.t_line3 = ""
    scr.t_line2 = "RELAY HIDES THE ROUNDS" if hide else ""

def winner_texts(scr):
    """The winner's total, then the other seats' colours and totals (in seat
    order; scr.rank: their rows by total, highest first: the standings)."""
    g = scr.game
    rows, _, tot = _new_table(scr)
    w = g.winner
    # Solo, the score is the number of rounds it took (the stats keep the fewest).
    scr.t_line1 = "10,000 IN %d ROUNDS" % g.round if g.players == 1 else \
        COLOURS[w] + " WINS"
    scr.t_line2 = str(g.totals[w])
    k = 0
    for s in range(g.players):
        if s != w:
            rows[k] = COLOURS[s]
            tot[k] = str(g.totals[s])
            k += 1
    order = list(range(k))
    order.sort(key=lambda i: -int(tot[i]))
    scr.rank = bytes(order)


def draw(scr, fb):
    """The summary's and the scores' table, or the winner's standings."""
    v = scr.view
    if v == V_SUMMARY or v == V_SCORES:
        gfx.banner(fb, scr.t_line1, 0)
        gfx.right(fb, "ROUND", 88, 12)
        gfx.right(fb, "TOTAL", 126, 12)
        y = 19
        for s in range(scr.game.players):
            if v == V_SUMMARY and scr.ov[_SFLAGS] >> 4 + s & 1:  # a tie round's seat
                gfx.arrow(fb, 1, y + 1)
            gfx.text(fb, scr.t_rows[s], 6, y + 1)
            gfx.text(fb, scr.t_tags[s], 32, y + 1)
            gfx.right(fb, scr.t_cols[s], 88, y, 1, gfx.MEDIUM)
            gfx.right(fb, scr.t_tot[s], 126, y, 1, gfx.MEDIUM)
            y += 8
        gfx.text(fb, scr.t_line3, 2, 51)
        gfx.text(fb, scr.t_line2, 2, 58)
        gfx.right(fb, "OK", 127, 58)
    else:  # the winner: the final standings, REMATCH or MENU
        gfx.banner(fb, scr.t_line1, 0)
        gfx.right(fb, "TOTAL", 126, 12)
        _standing(fb, 1, COLOURS[scr.game.winner], scr.t_line2, 19)
        y = 27
        for i in range(len(scr.rank)):
            j = scr.rank[i]
            _standing(fb, i + 2, scr.t_rows[j], scr.t_tot[j], y)
            y += 8
        end_choices(fb, scr.cur)


def solo_line(g, rnd):
    """Solo, a round's line instead of its summary: "ROUND 3: +450, TOTAL 2300"."""
    c = g.round_scores[0]
    r = g.round_raw[0]
    return "ROUND %d: %s, TOTAL %d" % (rnd, "+%d" % c if c or not r else "%d<400" % r,
                                       g.totals[0])


def _standing(fb, place, name, total, y):
    """A row of the final standings: place, colour, total (medium, margins of 2)."""
    gfx.text(fb, "1234"[place - 1:place], 2, y, 1, gfx.MEDIUM)
    gfx.text(fb, name, 12, y, 1, gfx.MEDIUM)
    gfx.right(fb, total, 126, y, 1, gfx.MEDIUM)
