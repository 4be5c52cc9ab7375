"""Bad inputs get clear Python exceptions, never a crash or a silent misreading."""
from __future__ import annotations

import math
import re

import numpy as np
import pytest

import trackfield
from trackfield.football.scenarios import ScenarioError
from conftest import ALL_SCENARIOS, write_scenario

# ------------------------------------------------------------------------- make() arguments


def test_unknown_scenario_name_lists_known_names():
    with pytest.raises(ValueError) as excinfo:
        trackfield.make("academy_empty_goal_far")
    message = str(excinfo.value)
    assert "academy_empty_goal_far" in message
    for name in ALL_SCENARIOS:
        assert name in message


def test_unknown_scenario_name_in_football_env_lists_known_names():
    from trackfield.football.env import FootballEnv

    with pytest.raises(ValueError) as excinfo:
        FootballEnv("academy_empty_goal_far")
    for name in ALL_SCENARIOS:
        assert name in str(excinfo.value)


def test_unknown_scenario_name_in_vector_make():
    with pytest.raises(ValueError, match="unknown scenario"):
        trackfield.vector.make("no_such_scenario", num_envs=2)


@pytest.mark.parametrize("path", ["/nonexistent/dir/scenario.py", "missing_scenario.py", "./x/y.py"])
def test_nonexistent_scenario_path(path):
    with pytest.raises(FileNotFoundError):
        trackfield.make(path)


def test_nonexistent_scenario_pathlike(tmp_path):
    with pytest.raises(FileNotFoundError):
        trackfield.make(tmp_path / "nope.py")


@pytest.mark.parametrize("bad", [42, None, 3.5, b"academy_empty_goal_close"])
def test_scenario_of_wrong_type(bad):
    with pytest.raises((TypeError, ValueError)):
        trackfield.make(bad)


@pytest.mark.parametrize("key", ["representaton", "reward", "num_agents", "seed"])
def test_unknown_config_key_lists_valid_keys(key):
    with pytest.raises(TypeError) as excinfo:
        trackfield.make("academy_empty_goal_close", **{key: 1})
    message = str(excinfo.value)
    assert key in message
    for valid in ("representation", "stacked", "rewards", "number_of_left_players_agent_controls",
                  "game_duration"):
        assert valid in message


def test_unknown_config_key_in_vector_make():
    with pytest.raises(TypeError, match="valid keys"):
        trackfield.vector.make("academy_empty_goal_close", num_envs=2, colour="red")


@pytest.mark.parametrize("representation", ["pixel", "simple115", "extracted", "SMM", "", None, 3])
def test_bad_representation(representation):
    with pytest.raises(ValueError, match="representation"):
        trackfield.make("academy_empty_goal_close", representation=representation)


def test_stacked_raw_is_refused():
    with pytest.raises(ValueError, match="raw"):
        trackfield.make("academy_empty_goal_close", representation="raw", stacked=True)


@pytest.mark.parametrize("config,error", [
    ({"stacked": 1}, TypeError),
    ({"stacked": "yes"}, TypeError),
    ({"rewards": "checkpoints"}, ValueError),
    ({"rewards": "scoring,goals"}, ValueError),
    ({"rewards": ["scoring"]}, TypeError),
    ({"number_of_left_players_agent_controls": 3}, ValueError),  # the scenario has 2 left players
    ({"number_of_left_players_agent_controls": -1}, ValueError),
    ({"number_of_left_players_agent_controls": 12}, ValueError),
    ({"number_of_left_players_agent_controls": 1.0}, TypeError),
    ({"number_of_right_players_agent_controls": 2}, ValueError),
    ({"game_duration": 0}, ValueError),
    ({"game_duration": -5}, ValueError),
    ({"game_duration": 10.5}, TypeError),
    ({"left_team_difficulty": 1.5}, ValueError),
    ({"right_team_difficulty": -0.1}, ValueError),
    ({"right_team_difficulty": math.nan}, ValueError),
    ({"right_team_difficulty": "hard"}, TypeError),
    ({"deterministic": 1}, TypeError),
    ({"end_episode_on_score": "no"}, TypeError),
    ({"render_mode": "window"}, ValueError),
    ({"render_width": 10}, ValueError),
])
def test_bad_config_values(config, error):
    with pytest.raises(error):
        trackfield.make("academy_empty_goal_close", **config)


@pytest.mark.parametrize("kwargs", [{"num_envs": 0}, {"num_envs": -1}, {"num_envs": 2, "num_threads": 0},
                                    {"num_envs": 2.0}, {"num_envs": 2, "render_mode": "human"}])
def test_bad_vector_arguments(kwargs):
    with pytest.raises((ValueError, TypeError)):
        trackfield.vector.make("academy_empty_goal_close", **kwargs)


