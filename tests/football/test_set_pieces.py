"""Set pieces, fouls, handball, cards and per-player checkpoints in constructed situations.

Scenario coordinates are GRF units in each team's own frame (own goal at x = -1); a
right-team agent sees the pitch rotated, its own team as ``left_team``. With
``deterministic=True`` an outcome of chance c happens whenever c >= 0.5, so a slide
from behind (chance 0.6) is always a foul and a yellow card (0.4) never comes.
"""
from __future__ import annotations

import numpy as np
import pytest

import trackfield
from conftest import GRF_METRES, NO_END_FLAGS, write_scenario

GAME_MODE = dict(normal=0, kickoff=1, goal_kick=2, free_kick=3, corner=4, throw_in=5, penalty=6)
# GRF's 110 x 72 m pitch in observation units: the goal line at x = 55 / 54.4, the
# touchline at 36 / 83.6.
GOAL_LINE_X, TOUCHLINE_Y = 55.0 / 54.4, 36.0 / 83.6
PENALTY_SPOT_X = (55.0 - 11.0) / 54.4  # GRF's referee: 11 m from the goal line


def first_stoppage(env, actions):
    """Steps through actions until play stops; returns that step's (obs, info) and its index."""
    for t, action in enumerate(actions):
        obs, _, terminated, truncated, info = env.step(action)
        assert not (terminated or truncated)
        if info["game_mode"] != GAME_MODE["normal"]:
            return obs, info, t
    raise AssertionError("play never stopped")


def play_restart(env, action, steps=60):
    """Steps until the set piece is taken; returns the modes seen."""
    modes = []
    for _ in range(steps):
        obs, _, terminated, truncated, info = env.step(action)
        modes.append(info["game_mode"])
        if info["game_mode"] == GAME_MODE["normal"]:
            break
    return obs, modes


# ------------------------------------------------------------------------- out of play


