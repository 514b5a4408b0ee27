"""Shared pytest setup: the firmware and the host simulation are importable; the tests
`make test-fast` skips."""
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for p in ("firmware", "tools", "tools/sim", "host_tests"):
    full = os.path.join(ROOT, p)
    if full not in sys.path:
        sys.path.insert(0, full)
import paths  # noqa: E402,F401  (tools/paths.py: every folder of tools/ reachable by name)
from sim_rig import sim_factory  # noqa: E402,F401  (the fixture of the simulator's test files)


def micropython_bin():
    """The unix port's binary from the project venv (or PATH)."""
    cand = os.path.join(ROOT, ".venv", "bin", "micropython")
    return cand if os.path.exists(cand) else "micropython"


# `make test` spreads the test files over the cores (pytest-xdist, --dist loadfile: a
# file's tests run on one worker, in order, so a module-scoped fixture, such as a
# build or the bench's run, is made once and tests in one file may share files).
# Files that write the same outputs outside their tmp_path (build/bench/: the quick
# bench and the frame model's fixture) write them file by file atomically and only
# when the content changes (tools/flashing/build.py holds its own lock per folder), so
# they run side by side, no lock between files.


# `make test-fast` leaves out the tests marked slow: those below (each took 4 s or more
# in a full run on the 2-core machine, `pytest --durations=0`, 2026-12-04; the page's in
# Chromium, the flash images and the docs' figures added 2026-12-05) and those
# marked @pytest.mark.slow in their file. `make test` runs them all.
SLOW = {
    # (every test of a module-scoped fixture that is slow to make: the bench's run,
    # ~3 min, and the frame model's)
    "test_bench_quick.py": ("test_frame_goals", "test_memory_gate_32bit",
                            "test_heap_model_gates", "test_exit_status_follows_the_goals"),
    "test_build.py": ("test_rebuild_is_byte_identical_and_drops_stale_outputs",),
    "test_check.py": ("test_make_check_is_clean",),  # pyright
    "test_cpu_frenzy.py": ("test_only_legal_decisions_in_seeded_games",),
    "test_cpu_shakeup.py": ("test_only_legal_decisions_in_seeded_games",),
    "test_cpu_shakeup_solver.py": ("test_hard_beats_normal_in_a_short_match",
                                   "test_stored_table_is_the_fixed_point_of_the_rules"),
    "test_docfigures.py": ("test_the_figures_in_the_docs_are_current",
                           "test_a_stale_figure_is_found_and_rewritten"),
    "test_emuboard.py": ("test_deploy_boot_play_redeploy",),
    "test_frame_time.py": ("test_every_frame_goal_is_met", "test_the_pystone_pass_is_plausible"),
    "test_frenzy_props.py": ("test_invariants_over_thousands_of_games",
                             "test_relay_equals_lockstep_many_games"),
    "test_hal_shake.py": ("test_item11_garbage_sensor_is_a_fault_and_never_rolls",),
    "test_image.py": ("test_make_image_boots_in_a_stock_flash", "test_make_flash_layout_boots",
                      "test_release_merges_firmware_and_image_into_one_file",
                      "test_an_image_for_the_wrong_flash_size_does_not_mount",
                      "test_flash_command_is_esptool_v5_syntax",
                      "test_image_size_and_contents_on_the_unix_port",
                      "test_main_py_boots_from_the_image"),
    "test_link_e2e.py": ("test_linked_games_end_the_same_on_every_handheld_at_0_20_50_loss",),
    "test_link_radio.py": ("test_the_air_loses_duplicates_and_reorders_as_asked",),
    "test_micropython.py": ("test_under_micropython", "test_mpy_cross_compiles_every_firmware_file"),
    "test_mip.py": ("test_one_mip_command_per_board_boots",),
    "test_never_lose3.py": ("test_part1_damaged_table_boots_play_as_normal_said_once",
                            "test_part4_four_normals_win_fair_shares"),
    "test_powercut.py": ("test_writes_per_game",),
    "test_shakeup_props.py": ("test_illegal_decisions_raise_and_change_nothing",
                              "test_round_trip_at_random_points"),
    "test_sim.py": ("test_continue_after_quit_shows_the_same_game",
                    "test_menu_game_shake_and_quit_restore_the_terminal",
                    "test_the_build_is_redone_only_when_a_source_changed",
                    "test_three_button_board_maps_back_to_a_long_ok",
                    "test_default_runs_the_compiled_build_as_deployed",
                    "test_sigterm_restores_the_terminal"),
    "test_tumble_draw.py": ("test_shakeup_tumble_frames_are_full_frames",),
    "test_ui_app.py": ("test_continue_resumes_the_same_screen",),
    "test_ui_frenzy.py": ("test_frenzy_four_players_lockstep", "test_frenzy_four_players_relay",
                          "test_frenzy_two_players_lockstep", "test_frenzy_two_players_relay"),
    "test_ui_frenzy_golden.py": ("test_golden_frenzy_screens",),
    "test_ui_frenzy_mash.py": ("test_mash_frenzy_four_lockstep", "test_mash_frenzy_solo",
                               "test_mash_frenzy_two_relay",
                               "test_restored_view_bytes_never_break_the_screen"),
    "test_ui_mash.py": ("test_mash_everything", "test_mash_shakeup_and_menus"),
    "test_ui_presses.py": ("test_shakeup_turn_takes_at_most_7_presses_on_average",),
    "test_ui_shakeup.py": ("test_shakeup_four_players_to_the_winner",
                           "test_shakeup_two_players_to_the_winner"),
    # (the page in Chromium: its module fixture runs every plan, and the phone's
    # first visit builds the lean site; every test of the file: "*")
    "test_web.py": ("*",),
    # (link games between pages in Chromium, a whole game each, minutes; the site's link
    # files without a browser stay in test_web_radio.py)
    "test_web_link.py": ("*",),
}


def _check_tables():
    """A name in SLOW that no longer exists is a mistake, not a no-op."""
    for name in SLOW:
        path = os.path.join(ROOT, "host_tests", name)
        if not os.path.exists(path):
            raise RuntimeError("host_tests/conftest.py names %s, which is gone" % name)
        with open(path) as f:
            text = f.read()
        for fn in SLOW.get(name, ()):
            if fn != "*" and "def %s(" % fn not in text:
                raise RuntimeError("host_tests/conftest.py SLOW names %s::%s, which is gone"
                                   % (name, fn))


_check_tables()


def pytest_itemcollected(item):
    # Marked as each test is collected, before -m selects.
    module = os.path.basename(str(item.fspath))
    slow = SLOW.get(module, ())
    if "*" in slow or getattr(item, "originalname", item.name) in slow:
        item.add_marker(pytest.mark.slow)
