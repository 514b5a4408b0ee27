"""The committed Farkle-risk table equals a fresh enumeration with the core."""
import subprocess
import sys

import gen_odds
from conftest import ROOT
from host_only import odds


def test_table_equals_fresh_enumeration():
    pct, pm = gen_odds.tables()
    assert odds._PCT == pct
    assert odds._PERMILLE == pm
    for n, common, far, total in gen_odds.counts():
        assert total == 6 ** n
        assert odds.farkle_permille(n, common) == (far * 2000 + total) // (2 * total)
        assert odds.farkle_risk(n, common) == (far * 200 + total) // (2 * total)


def test_by_hand():
    # one die: 2, 3, 4 or 6 -> 4 of 6; the Common Die alone never helps
    for c in (None, 1, 2, 3, 4, 5, 6):
        assert odds.farkle_permille(1, c) == 667 and odds.farkle_risk(1, c) == 67
    # two dice: both from {2,3,4,6}: 16 of 36; with the number 3 a double 3 scores
    assert odds.farkle_permille(2, None) == 444
    assert odds.farkle_permille(2, 3) == 417  # 15 of 36
    assert odds.farkle_permille(2, 5) == 444  # a Common 5 only adds to a 5
    assert odds.farkle_risk(5, None) == 8  # 600 of 7776 = 7.7 %


def test_bad_arguments():
    for args in ((0, None), (6, None), (3, 7), (3, 0)):
        try:
            odds.farkle_risk(*args)
        except ValueError:
            continue
        raise AssertionError(args)


def test_generated_file_is_current():
    proc = subprocess.run([sys.executable, "tools/gen/gen_odds.py", "--check"], cwd=ROOT,
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