@pytest.mark.parametrize("seed", [-1, 1.5, "1", 2 ** 70])
def test_vector_reset_bad_seed(seed):
    envs = trackfield.vector.make("academy_empty_goal_close", num_envs=2, num_threads=1)
    with pytest.raises((ValueError, TypeError)):
        envs.reset(seed=seed)


def test_single_env_reset_seed_beyond_uint64():
    env = trackfield.make("academy_empty_goal_close")
    with pytest.raises((ValueError, TypeError)):
        env.reset(seed=2 ** 64)


def test_largest_seed_works():
    env = trackfield.make("academy_empty_goal_close")
    env.reset(seed=2 ** 64 - 1)
    env.step(0)
    envs = trackfield.vector.make("academy_empty_goal_close", num_envs=2, num_threads=1)
    envs.reset(seed=2 ** 64 - 1)


# ---------------------------------------------------------------------------------- actions


def test_step_before_reset_raises_runtime_error():
    with pytest.raises(RuntimeError, match="reset"):
        trackfield.make("academy_empty_goal_close").step(0)
    with pytest.raises(RuntimeError, match="reset"):
        trackfield.vector.make("academy_empty_goal_close", num_envs=2, num_threads=1).step(np.zeros(2, int))


def test_step_after_episode_end_raises_runtime_error():
    env = trackfield.make("academy_empty_goal_close", game_duration=2)
    env.reset(seed=0)
    env.step(0), env.step(0)
    _, _, terminated, truncated, _ = env.step(0)
    assert terminated or truncated
    with pytest.raises(RuntimeError):
        env.step(0)


@pytest.mark.parametrize("action", [-1, 19, 100, -(2 ** 31), 2 ** 31, 2 ** 40, np.int64(2 ** 32 + 3),
                                    np.array([2 ** 32 + 3])])
def test_single_env_action_out_of_range(action):
    env = trackfield.make("academy_empty_goal_close")
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"\[0, 18\]"):
        env.step(action)
    env.step(0)  # still usable


@pytest.mark.parametrize("action", [1.0, 3.7, math.nan, math.inf, np.float32(3), np.array(2.0), "3", None,
                                    True, [1, 2], np.array([1, 2]), b"\x03", object()])
def test_single_env_action_of_wrong_type(action):
    env = trackfield.make("academy_empty_goal_close")
    env.reset(seed=0)
    with pytest.raises((ValueError, TypeError)):
        env.step(action)


@pytest.mark.parametrize("action", [0, 18, np.int8(5), np.uint8(5), np.int64(5), np.array(5), np.array([5])])
def test_single_env_accepts_integer_actions(action):
    env = trackfield.make("academy_empty_goal_close")
    env.reset(seed=0)
    env.step(action)


@pytest.mark.parametrize("action", [[1], [1, 2, 3], 3, [[1, 2]], [1.0, 2.0], [-1, 2], [1, 19], ["a", "b"],
                                    [1, 2 ** 32 + 1]])
def test_multi_agent_bad_actions(action):
    env = trackfield.make("academy_3_vs_1_with_keeper", number_of_left_players_agent_controls=2)
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(action)
    env.step([1, 2])


@pytest.mark.parametrize("actions", [
    np.zeros(4, int), np.zeros((3, 1), int), np.zeros((1, 3), int), np.zeros((), int), np.zeros(3),
    np.array([0, 0, np.nan]), np.array([0, 0, -1]), np.array([0, 0, 19]), np.zeros(3, bool),
    np.zeros(3, object), "abc", None, np.array([0, 1, 300], np.uint16), [0.5, 1, 2],
])
def test_vector_env_bad_actions(actions):
    envs = trackfield.vector.make("academy_3_vs_1_with_keeper", num_envs=3, num_threads=1)
    envs.reset(seed=0)
    with pytest.raises(ValueError):
        envs.step(actions)
    envs.step(np.zeros(3, int))


@pytest.mark.parametrize("value,dtype", [(2 ** 32 + 5, np.int64), (2 ** 33, np.int64), (-(2 ** 33), np.int64),
                                         (2 ** 62, np.int64), (2 ** 63, np.uint64), (2 ** 32, np.uint64)])
def test_vector_env_rejects_actions_beyond_int32(value, dtype):
    # They must not wrap into [0, 18] on the way into the engine's int32 buffer.
    envs = trackfield.vector.make("academy_3_vs_1_with_keeper", num_envs=3, num_threads=1)
    envs.reset(seed=0)
    with pytest.raises(ValueError):
        envs.step(np.array([0, 0, value], dtype=dtype))


def _is_valid_vector_action(a, shape):
    if not isinstance(a, np.ndarray) or a.dtype == np.bool_ or not np.issubdtype(a.dtype, np.integer):
        return False
    return a.shape == shape and (a.size == 0 or (a.min() >= 0 and a.max() <= 18))


