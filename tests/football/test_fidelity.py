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
        assert grf.episodes == 100
        assert sum(grf.shares.values()) == pytest.approx(100.0), name
        assert 50 < grf.mean_length < 400, name


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


@pytest.mark.parametrize("scenario", ["academy_3_vs_1_with_keeper", "academy_corner", "academy_empty_goal",
                                      "academy_empty_goal_close", "academy_run_to_score",
                                      "academy_run_to_score_with_keeper",
                                      "academy_pass_and_shoot_with_keeper",
                                      "academy_run_pass_and_shoot_with_keeper"])
def test_scenarios_that_play_like_grf_stay_within_the_tolerance(scenario):
    # Regression guard: these match real GRF (length 0.67x-1.5x, every ending share within
    # 15 points) over 1,000 episodes (seeds 0..999) at the latest calibration; see
    # docs/football_fidelity.md. 1,000 rather than the protocol's 100: at 100 episodes a
    # share near 40% carries a standard error of 5 points and a mean length 4-5%, so the
    # seeds alone move a scenario across the line (pass_and_shoot's length: 0.69x GRF's
    # over seeds 0..999 and over 0..299, 0.57x over 0..99). The counterattacks have their
    # own guard below.
    ours = fidelity.measure(scenario, episodes=1000)
    assert fidelity.within_tolerance(ours, fidelity.grf_figures()[scenario]), fidelity.format_table(
        [(ours, fidelity.grf_figures()[scenario])])


@pytest.mark.parametrize("scenario", ["academy_counterattack_easy", "academy_counterattack_hard",
                                      "academy_single_goal_versus_lazy"])
def test_edge_scenarios_stay_near_grf(scenario):
    # These sit on the tolerance's edge in one share, so which of them is within 15 points
    # moves with the seeds and with any change to play. The counterattacks: the random
    # player's team loses the ball in 66-74% of episodes against GRF's 83% (its balls go
    # out more: docs/football_fidelity.md). single_goal_versus_lazy: 73-76% against GRF's 60%
    # (GRF's keeper gathers fewer of the slow balls near his goal). Guarded here as they
    # stand: length within the tolerance, every share within 20 points.
    ours, grf = fidelity.measure(scenario, episodes=1000), fidelity.grf_figures()[scenario]
    assert fidelity.within_tolerance(ours, grf, share_tolerance=20.0), fidelity.format_table([(ours, grf)])


def test_table_names_each_scenario_and_the_verdict():
    grf = fidelity.grf_figures()["academy_corner"]
    table = fidelity.format_table([(grf, grf)])
    assert "| academy_corner |" in table and "(1.00)" in table and table.rstrip().endswith("yes |")


@pytest.mark.parametrize("bad", [-1.0, 150.0, float("nan")])
def test_within_tolerance_rejects_a_share_tolerance_outside_0_to_100(bad):
    grf = fidelity.grf_figures()["academy_corner"]
    with pytest.raises(ValueError, match="share_tolerance"):
        fidelity.within_tolerance(grf, grf, share_tolerance=bad)
