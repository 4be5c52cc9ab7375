"""GRF's entry point: create_environment with GRF 2.10.2's signature, defaults and meaning."""
import inspect
import textwrap

import numpy as np
import pytest

import trackfield
from trackfield.football import create_environment
from trackfield.football.grf_api import simple115_from_v2

# GRF 2.10.2's gfootball.env.create_environment, argument by argument.
GRF_SIGNATURE = [
    ("env_name", ""), ("stacked", False), ("representation", "extracted"), ("rewards", "scoring"),
    ("write_goal_dumps", False), ("write_full_episode_dumps", False), ("render", False),
    ("write_video", False), ("dump_frequency", 1), ("logdir", ""), ("extra_players", None),
    ("number_of_left_players_agent_controls", 1), ("number_of_right_players_agent_controls", 0),
    ("channel_dimensions", (96, 72)), ("other_config_options", {}),
]


@pytest.mark.parametrize("module", ["trackfield.football", "trackfield.football.gfootball_env"])
def test_signature_and_defaults_are_grfs(module):
    import importlib
    params = inspect.signature(importlib.import_module(module).create_environment).parameters
    positional = [(n, p.default) for n, p in params.items() if p.kind == p.POSITIONAL_OR_KEYWORD]
    assert positional == GRF_SIGNATURE


GRF_SCRIPT = textwrap.dedent("""
    import gfootball.env as football_env

    env = football_env.create_environment(
        env_name="academy_empty_goal_close", representation="simple115v2", rewards="scoring,checkpoints",
        stacked=False, logdir="", write_goal_dumps=False, write_full_episode_dumps=False, render=False,
        number_of_left_players_agent_controls=1, other_config_options={"game_engine_random_seed": 7})
    total, steps, done = 0.0, 0, False
    obs = env.reset()
    assert obs.shape == (115,), obs.shape
    while not done:
        # run right and shoot when near goal
        action = 12 if obs[0 + 2] > 0.85 else 5
        obs, reward, done, info = env.step(action)
        total += reward
        steps += 1
    env.close()
    RESULT = (total, steps, info["score_reward"])
""")


def test_a_grf_script_runs_with_only_the_import_changed():
    source = GRF_SCRIPT.replace("import gfootball.env as football_env",
                                "import trackfield.football.gfootball_env as football_env")
    assert source.count("\n") == GRF_SCRIPT.count("\n")  # only that line differs
    scope = {}
    exec(compile(source, "grf_script", "exec"), scope)
    total, steps, score_reward = scope["RESULT"]
    assert 0 < steps <= 401
    assert total == pytest.approx(2.0)  # it scores from 0.77: the goal and every checkpoint
    assert score_reward == 1.0


def test_the_default_is_a_gymnasium_env_with_grfs_extracted_observation():
    env = create_environment("academy_empty_goal_close")
    obs, info = env.reset(seed=0)
    assert obs.shape == (72, 96, 4) and obs.dtype == np.uint8
    assert env.action_space.n == 19
    out = env.step(0)
    assert len(out) == 5
    env.close()


def test_representations_and_stacking_have_grfs_shapes():
    cases = {("simple115v2", False): (115,), ("simple115", False): (115,), ("simple115v2", True): (460,),
             ("extracted", True): (72, 96, 16), ("pixels", False): (72, 96, 3), ("pixels_gray", True): (72, 96, 4)}
    for (representation, stacked), shape in cases.items():
        env = create_environment("academy_3_vs_1_with_keeper", representation=representation, stacked=stacked)
        assert env.reset(seed=0)[0].shape == shape, (representation, stacked)
    env = create_environment("academy_3_vs_1_with_keeper", representation="extracted", channel_dimensions=(48, 36))
    assert env.reset(seed=0)[0].shape == (36, 48, 4)


def test_several_agents_get_grfs_per_agent_arrays_and_raw_is_a_list_of_dicts():
    env = create_environment("academy_3_vs_1_with_keeper", representation="simple115v2",
                             number_of_left_players_agent_controls=3)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (3, 115)
    obs, reward, *_ = env.step([0, 0, 0])
    assert np.shape(reward) == (3,)
    raw = create_environment("academy_3_vs_1_with_keeper", representation="raw")
    obs, _ = raw.reset(seed=0)
    assert isinstance(obs, list) and len(obs) == 1 and obs[0]["left_team"].shape == (4, 2)
    raw2 = create_environment("academy_3_vs_1_with_keeper", representation="raw",
                              number_of_left_players_agent_controls=2)
    obs, _ = raw2.reset(seed=0)
    assert len(obs) == 2 and obs[0]["left_team"].shape == (4, 2) and obs[0]["active"] != obs[1]["active"]