@pytest.mark.parametrize("agents", [1, 2])
def test_random_action_fuzz_vector_env(agents):
    """2000 random action arrays, many of them garbage: only ValueError/TypeError, and an
    array is accepted exactly when it is a valid action batch."""
    num_envs = 4
    envs = trackfield.vector.make("academy_3_vs_1_with_keeper", num_envs=num_envs, num_threads=2,
                                  number_of_left_players_agent_controls=agents)
    envs.reset(seed=0)
    shape = (num_envs,) if agents == 1 else (num_envs, agents)
    rng = np.random.default_rng(agents)
    int_dtypes = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.intp]
    extreme = [-1, 19, 255, 1000, -(2 ** 31), 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 3, -(2 ** 40), 2 ** 63 - 1]
    accepted = 0
    for i in range(2000):
        kind = rng.integers(0, 10)
        if kind <= 3:  # valid, in a random integer dtype
            a = rng.integers(0, 19, shape).astype(rng.choice(int_dtypes))
        elif kind == 4:  # one value out of range
            a = rng.integers(0, 19, shape).astype(np.int64)
            a.flat[rng.integers(0, a.size)] = rng.choice(extreme)
        elif kind == 5:  # wrong shape
            bad_shape = tuple(int(s) for s in rng.integers(0, 6, rng.integers(0, 4)))
            a = rng.integers(0, 19, bad_shape)
        elif kind == 6:  # floats, NaN, inf
            a = rng.uniform(-5, 25, shape)
            if rng.random() < 0.5:
                a.flat[0] = rng.choice([np.nan, np.inf, -np.inf])
        elif kind == 7:  # bools, complex, strings, objects
            a = rng.choice([np.zeros(shape, bool), np.zeros(shape, complex), np.full(shape, "1"),
                            np.empty(shape, object)])
        elif kind == 8:  # python lists (valid or not)
            a = rng.integers(-2, 21, shape).tolist()
        else:  # scalars and None
            a = rng.choice([None, 0, 3.0, "x", b"1", np.int64(2)])
        valid = _is_valid_vector_action(np.asarray(a) if isinstance(a, list) else a, shape)
        try:
            obs, rewards, terminated, truncated, _ = envs.step(a)
        except (ValueError, TypeError):
            assert not valid, f"valid action batch {a!r} refused"
        else:
            assert valid, f"invalid action batch {a!r} accepted"
            accepted += 1
            assert obs.shape[0] == num_envs and np.isfinite(obs).all()
    assert accepted > 500


def test_random_action_fuzz_single_env_random_play_never_breaks():
    # Long random play on every scenario: observations stay finite and within the space.
    for name in ALL_SCENARIOS:
        env = trackfield.make(name)
        env.reset(seed=0)
        rng = np.random.default_rng(0)
        for _ in range(300):
            obs, reward, terminated, truncated, info = env.step(int(rng.integers(0, 19)))
            assert np.isfinite(obs).all() and np.isfinite(reward)
            assert 0 <= info["game_mode"] <= 6
            if terminated or truncated:
                env.reset()


# --------------------------------------------------------------------- malformed scenarios

GOOD_LINEUP = """
    builder.SetBallPosition(0.0, 0.0)
    builder.SetTeam(Team.e_Left)
    builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK)
    builder.SetTeam(Team.e_Right)
    builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK)
"""


def bad_scenario(tmp_path, lines, header=True):
    """A scenario file whose build_scenario starts with the good line-up, then `lines`;
    returns (path, line number of the first of `lines`)."""
    body = "\n".join(line.strip() for line in GOOD_LINEUP.strip().splitlines()) + "\n" + lines
    path = write_scenario(tmp_path, body, name="broken")
    with open(path) as f:
        text = f.read().splitlines()
    first = lines.strip().splitlines()[0].strip()
    return path, next(i + 1 for i, line in enumerate(text) if line.strip() == first)


def assert_scenario_error(path, line, *fragments):
    with pytest.raises(ScenarioError) as excinfo:
        trackfield.make(path)
    message = str(excinfo.value)
    assert isinstance(excinfo.value, ValueError)
    assert f"{path}:{line}" in message, message
    for fragment in fragments:
        assert re.search(fragment, message), (fragment, message)
    return message


def test_scenario_syntax_error(tmp_path):
    path, line = bad_scenario(tmp_path, "builder.config().game_duration = = 10")
    assert_scenario_error(path, line, "syntax")


def test_scenario_unknown_role_name(tmp_path):
    path, line = bad_scenario(tmp_path, "builder.AddPlayer(0.0, 0.0, e_PlayerRole_XX)")
    assert_scenario_error(path, line, "e_PlayerRole_XX")


