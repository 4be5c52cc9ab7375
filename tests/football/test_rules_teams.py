"""Team-side rules: the mirrored pitch for right-team agents and the scenario-file vocabulary."""
from __future__ import annotations

import numpy as np
import pytest

import trackfield
from conftest import GAME_MODE, write_scenario


# ------------------------------------------------------------------------------ mirroring


@pytest.mark.parametrize("name", ["academy_3_vs_1_with_keeper", "academy_counterattack_easy"])
def test_right_team_agent_sees_mirrored_pitch(name):
    env = trackfield.make(name, number_of_left_players_agent_controls=1,
                          number_of_right_players_agent_controls=1)
    assert env.observation_space.shape == (2, 115)
    obs, _ = env.reset(seed=0)
    n_left = env.unwrapped.scenario.config.num_players(0)
    n_right = env.unwrapped.scenario.config.num_players(1)
    rng = np.random.default_rng(0)
    owned_seen = set()

    def check(left, right):
        # positions and directions: agent 1's own team is agent 0's opponents, rotated 180 degrees
        assert np.array_equal(right[0:2 * n_right], -left[44:44 + 2 * n_right])
        assert np.array_equal(right[22:22 + 2 * n_right], -left[66:66 + 2 * n_right])
        assert np.array_equal(right[44:44 + 2 * n_left], -left[0:2 * n_left])
        assert np.array_equal(right[66:66 + 2 * n_left], -left[22:22 + 2 * n_left])
        # missing players stay -1 (not negated)
        assert np.all(right[2 * n_right:22] == -1) and np.all(left[44 + 2 * n_right:66] == -1)
        # ball: x, y and dx, dy negated; height and vertical speed unchanged
        assert np.array_equal(right[88:90], -left[88:90]) and right[90] == left[90]
        assert np.array_equal(right[91:93], -left[91:93]) and right[93] == left[93]
        # ownership one-hot: nobody stays nobody, "own" and "opponent" swap
        assert np.array_equal(right[94:97], left[[94, 96, 95]])
        owned_seen.add(int(np.argmax(left[94:97])))
        # each agent has an active player of its own team; same game mode
        assert left[97:108].sum() == 1 and right[97:108].sum() == 1
        assert np.argmax(right[97:108]) < n_right
        assert np.array_equal(right[108:115], left[108:115])

    for t in range(1500):
        check(*obs)
        obs, rewards, terminated, truncated, _ = env.step(rng.integers(0, 19, 2))
        check(*obs)
        assert rewards[0] == -rewards[1]
        if terminated or truncated:
            obs, _ = env.reset()
    assert owned_seen >= {1, 2}


def test_raw_with_agents_on_both_teams_is_mirrored_too():
    env = trackfield.make("academy_counterattack_easy", number_of_left_players_agent_controls=1,
                          number_of_right_players_agent_controls=1, representation="raw")
    assert env.observation_space["left_team"].shape == (2, 11, 2)
    obs, _ = env.reset(seed=0)
    for a in [[5, 1], [0, 0], [12, 3]] * 5:
        assert np.array_equal(obs["left_team"][1], -obs["right_team"][0])
        assert np.array_equal(obs["right_team"][1], -obs["left_team"][0])
        assert np.array_equal(obs["ball"][1][:2], -obs["ball"][0][:2])
        assert obs["score"][1].tolist() == obs["score"][0][::-1].tolist()
        assert 0 <= obs["active"][0] < 11 and 0 <= obs["active"][1] < 11
        obs, *_ = env.step(np.array(a))


def test_raw_with_agents_on_unequal_teams_is_refused():
    with pytest.raises(ValueError, match="equal team sizes"):
        trackfield.make("academy_3_vs_1_with_keeper", number_of_left_players_agent_controls=1,
                        number_of_right_players_agent_controls=1, representation="raw")


# ----------------------------------------------------------------- scenario-file vocabulary


def test_second_half_restarts_with_kickoff(scenario_file):
    path = scenario_file((0.3, 0.1), [(-1.0, 0.0, "GK"), (0.29, 0.1, "CF"), (-0.5, 0.2, "CB")],
                         [(-1.0, 0.0, "GK"), (-0.4, 0.0, "CB")], game_duration=10, second_half=5,
                         deterministic=True, offsides=False)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    for k in range(1, 5):
        obs, _, terminated, truncated, info = env.step(5)
        assert info["game_mode"] == GAME_MODE["normal"] and not (terminated or truncated)
    obs, _, terminated, truncated, info = env.step(5)
    assert info["steps"] == 5 and not (terminated or truncated)
    assert info["game_mode"] == GAME_MODE["kickoff"]
    assert np.allclose(obs["ball"], [0.0, 0.0, 0.11])  # centre spot; z is the centre, as GRF
    assert np.all(obs["left_team"][:, 0] <= 0.0) and np.all(obs["right_team"][:, 0] >= 0.0)
    assert info["score"] == (0, 0)