def test_throw_in_goes_to_the_other_team_on_the_touch_line(scenario_file):
    # The left carrier runs over the bottom touch line: a right-team throw-in where it went out.
    path = scenario_file((0.5, 0.4), [(-1.0, 0.0, "GK"), (0.5, 0.39, "CF")],
                         [(-1.0, 0.0, "GK"), (0.0, 0.0, "CM")], game_duration=300, deterministic=True,
                         **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    obs, info, _ = first_stoppage(env, [7] * 40)
    assert info["game_mode"] == GAME_MODE["throw_in"] and int(obs["game_mode"]) == GAME_MODE["throw_in"]
    assert obs["ball"][1] == pytest.approx(TOUCHLINE_Y, abs=1e-4)
    assert 0.4 < obs["ball"][0] < 0.6
    obs, *_ = env.step(0)
    assert int(obs["ball_owned_team"]) == 1  # the opponents take it
    obs, modes = play_restart(env, 0)
    assert modes[-1] == GAME_MODE["normal"]  # the AI throws the ball in


def test_goal_kick_is_taken_by_the_defending_keeper(scenario_file):
    path = scenario_file((0.9, 0.3), [(-1.0, 0.0, "GK"), (0.89, 0.3, "CF")], [(-1.0, 0.0, "GK")],
                         game_duration=300, deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    obs, info, _ = first_stoppage(env, [5] * 40)
    assert info["game_mode"] == GAME_MODE["goal_kick"]
    obs, *_ = env.step(14)
    assert (int(obs["ball_owned_team"]), int(obs["ball_owned_player"])) == (1, 0)  # their keeper
    assert obs["ball"][0] == pytest.approx(0.9301, abs=1e-3)  # GRF's, measured (0.92 of its half length)
    obs, modes = play_restart(env, 0)
    assert modes[-1] == GAME_MODE["normal"]


def test_corner_when_a_defender_plays_the_ball_over_his_own_goal_line(scenario_file):
    # A right-team agent runs the ball over his own goal line, wide of the post: a corner
    # for the left team (the built-in AI), taken from the corner on that side.
    path = scenario_file((0.91, -0.3), [(-1.0, 0.0, "GK"), (-0.5, 0.0, "CF")],
                         [(-1.0, 0.0, "GK", True), (-0.9, 0.3, "CB")], game_duration=300,
                         deterministic=True, **NO_END_FLAGS)
    env = trackfield.make(path, representation="raw", number_of_left_players_agent_controls=0,
                          number_of_right_players_agent_controls=1)
    env.reset(seed=0)
    obs, info, _ = first_stoppage(env, [1] * 40)  # "left" in his own frame: towards his goal
    assert info["game_mode"] == GAME_MODE["corner"]
    assert obs["ball"][0] == pytest.approx(-GOAL_LINE_X, abs=1e-4)  # his own goal line
    assert obs["ball"][1] == pytest.approx(TOUCHLINE_Y, abs=1e-4)
    obs, *_ = env.step(14)
    assert int(obs["ball_owned_team"]) == 1  # the other team takes it
    obs, modes = play_restart(env, 0)
    assert modes[-1] == GAME_MODE["normal"]


# --------------------------------------------------------------------------------- fouls


def sliding_foul_scenario(scenario_file, x):
    """A left carrier at x facing the right goal and a right-team defender 1 m behind him."""
    return scenario_file((x + 0.01, 0.0), [(-1.0, 0.0, "GK"), (x, 0.0, "CF")],
                         [(-1.0, 0.0, "GK", True), (-(x - 0.02), 0.0, "CB")], game_duration=300,
                         deterministic=True, **NO_END_FLAGS)


@pytest.mark.parametrize("x,mode", [(0.8, "penalty"), (0.4, "free_kick")], ids=["in_box", "outside"])
def test_slide_from_behind_gives_penalty_in_the_box_and_free_kick_outside(scenario_file, x, mode):
    path = sliding_foul_scenario(scenario_file, x)
    env = trackfield.make(path, representation="raw", number_of_left_players_agent_controls=1,
                          number_of_right_players_agent_controls=1)
    env.reset(seed=0)
    env.step([0, 0])  # his first touch: GRF reports him on the ball after it
    obs, *_ = env.step([0, 0])
    assert int(obs["ball_owned_team"][0]) == 0  # the carrier has it
    obs, info, _ = first_stoppage(env, [[0, 16]] + [[0, 0]] * 10)
    assert info["game_mode"] == GAME_MODE[mode]
    left_view = obs["ball"][0]
    if mode == "penalty":
        assert left_view[0] == pytest.approx(PENALTY_SPOT_X, abs=1e-3) and left_view[1] == pytest.approx(0.0)
    else:
        assert left_view[0] == pytest.approx(x, abs=0.05)  # where the carrier was fouled
    obs, *_ = env.step([0, 0])
    assert int(obs["ball_owned_team"][0]) == 0  # the fouled team restarts
    assert not obs["right_team_yellow_card"][0].any()  # deterministic: no card (chance 0.4)


def test_penalty_is_taken_and_play_resumes(scenario_file):
    path = sliding_foul_scenario(scenario_file, 0.8)
    env = trackfield.make(path, representation="raw", number_of_left_players_agent_controls=1,
                          number_of_right_players_agent_controls=1)
    env.reset(seed=0)
    env.step([0, 0])
    obs, info, _ = first_stoppage(env, [[0, 16]] + [[0, 0]] * 10)
    assert info["game_mode"] == GAME_MODE["penalty"]
    obs, *_ = env.step([0, 0])
    # The fouled player takes it; the defender keeps 9.15 m from the spot.
    assert (int(obs["ball_owned_team"][0]), int(obs["ball_owned_player"][0])) == (0, 1)
    spot = obs["ball"][0][:2] * GRF_METRES
    defender = obs["right_team"][0][1] * GRF_METRES
    assert np.linalg.norm(spot - defender) >= 9.15 - 1e-3
    # The controlled taker shoots once the delay is over.
    _, modes = play_restart(env, [12, 0])
    assert modes[-1] == GAME_MODE["normal"]


# ------------------------------------------------------------------------------ handball


def handball_scenario(scenario_file, shooter_x, defender_x, defender_y=0.0, deterministic=True):
    """A left passer with a team-mate 17-21 m ahead and a lazy right field player 3 m
    ahead in the ball's path (defender at (defender_x, defender_y) in the left team's
    frame). GRF's shots are driven low (under 0.7 m), so the ball that reaches arm
    height is a high pass: 3 m out it is about 1.2 m up, climbing."""
    mate_x = min(shooter_x + 0.4, 0.97)
    return scenario_file((shooter_x + 0.01, 0.0),
                         [(-1.0, 0.0, "GK"), (shooter_x, 0.0, "CM"), (mate_x, defender_y, "CF", True)],
                         [(-1.0, 0.0, "GK", True), (-defender_x, -defender_y, "CB", True)],
                         game_duration=100, deterministic=deterministic, **NO_END_FLAGS)


HIGH_PASS = 10


# The high pass reaches the defender 3 m out at arm height (0.8-1.6 m); the box's edge
# is 16.5 m from the goal line (x = 0.686).
@pytest.mark.parametrize("shooter_x,defender_x,defender_y,mode",
                         [(0.3, 0.357, 0.0, "free_kick"), (0.623, 0.68, 0.011, "free_kick"),
                          (0.663, 0.72, 0.013, "penalty")], ids=["midfield", "box_edge", "in_box"])
def test_handball_with_probability_one_is_always_called(scenario_file, shooter_x, defender_x, defender_y, mode):
    path = handball_scenario(scenario_file, shooter_x, defender_x, defender_y)
    env = trackfield.make(path, representation="raw", handballs=True, handball_probability=1.0)
    for seed in range(3):
        env.reset(seed=seed)
        obs, info, _ = first_stoppage(env, [0, HIGH_PASS] + [0] * 30)
        assert info["game_mode"] == GAME_MODE[mode]
        if mode == "free_kick":
            assert obs["ball"][0] == pytest.approx(defender_x, abs=0.03)  # where the ball struck him
        else:
            assert obs["ball"][0] == pytest.approx(PENALTY_SPOT_X, abs=1e-3)
        obs, *_ = env.step(0)
        assert int(obs["ball_owned_team"]) == 0  # the shooter's team restarts


@pytest.mark.parametrize("overrides", [dict(handballs=False, handball_probability=1.0),
                                       dict(handballs=True, handball_probability=0.0), {}],
                         ids=["handballs_off", "probability_zero", "default_off"])
@pytest.mark.parametrize("geometry", [(0.3, 0.357, 0.0), (0.663, 0.72, 0.013)], ids=["midfield", "in_box"])
def test_handball_is_never_called_when_off(scenario_file, overrides, geometry):
    path = handball_scenario(scenario_file, *geometry)
    env = trackfield.make(path, representation="raw", **overrides)
    for seed in range(3):
        env.reset(seed=seed)
        modes = []
        for a in [0, HIGH_PASS] + [0] * 30:
            obs, _, terminated, truncated, info = env.step(a)
            modes.append(info["game_mode"])
            if terminated or truncated:
                break
        assert GAME_MODE["free_kick"] not in modes and GAME_MODE["penalty"] not in modes


def test_handball_probability_sets_the_share_of_touches_called(scenario_file):
    # Each touch on the arms is called with the given probability: the share called at
    # 0.5 is about half of that at 1.
    path = handball_scenario(scenario_file, 0.3, 0.357, deterministic=False)
    calls = {}
    for probability in (1.0, 0.5):
        env = trackfield.make(path, representation="raw", handballs=True, handball_probability=probability)
        calls[probability] = 0
        for seed in range(60):
            env.reset(seed=seed)
            for a in [0, HIGH_PASS] + [0] * 30:
                _, _, terminated, truncated, info = env.step(a)
                if info["game_mode"] != GAME_MODE["normal"] or terminated or truncated:
                    calls[probability] += info["game_mode"] == GAME_MODE["free_kick"]
                    break
    assert calls[1.0] >= 30
    assert 0.3 * calls[1.0] <= calls[0.5] <= 0.75 * calls[1.0]


def test_handballs_can_be_set_in_a_scenario_file(tmp_path):
    path = write_scenario(tmp_path, """
        builder.config().handballs = True
        builder.config().handball_probability = 1.0
        builder.config().deterministic = True
        builder.config().offsides = False
        builder.SetBallPosition(0.31, 0.0)
        builder.SetTeam(Team.e_Left)
        builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK)
        builder.AddPlayer(0.3, 0.0, e_PlayerRole_CM)
        builder.AddPlayer(0.7, 0.0, e_PlayerRole_CF, True)
        builder.SetTeam(Team.e_Right)
        builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK, True)
        builder.AddPlayer(-0.357, 0.0, e_PlayerRole_CB, True)
    """)
    env = trackfield.make(path, representation="raw")
    env.reset(seed=0)
    _, info, _ = first_stoppage(env, [0, HIGH_PASS] + [0] * 30)
    assert info["game_mode"] == GAME_MODE["free_kick"]
    with pytest.raises(ValueError, match="handball_probability"):
        trackfield.make(path, handball_probability=1.5)


# --------------------------------------------------------------------------------- cards


def test_second_yellow_sends_the_player_off_and_pads_his_slot(scenario_file):
    # A right-team agent slides at a left carrier again and again (deterministic=False:
    # each slide from behind is a foul with chance 0.6, each foul a yellow with 0.4).
    path = scenario_file((0.01, 0.0), [(-1.0, 0.0, "GK"), (0.0, 0.0, "CF"), (0.05, 0.08, "CM")],
                         [(-1.0, 0.0, "GK", True), (0.02, 0.0, "CB"), (-0.5, -0.2, "CM")],
                         game_duration=1500, deterministic=False, **NO_END_FLAGS)
    config = dict(number_of_left_players_agent_controls=1, number_of_right_players_agent_controls=1,
                  action_set="full")
    raw = trackfield.make(path, representation="raw", **config)
    simple = trackfield.make(path, representation="simple115v2", **config)

    def policy(obs, t):
        # left: play the free kick when awarded one; right: pressure, then slide whenever possible
        left = 11 if obs["game_mode"][0] in (3, 6) and obs["ball_owned_team"][0] == 0 else 0
        return [left, 21 if t == 0 else 16]

    for seed in range(100):
        obs, _ = raw.reset(seed=seed)
        actions = []
        for t in range(1500):
            actions.append(policy(obs, t))
            obs, _, terminated, truncated, info = raw.step(actions[-1])
            if not obs["right_team_active"][0, 1] or terminated or truncated:
                break
        if not obs["right_team_active"][0, 1]:  # sent off: a second yellow card
            break
    else:
        pytest.fail("no second yellow card in 100 episodes")
    off_at = len(actions)
    # raw: the slot stays, inactive, at the spot where he left (both sides' views agree);
    # his yellow card shows (GRF's yellow_card is a flag: shown one or more).
    assert not obs["right_team_active"][0, 1] and not obs["left_team_active"][1, 1]
    assert obs["right_team_yellow_card"][0, 1] and obs["left_team_yellow_card"][1, 1]
    assert obs["right_team_active"][0, [0, 2]].all()
    assert int(obs["active"][1]) != 1  # the right agent now drives a team-mate
    where = obs["right_team"][0, 1].copy()
    # simple115v2 (same seed and actions: the same game): his slot is padded with -1.
    simple.reset(seed=seed)
    for action in actions:
        sobs, *_ = simple.step(action)
    assert np.all(sobs[0, 44 + 2:44 + 4] == -1) and np.all(sobs[0, 66 + 2:66 + 4] == -1)  # left agent: opponent 1
    assert np.all(sobs[1, 2:4] == -1) and np.all(sobs[1, 22 + 2:22 + 4] == -1)  # right agent: own player 1
    assert sobs[1, 97 + 1] == 0.0  # not the active player
    assert np.all(sobs[0, 44:46] != -1)  # the others are still there
    # He stays off for the rest of the episode and is back after reset.
    for t in range(off_at, off_at + 30):
        obs, _, terminated, truncated, _ = raw.step([0, 0])
        sobs, *_ = simple.step([0, 0])
        assert not obs["right_team_active"][0, 1] and np.all(sobs[1, 2:4] == -1)
        assert np.array_equal(obs["right_team"][0, 1], where)
        if terminated or truncated:
            break
    obs, _ = raw.reset(seed=0)
    assert obs["right_team_active"][0].all() and not obs["right_team_yellow_card"][0].any()


# ---------------------------------------------------------------- per-player checkpoints


def test_checkpoints_are_counted_per_controlled_player(tmp_path):
    # Two agents, one per field player (the keeper is not controllable): only the agent
    # whose player carries the ball forward collects checkpoints until the goal, when each
    # agent is paid its unpaid ones (GRF's CheckpointRewardWrapper, per agent).
    path = write_scenario(tmp_path, """
        builder.config().game_duration = 200
        builder.config().deterministic = True
        builder.config().offsides = False
        builder.config().end_episode_on_score = True
        builder.SetBallPosition(0.01, 0.0)
        builder.SetTeam(Team.e_Left)
        builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK, controllable=False)
        builder.AddPlayer(0.0, 0.0, e_PlayerRole_CF)
        builder.AddPlayer(-0.3, 0.3, e_PlayerRole_CM)
        builder.SetTeam(Team.e_Right)
        builder.AddPlayer(1.0, 0.0, e_PlayerRole_GK, True)
    """)
    env = trackfield.make(path, representation="raw", rewards="scoring,checkpoints",
                          number_of_left_players_agent_controls=2)
    obs, _ = env.reset(seed=0)
    assert obs["active"].tolist() == [1, 2]
    totals = np.zeros(2)
    for t in range(200):
        action = [5, 0] if obs["ball"][0][0] < 0.6 else [12, 0]
        obs, reward, terminated, truncated, info = env.step(action)
        comps = info["reward_components"]
        if comps["scoring"][0] == 1.0:
            break
        totals += comps["checkpoints"]
        assert comps["checkpoints"][1] == 0.0  # the idle agent's player never has the ball
    else:
        pytest.fail("no goal")
    assert terminated
    # Carried to about 0.6-0.65 before the shot leaves the foot (0.35-0.4 from goal):
    # seven or eight zones paid; the goal pays agent 0's rest and all ten of agent 1's.
    assert 0.7 - 1e-5 <= totals[0] <= 0.8 + 1e-5
    assert comps["checkpoints"].tolist() == pytest.approx([1.0 - totals[0], 1.0], abs=1e-5)
    assert reward.tolist() == pytest.approx([2.0 - totals[0], 2.0], abs=1e-5)


def test_parallel_env_reports_checkpoints_per_agent():
    env = trackfield.parallel_env("academy_3_vs_1_with_keeper", number_of_left_players_agent_controls=3,
                                  rewards="scoring,checkpoints")
    env.reset(seed=0)
    paid = {agent: 0.0 for agent in env.possible_agents}
    rng = np.random.default_rng(0)
    for _ in range(60):
        if not env.agents:
            break
        _, rewards, _, _, infos = env.step({a: int(rng.integers(0, 19)) for a in env.agents})
        for agent, info in infos.items():
            assert info["reward_components"]["checkpoints"] >= 0.0
            paid[agent] += info["reward_components"]["checkpoints"]
    assert all(0.0 <= v <= 1.0 + 1e-5 for v in paid.values())