def test_simple115_is_grfs_v1_layout_with_fewer_than_eleven_players():
    env = create_environment("academy_empty_goal_close", representation="simple115")  # 2 v 1
    v1, _ = env.reset(seed=0)
    v2, _ = create_environment("academy_empty_goal_close", representation="simple115v2").reset(seed=0)
    # v1: 2 left positions, 2 left directions, 1 right position, 1 right direction, then -1.
    np.testing.assert_array_equal(v1[0:4], v2[0:4])
    np.testing.assert_array_equal(v1[4:8], v2[22:26])
    np.testing.assert_array_equal(v1[8:10], v2[44:46])
    np.testing.assert_array_equal(v1[10:12], v2[66:68])
    assert (v1[12:88] == -1).all()
    np.testing.assert_array_equal(v1[88:], v2[88:])
    full = create_environment("11_vs_11_stochastic", representation="simple115v2").reset(seed=0)[0]
    np.testing.assert_array_equal(simple115_from_v2(full), full)  # 11 v 11: the two layouts agree


def test_same_seed_same_game_as_trackfield_make():
    env = create_environment("academy_3_vs_1_with_keeper", representation="simple115v2",
                             other_config_options={"game_engine_random_seed": 5})
    ref = trackfield.make("academy_3_vs_1_with_keeper", representation="simple115v2")
    a, _ = env.reset()
    b, _ = ref.reset(seed=5)
    for t in range(30):
        np.testing.assert_array_equal(a, b)
        a = env.step(t % 19)[0]
        b = ref.step(t % 19)[0]


@pytest.mark.parametrize("kwargs, name", [
    (dict(write_goal_dumps=True), "write_goal_dumps"),
    (dict(write_video=True), "write_video"),
    (dict(extra_players=["bot:left_players=1"]), "extra_players"),
    (dict(representation="pixels_rgb"), "representation"),
    (dict(env_name=""), "env_name"),
    (dict(other_config_options={"real_time": True}), "real_time"),
    (dict(other_config_options={"no_such_key": 1}), "no_such_key"),
    (dict(rewards="scoring,bananas"), "rewards"),
    (dict(number_of_left_players_agent_controls=12), "number_of_left_players_agent_controls"),
])
def test_what_trackfield_cannot_honour_raises_naming_the_argument(kwargs, name):
    kwargs = {"env_name": "academy_empty_goal_close", **kwargs}
    with pytest.raises((ValueError, TypeError), match=name):
        create_environment(**kwargs)


def test_full_episode_dumps_every_dump_frequency_episodes(tmp_path):
    env = create_environment("academy_empty_goal_close", representation="simple115v2",
                             write_full_episode_dumps=True, logdir=str(tmp_path), dump_frequency=2,
                             other_config_options={"game_duration": 5})
    for episode in range(4):
        env.reset(seed=episode)
        done = False
        while not done:
            _, _, terminated, truncated, _ = env.step(0)
            done = terminated or truncated
    assert len(list(tmp_path.iterdir())) == 2  # episodes 0 and 2, as GRF's PeriodicDumpWriter


def test_other_config_options_set_the_action_set_and_trackfield_fields():
    env = create_environment("academy_empty_goal_close", representation="simple115v2",
                             other_config_options={"action_set": "v2", "game_duration": 20})
    assert env.action_space.n == 20
    env.reset(seed=0)
    steps, done = 0, False
    while not done:
        _, _, terminated, truncated, _ = env.step(0)
        done, steps = terminated or truncated, steps + 1
    assert steps == 21  # GRF's count: game_duration + 1


def test_render_true_gives_frames_and_the_gym_api_reports_the_time_limit():
    import trackfield.football.gfootball_env as football_env
    env = football_env.create_environment("academy_empty_goal_close", representation="simple115v2", render=True,
                                          other_config_options={"game_duration": 3, "render_resolution_x": 240})
    env.reset()
    frame = env.render()
    assert frame.ndim == 3 and frame.shape[1] == 240 and frame.shape[2] == 3
    done, info = False, {}
    while not done:
        _, _, done, info = env.step(0)
    assert info.get("TimeLimit.truncated") is True
