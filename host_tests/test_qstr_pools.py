"""tools/sim/qstr_pools.py: a fenced run charges the firmware's interned names as the
device pays for them, in pools that double from py/qstr.c's first size (v1.28.0)."""
import os
import re
import subprocess

import pytest
from conftest import ROOT, micropython_bin

import qstr_pools

_SCRIPT = """
import sys
sys.path.insert(0, %r)
import gc, micropython, qstr_pools
print("charge", qstr_pools.charge(%d))
micropython.qstr_info()
for i in range(%d):
    getattr(None, "fresh_name_%%d" %% i, None)
micropython.qstr_info()
"""


def test_the_device_cost_is_pools_doubling_from_ten():
    e = qstr_pools.entry()
    word = e - 3

    def pool(n):
        return (6 * word + e * n + 15) // 16 * 16

    assert qstr_pools.cost(0) == 0
    assert qstr_pools.cost(10) == pool(10)
    assert qstr_pools.cost(11) == pool(10) + pool(20)
    assert qstr_pools.cost(550) == sum(pool(n) for n in (10, 20, 40, 80, 160, 320))


@pytest.mark.parametrize("names", [50, 600])
def test_a_charge_opens_a_pool_that_holds_the_names(names):
    """After charge(n), n new names open no pool: inside a fence they cost nothing more
    than what charge() said (the runner's own pools no longer decide it)."""
    mp = micropython_bin()
    if not os.path.exists(mp):
        pytest.skip("no MicroPython unix port")
    script = _SCRIPT % (os.path.join(ROOT, "tools", "sim"), names, names)
    out = subprocess.run([mp, "-c", script], capture_output=True, text=True, timeout=60,
                         check=True).stdout
    charge = int(re.search(r"charge (\d+)", out).group(1))
    pools = [int(v) for v in re.findall(r"n_pool=(\d+)", out)]
    counts = [int(v) for v in re.findall(r"n_qstr=(\d+)", out)]
    assert charge == qstr_pools.cost(names)
    assert counts[1] - counts[0] == names
    assert pools[0] == pools[1], "a pool opened inside what the charge covered"
