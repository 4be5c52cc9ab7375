"""GRF's full-game scenarios ship under GRF's names with GRF's settings and line-ups."""
from __future__ import annotations

import numpy as np
import pytest

import trackfield
from trackfield.football.scenarios import load_scenario

# name: (game_duration, left difficulty, right difficulty, deterministic, second_half, players a side)
FULL_GAMES = {
    "11_vs_11_stochastic": (3000, 1.0, 0.6, False, 999999999, 11),
    "11_vs_11_easy_stochastic": (3000, 1.0, 0.05, False, 999999999, 11),
    "11_vs_11_hard_stochastic": (3000, 1.0, 0.95, False, 999999999, 11),
    "11_vs_11_deterministic": (3000, 1.0, 0.6, True, 999999999, 11),
    "11_vs_11_competition": (3000, 1.0, 1.0, False, 999999999, 11),
    "11_vs_11_kaggle": (3000, 1.0, 1.0, False, 1500, 11),
    "5_vs_5": (3000, 0.05, 0.05, False, 999999999, 5),
    "1_vs_1_easy": (500, 0.0, 0.0, False, 999999999, 1),
}


@pytest.mark.parametrize("name", FULL_GAMES)
def test_settings_match_grf(name):
    duration, left, right, deterministic, second_half, players = FULL_GAMES[name]
    sc = load_scenario(name).config
    assert (sc.game_duration, sc.deterministic, sc.second_half) == (duration, deterministic, second_half)
    assert sc.left_team_difficulty == pytest.approx(left) and sc.right_team_difficulty == pytest.approx(right)
    assert sc.num_players(0) == sc.num_players(1) == players
    assert not sc.end_episode_on_score and not sc.end_episode_on_possession_change and sc.offsides
    assert name in trackfield.list_scenarios("football")


@pytest.mark.parametrize("name", ["11_vs_11_stochastic", "5_vs_5"])
def test_the_kicking_off_line_up_swaps_sides_every_episode(name):
    even, odd = load_scenario(name).by_parity
    # the kicking-off team has a player on the centre spot; in odd episodes it is the right team
    on_spot = lambda players: any(abs(x) < 1e-6 for x, *_ in players)  # noqa: E731
    assert on_spot(even.players(0)) and not on_spot(even.players(1))
    assert on_spot(odd.players(1)) and not on_spot(odd.players(0))


def test_five_a_side_keepers_are_not_controllable():
    sc = load_scenario("5_vs_5").config
    for team in (0, 1):
        assert [p[4] for p in sc.players(team)] == [False, True, True, True, True]


def test_kaggle_slot_order_puts_the_forwards_last():
    obs, _ = trackfield.make("11_vs_11_kaggle", representation="raw").reset(seed=0)
    assert obs["left_team_roles"].tolist() == [0, 2, 1, 1, 3, 5, 5, 5, 6, 9, 7]
    # the file's (0, +-0.02), y as GRF's engine places and observes players (2.36 x 36 m / 83.6)
    y = 0.02 * 2.36 * 36.0 / 83.6
    assert np.allclose(obs["left_team"][9], [0.0, y]) and np.allclose(obs["left_team"][10], [0.0, -y])


def test_a_full_game_takes_3001_steps():
    env = trackfield.make("11_vs_11_easy_stochastic", number_of_left_players_agent_controls=0)
    env.reset(seed=0)
    steps = 0
    while True:
        _, _, terminated, truncated, info = env.step([])
        steps += 1
        if terminated or truncated:
            break
    assert truncated and not terminated and steps == 3001
