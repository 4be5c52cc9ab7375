"""The GRF comparison behind `python -m trackfield.bench football`: stored figures, the
ending classification and a guard on the scenarios that already play like GRF's."""
from __future__ import annotations

import pytest

import trackfield
from trackfield.football import fidelity


def test_grf_figures_cover_every_academy_scenario():
    figures = fidelity.grf_figures()
    academy = [s for s in trackfield.list_scenarios("football") if s.startswith("academy_")]
    assert sorted(figures) == sorted(academy)
    for name, grf in figures.items():
        assert grf.episodes == 200
        assert sum(grf.shares.values()) == pytest.approx(100.0), name
        assert 50 < grf.mean_length < 400, name


def test_grf_figures_pool_both_team_processing_orders():
    pooled = fidelity.grf_figures()
    left_first, right_first = (fidelity.grf_figures(order) for order in fidelity.TEAM_ORDERS)
    for name, grf in pooled.items():
        a, b = left_first[name], right_first[name]
        assert a.episodes == b.episodes == 100
        assert grf.mean_length == pytest.approx((a.mean_length + b.mean_length) / 2, abs=0.01), name
        for ending in fidelity.ENDINGS:
            assert grf.shares[ending] == pytest.approx((a.shares[ending] + b.shares[ending]) / 2), (name, ending)
    # The order matters: GRF's right team scores 2 times in 100 with the left team first, 13
    # with the right team first.
    scenario = "academy_run_pass_and_shoot_with_keeper"
    assert (left_first[scenario].shares["goal_against"], right_first[scenario].shares["goal_against"]) == (2.0, 13.0)


def test_grf_figures_name_the_team_orders_on_a_bad_one():
    with pytest.raises(ValueError, match="left_team_first"):
        fidelity.grf_figures("left")


@pytest.mark.parametrize("ret,truncated,mode,ending", [
    (0.0, True, 0, "time"), (1.0, True, 0, "time"), (1.0, False, 1, "goal_for"),
    (-1.0, False, 1, "goal_against"), (0.0, False, 2, "out_of_play"), (0.0, False, 5, "out_of_play"),
    (0.0, False, 0, "possession"),
])
def test_endings_are_told_apart_as_behaviour_stats_does(ret, truncated, mode, ending):
    assert fidelity._ending(ret, truncated, mode) == ending


def test_measurement_is_reproducible_and_complete():
    a = fidelity.measure("academy_3_vs_1_with_keeper", episodes=8)
    b = fidelity.measure("academy_3_vs_1_with_keeper", episodes=8)
    assert a == b
    assert sum(a.shares.values()) == pytest.approx(100.0)
    assert a.mean_length > 1


@pytest.mark.parametrize("scenario", sorted(fidelity.grf_figures()))
@pytest.mark.statistical
def test_scenarios_play_like_grf_within_the_tolerance(scenario):
    # Regression guard: every academy scenario matches real GRF (length 0.67x-1.5x, every
    # ending share within 15 points of GRF's, both team processing orders pooled) over 1,000
    # episodes (seeds 0..999); see docs/football_fidelity.md. 1,000 rather than the protocol's
    # 100: at 100 episodes a share near 40% carries a standard error of 5 points and a mean
    # length 4-5%, so the seeds alone move a scenario across the line. The closest at this
    # calibration: the counterattacks' possession (70-75% against GRF's 80.5 and 82) and
    # run_to_score_with_keeper's (76-79% against 65), 6-14 points off over four seed sets.
    ours, grf = fidelity.measure(scenario, episodes=1000), fidelity.grf_figures()[scenario]
    assert fidelity.within_tolerance(ours, grf), fidelity.format_table([(ours, grf)])


def test_table_names_each_scenario_and_the_verdict():
    grf = fidelity.grf_figures()["academy_corner"]
    table = fidelity.format_table([(grf, grf)])
    assert "| academy_corner |" in table and "(1.00)" in table and table.rstrip().endswith("yes |")


@pytest.mark.parametrize("bad", [-1.0, 150.0, float("nan")])
def test_within_tolerance_rejects_a_share_tolerance_outside_0_to_100(bad):
    grf = fidelity.grf_figures()["academy_corner"]
    with pytest.raises(ValueError, match="share_tolerance"):
        fidelity.within_tolerance(grf, grf, share_tolerance=bad)