def test_episode_number_parity_alternates_line_ups(tmp_path):
    path = write_scenario(tmp_path, """
        builder.config().game_duration = 20
        if builder.EpisodeNumber() % 2 == 0:
            builder.SetBallPosition(0.5, 0.1)
        else:
            builder.SetBallPosition(-0.5, -0.1)
        builder.SetTeam(Team.e_Left)
        builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK)
        builder.SetTeam(Team.e_Right)
        builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK)
    """)
    even = [0.5, 0.1]  # GRF observes the ball where the scenario puts it
    odd = [-even[0], -even[1]]
    env = trackfield.make(path, representation="raw")
    balls = [env.reset(seed=s)[0]["ball"][:2] for s in (0, None, None, 7, None)]
    # a seeded reset starts again from episode 0, as a new env would
    for ball, expected in zip(balls, [even, odd, even, even, odd]):
        assert np.allclose(ball, expected, atol=1e-6)
    # vector worlds alternate too when they reset themselves
    envs = trackfield.vector.make(path, num_envs=2, num_threads=1, representation="raw")
    obs, _ = envs.reset(seed=0)
    assert np.allclose(obs["ball"][:, :2], even, atol=1e-6)
    for _ in range(21):
        obs, _, terminated, truncated, info = envs.step(np.zeros(2, dtype=int))
    assert truncated.all()
    assert np.allclose(obs["ball"][:, :2], odd, atol=1e-6)
    assert np.allclose(info["final_obs"][0]["ball"][:2], even, atol=1e-6)


def test_scenario_varying_beyond_parity_warns(tmp_path):
    path = write_scenario(tmp_path, """
        builder.SetBallPosition(0.1 * (builder.EpisodeNumber() % 3), 0.0)
        builder.SetTeam(Team.e_Left)
        builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK)
    """)
    with pytest.warns(UserWarning, match="parity"):
        trackfield.make(path)


def test_uncontrollable_players_are_never_active(tmp_path):
    # GRF's 5_vs_5 passes controllable=False for its keepers; here the player on the ball
    # cannot be controlled either (lazy and controllable given positionally).
    path = write_scenario(tmp_path, """
        builder.config().game_duration = 200
        builder.SetBallPosition(0.0, 0.0)
        builder.SetTeam(Team.e_Left)
        builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK, controllable=False)
        builder.AddPlayer(0.0, 0.0, e_PlayerRole_CF, False, False)
        builder.AddPlayer(-0.5, 0.0, e_PlayerRole_CB)
        builder.AddPlayer(-0.5, 0.2, e_PlayerRole_CB)
        builder.SetTeam(Team.e_Right)
        builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK)
    """)
    env = trackfield.make(path, representation="raw")
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    active = {int(obs["active"])}
    for _ in range(200):
        obs, _, terminated, truncated, _ = env.step(int(rng.integers(0, 19)))
        active.add(int(obs["active"]))
        if terminated or truncated:
            obs, _ = env.reset()
    assert active <= {2, 3} and active == {2, 3}
    # with as many agents as controllable players, each keeps its own player
    env = trackfield.make(path, representation="raw", number_of_left_players_agent_controls=2)
    obs, _ = env.reset(seed=0)
    for _ in range(50):
        assert sorted(obs["active"].tolist()) == [2, 3]
        obs, *_ = env.step(rng.integers(0, 19, 2))


def test_no_controlled_player_means_ai_against_ai():
    # GRF allows zero controlled players on both sides: the built-in AI plays both teams.
    env = trackfield.make("academy_3_vs_1_with_keeper", number_of_left_players_agent_controls=0)
    assert env.action_space.shape == (0,) and env.observation_space.shape == (0, 115)
    obs, info = env.reset(seed=1)
    assert obs.shape == (0, 115)
    modes, steps = set(), 0
    while True:
        obs, reward, terminated, truncated, info = env.step([])
        steps += 1
        modes.add(info["game_mode"])
        assert reward.shape == (0,) and info["reward_components"]["scoring"].shape == (0,)
        if terminated or truncated:
            break
    assert steps > 1
    env.reset(seed=2)
    with pytest.raises(ValueError):
        env.step([3])