@pytest.mark.parametrize("role", ["42", "-1", "10", "'CF'", "None", "3.0", "True"])
def test_scenario_bad_role_value(tmp_path, role):
    path, line = bad_scenario(tmp_path, f"builder.AddPlayer(0.0, 0.0, {role})")
    assert_scenario_error(path, line, "role")


@pytest.mark.parametrize("x,y", [(1.5, 0.0), (-1.2, 0.0), (0.0, 0.5), (0.0, -0.43), ("float('nan')", 0.0)])
def test_scenario_player_off_the_pitch(tmp_path, x, y):
    path, line = bad_scenario(tmp_path, f"builder.AddPlayer({x}, {y}, e_PlayerRole_CF)")
    assert_scenario_error(path, line, "off the pitch")


def test_scenario_ball_off_the_pitch(tmp_path):
    path, line = bad_scenario(tmp_path, "builder.SetBallPosition(1.5, 0.0)")
    assert_scenario_error(path, line, "off the pitch")


def test_scenario_more_than_eleven_players(tmp_path):
    adds = "\n".join(f"builder.AddPlayer(0.0, {0.01 * k:.2f}, e_PlayerRole_CM)" for k in range(11))
    path, first = bad_scenario(tmp_path, adds)
    # the right team already has its keeper: the 11th extra player is the 12th
    assert_scenario_error(path, first + 10, "more than 11")


def test_scenario_unknown_config_field(tmp_path):
    path, line = bad_scenario(tmp_path, "builder.config().game_durration = 100")
    message = assert_scenario_error(path, line, "game_durration")
    assert "game_duration" in message  # the valid fields are listed


@pytest.mark.parametrize("assignment", ["game_duration = 'long'", "game_duration = 0",
                                        "right_team_difficulty = 2.0", "deterministic = 'yes'",
                                        "left_team_difficulty = True"])
def test_scenario_bad_config_value(tmp_path, assignment):
    path, line = bad_scenario(tmp_path, f"builder.config().{assignment}")
    assert_scenario_error(path, line, assignment.split()[0])


def test_scenario_bad_team(tmp_path):
    path, line = bad_scenario(tmp_path, "builder.SetTeam(2)")
    assert_scenario_error(path, line, "SetTeam")


def test_scenario_exception_in_build_scenario(tmp_path):
    path, line = bad_scenario(tmp_path, "raise RuntimeError('boom')")
    assert_scenario_error(path, line, "boom")


def test_scenario_missing_build_scenario(tmp_path):
    path = tmp_path / "nobuild.py"
    path.write_text("from . import *\n\n\ndef build(builder):\n    pass\n")
    with pytest.raises(ScenarioError, match="build_scenario") as excinfo:
        trackfield.make(str(path))
    assert str(path) in str(excinfo.value)


def test_scenario_error_at_import_time(tmp_path):
    path = tmp_path / "imports.py"
    path.write_text("from . import *\nimport no_such_module_xyz\n\n\ndef build_scenario(builder):\n    pass\n")
    with pytest.raises(ScenarioError, match="no_such_module_xyz") as excinfo:
        trackfield.make(str(path))
    assert f"{path}:2" in str(excinfo.value)


def test_scenario_error_is_a_value_error():
    assert issubclass(ScenarioError, ValueError)


def test_grf_style_scenario_with_empty_team_gets_lazy_keeper(tmp_path):
    path = write_scenario(tmp_path, """
        builder.config().game_duration = 20
        builder.SetBallPosition(0.0, 0.0)
        builder.SetTeam(Team.e_Left)
        builder.AddPlayer(0.0, 0.0, e_PlayerRole_CF)
        builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK, lazy=False, controllable=True)
    """)
    env = trackfield.make(path, representation="raw")
    obs, _ = env.reset(seed=0)
    assert obs["right_team"].shape == (1, 2)
    assert obs["right_team_roles"].tolist() == [0]
    # GRF: the lone keeper is added at (-1, 0.42) in its own frame, i.e. (1, -0.42) for us,
    # observed where GRF's engine places players (x 55 m, y 2.36 x 36 m: 0.3 m inside the
    # touchline) over its observation scale (54.4 and 83.6 m per unit)
    spot = [55 / 54.4, -0.42 * 2.36 * 36 / 83.6]
    assert np.allclose(obs["right_team"][0], spot, atol=1e-6)
    for _ in range(15):
        obs, *_ = env.step(0)
        assert np.allclose(obs["right_team"][0], spot, atol=1e-6)


def test_same_scenario_file_can_be_loaded_twice(tmp_path):
    path = write_scenario(tmp_path, GOOD_LINEUP)
    a, b = trackfield.make(path), trackfield.make(path)
    assert np.array_equal(a.reset(seed=0)[0], b.reset(seed=0)[0])
