"""The built-in AI's difficulty ladder in 11 vs 11 (issue: hard beats medium beats easy, each
by at least two standard errors of goal difference over 20+ games; a random player loses to
the easy AI). Full games in one vector batch: 100 games take about 3 s."""
from __future__ import annotations

import numpy as np
import pytest

from trackfield.football import strength


@pytest.mark.parametrize("seed", [0, 1000])
@pytest.mark.statistical
def test_each_level_beats_the_one_below_by_two_standard_errors(seed):
    for result in strength.ladder(games=100, seed=seed):
        assert result.beats_by_standard_errors() >= 2.0, strength.format_table([result])


@pytest.mark.statistical
def test_a_random_player_loses_to_the_easy_ai_conceding_about_as_many_as_in_grf():
    results = {r.second: r for r in strength.random_player(games=100, seed=0)}
    grf = strength.grf_figures()["random"]
    table = strength.format_table(results.values(), grf)
    assert results["easy"].beats_by_standard_errors() <= -2.0, table
    # Real GRF's random player (60 games a level, stored): at every level ours concedes
    # within three standard errors of the difference between the two means.
    for level, ours in results.items():
        theirs = grf[level]
        assert abs(ours.diff - theirs.diff) <= 3.0 * np.hypot(ours.diff_se, theirs.diff_se), table


PARITY_PROBE = """from . import *


def build_scenario(builder):
    builder.config().game_duration = 300
    builder.config().deterministic = False
    even = builder.EpisodeNumber() % 2 == 0
    builder.SetBallPosition(-0.6 if even else 0.6, 0.0)
    for team in (Team.e_Left, Team.e_Right):
        builder.SetTeam(team)
        builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK)
        if (team == Team.e_Right) == even:
            builder.AddPlayer(0.58, 0.0, e_PlayerRole_CF)
"""


def test_games_alternate_episode_parity_as_grf_plays_them(tmp_path):
    # GRF's full-game files swap the line-ups on the episode's parity and GRF's protocol
    # plays its games in a row; so do ours: the first half of the rows are even episodes.
    # Here an even episode has a right forward alone against the left keeper, an odd one
    # the other way round.
    path = tmp_path / "parity_probe.py"
    path.write_text(PARITY_PROBE)
    scores = strength.play_games(1.0, 1.0, 6, seed=0, scenario=str(path))
    even, odd = scores[:3], scores[3:]
    assert even[:, 0].sum() == 0 and even[:, 1].sum() > 0, scores.tolist()
    assert odd[:, 1].sum() == 0 and odd[:, 0].sum() > 0, scores.tolist()
    assert len(strength.play_games(1.0, 1.0, 5, seed=0, scenario=str(path))) == 5


def test_final_scores_are_repeatable_per_seed():
    scores = strength.play_games(0.6, 0.05, games=4, seed=3)
    again = strength.play_games(0.6, 0.05, games=4, seed=3)
    assert scores.shape == (4, 2) and np.array_equal(scores, again)
    assert (scores >= 0).all() and scores.sum() > 0  # medium scores against easy over four games


def test_grf_figures_are_stored_for_every_level():
    grf = strength.grf_figures()
    for kind in ("ai_vs_ai", "random"):
        assert sorted(grf[kind]) == sorted(strength.LEVELS)
        assert all(r.games >= 4 for r in grf[kind].values())
    # GRF's own ladder, the pairings strength.ladder plays, keyed by the weaker level.
    assert [(r.first, r.second) for r in grf["ladder"].values()] == [("hard", "medium"), ("medium", "easy")]
    assert sorted(grf["ladder"]) == ["easy", "medium"] and all(r.games >= 60 for r in grf["ladder"].values())


def test_grf_figures_pool_both_team_processing_orders():
    pooled = strength.grf_figures()
    left_first, right_first = (strength.grf_figures(order) for order in strength.TEAM_ORDERS)
    for kind in ("ai_vs_ai", "random", "ladder"):
        for level, grf in pooled[kind].items():
            a, b = left_first[kind][level], right_first[kind][level]
            assert grf.games == a.games + b.games
            assert grf.goals_first == pytest.approx((a.goals_first + b.goals_first) / 2, abs=1e-3), (kind, level)
            assert grf.goals_second == pytest.approx((a.goals_second + b.goals_second) / 2, abs=1e-3), (kind, level)
    # GRF's team processed first gains: AI 1.0 (left) against every level, by 0.4-1.3 goals a game.
    for level in strength.LEVELS:
        assert left_first["ai_vs_ai"][level].diff > right_first["ai_vs_ai"][level].diff + 0.3, level
    with pytest.raises(ValueError, match="left_team_first"):
        strength.grf_figures("first")


@pytest.mark.statistical
def test_bench_prints_the_three_tables_with_grf_beside(capsys):
    from trackfield import bench

    bench.print_strength(games=4)
    out = capsys.readouterr().out
    assert "| hard v medium | 4 |" in out and "| medium v easy | 4 |" in out
    assert "| AI 1 v easy | 4 |" in out and "| random v hard | 4 |" in out
    assert "60, 2.42 - 0.37, +2.05 +- 0.22" in out  # GRF's stored AI 1.0 v easy
    assert "| hard v medium | 4 |" in out.splitlines()[4] and "120, 1.35 - 0.78, +0.58 +- 0.12" in out  # GRF's ladder
