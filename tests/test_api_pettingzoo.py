"""The PettingZoo adapter: PettingZoo's own API and seed tests, agent bookkeeping,
action validation and agreement with the Gymnasium env."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test

import trackfield
from trackfield.football.pettingzoo import FootballParallelEnv

SCENARIO = "academy_3_vs_1_with_keeper"  # 4 left players (keeper + 3), 2 right (keeper + 1)

TEAMS = {
    "3_left": dict(number_of_left_players_agent_controls=3),
    "1_left_1_right": dict(number_of_left_players_agent_controls=1, number_of_right_players_agent_controls=1),
}
AGENTS = {"3_left": ["left_0", "left_1", "left_2"], "1_left_1_right": ["left_0", "right_0"]}


def make(**config):
    return trackfield.parallel_env(SCENARIO, **config)


@pytest.fixture(autouse=True)
def _quiet_pettingzoo_warnings():
    # PettingZoo's tests warn about unbounded Box spaces and Dict observations; those are by design.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("representation", ["simple115v2", "smm"])
@pytest.mark.parametrize("teams", list(TEAMS))
def test_parallel_api(teams, representation):
    env = make(representation=representation, **TEAMS[teams])
    assert isinstance(env, FootballParallelEnv)
    parallel_api_test(env, num_cycles=200)


@pytest.mark.parametrize("teams", list(TEAMS))
def test_parallel_api_raw(teams):
    # raw with agents on both teams needs equal team sizes: use 3 left, or right agents only.
    config = TEAMS[teams] if teams == "3_left" else dict(number_of_left_players_agent_controls=0,
                                                         number_of_right_players_agent_controls=2)
    env = make(representation="raw", **config)
    assert isinstance(env.observation_space(env.possible_agents[0]), spaces.Dict)
    parallel_api_test(env, num_cycles=200)


@pytest.mark.parametrize("representation", ["simple115v2", "smm"])
@pytest.mark.parametrize("teams", list(TEAMS))
def test_parallel_seed(teams, representation):
    parallel_seed_test(lambda: make(representation=representation, **TEAMS[teams]), num_cycles=200)


@pytest.mark.parametrize("representation", ["simple115v2", "smm", "raw"])
def test_aec_api(representation):
    env = trackfield.env(SCENARIO, representation=representation, number_of_left_players_agent_controls=3)
    api_test(env, num_cycles=200)


def test_aec_api_both_teams():
    api_test(trackfield.env(SCENARIO, **TEAMS["1_left_1_right"]), num_cycles=200)


@pytest.mark.parametrize("teams", list(TEAMS))
def test_agent_names_and_spaces(teams):
    env = make(**TEAMS[teams])
    assert env.possible_agents == AGENTS[teams]
    assert env.agents == []
    obs, infos = env.reset(seed=0)
    assert env.agents == AGENTS[teams]
    assert set(obs) == set(infos) == set(AGENTS[teams])
    for agent in env.agents:
        assert env.action_space(agent) == spaces.Discrete(19)
        assert env.observation_space(agent) == spaces.Box(-np.inf, np.inf, (115,), np.float32)
        assert env.observation_space(agent).contains(obs[agent])
        assert infos[agent]["reward_components"] == {"scoring": 0.0, "checkpoints": 0.0}
    assert env.metadata["name"] == "trackfield_football_v0"
    assert env.metadata["is_parallelizable"] is True
    assert env.num_agents == env.max_num_agents == len(AGENTS[teams])
    with pytest.raises(KeyError, match="left_9"):
        env.action_space("left_9")


def test_default_is_one_left_agent():
    env = trackfield.parallel_env("academy_empty_goal_close")
    assert env.possible_agents == ["left_0"]


def test_observation_spaces_per_representation():
    smm = make(representation="smm", **TEAMS["1_left_1_right"])
    assert smm.observation_space("right_0") == spaces.Box(0, 255, (72, 96, 4), np.uint8)
    stacked = make(representation="smm", stacked=True)
    assert stacked.observation_space("left_0").shape == (72, 96, 16)
    stacked115 = make(stacked=True)
    assert stacked115.observation_space("left_0").shape == (460,)
    raw = make(representation="raw", **TEAMS["3_left"])
    obs, _ = raw.reset(seed=0)
    assert raw.observation_space("left_1").contains(obs["left_1"])
    assert obs["left_1"]["left_team"].shape == (4, 2)


def _run_to_end(env, seed=0):
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = 0
    while True:
        actions = {agent: int(rng.integers(19)) for agent in env.agents}
        out = env.step(actions)
        steps += 1
        if not env.agents:
            return out, steps
        assert steps < 10_000


@pytest.mark.parametrize("teams", list(TEAMS))
def test_all_agents_leave_at_episode_end(teams):
    env = make(**TEAMS[teams])
    (obs, rewards, terminations, truncations, infos), _ = _run_to_end(env)
    everyone = set(AGENTS[teams])
    assert set(obs) == set(rewards) == set(terminations) == set(truncations) == set(infos) == everyone
    assert all(terminations[a] or truncations[a] for a in everyone)
    assert env.agents == []
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})
    env.reset(seed=1)
    assert env.agents == AGENTS[teams]


def test_truncation_removes_agents():
    env = make(game_duration=5, end_episode_on_score=False, end_episode_on_out_of_play=False,
               end_episode_on_possession_change=False, **TEAMS["1_left_1_right"])
    (_, _, terminations, truncations, _), steps = _run_to_end(env)
    assert steps == 6  # GRF counts game_duration + 1 steps
    assert truncations == {"left_0": True, "right_0": True}
    assert terminations == {"left_0": False, "right_0": False}
    assert env.agents == []


def test_bad_actions_raise():
    env = make(**TEAMS["1_left_1_right"])
    env.reset(seed=0)
    for bad in (19, -1, 1.5, "shot", True, None, [1, 2]):
        with pytest.raises(ValueError, match="right_0"):
            env.step({"left_0": 0, "right_0": bad})
    with pytest.raises(KeyError, match="right_0"):
        env.step({"left_0": 0})
    with pytest.raises(KeyError, match="left_7"):
        env.step({"left_0": 0, "right_0": 0, "left_7": 0})
    with pytest.raises(TypeError):
        env.step([0, 0])
    # numpy integers and 0-d / 1-element integer arrays are fine
    env.step({"left_0": np.int64(3), "right_0": np.array(5, dtype=np.int32)})
    env.step({"left_0": np.array([12]), "right_0": 0})


def test_step_before_reset_raises():
    with pytest.raises(RuntimeError, match="reset"):
        make().step({"left_0": 0})


@pytest.mark.parametrize("representation", ["simple115v2", "smm", "raw"])
def test_matches_gymnasium_env(representation):
    config = dict(representation=representation, number_of_left_players_agent_controls=3)
    par = make(**config)
    gym_env = trackfield.make(SCENARIO, **config)
    obs, infos = par.reset(seed=7)
    gobs, ginfo = gym_env.reset(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(120):
        for i, agent in enumerate(par.possible_agents):
            if representation == "raw":
                for key in gobs:
                    np.testing.assert_array_equal(obs[agent][key], gobs[key][i])
            else:
                np.testing.assert_array_equal(obs[agent], gobs[i])
        if not par.agents:  # unseeded resets continue from the world's generator in both envs
            obs, infos = par.reset()
            gobs, ginfo = gym_env.reset()
            continue
        actions = rng.integers(0, 19, size=3)
        obs, rewards, terms, truncs, infos = par.step({a: int(actions[i]) for i, a in enumerate(par.possible_agents)})
        gobs, grew, gterm, gtrunc, ginfo = gym_env.step(actions)
        for i, agent in enumerate(par.possible_agents):
            assert rewards[agent] == grew[i]
            assert terms[agent] == gterm and truncs[agent] == gtrunc
            for name in ("scoring", "checkpoints"):
                assert infos[agent]["reward_components"][name] == ginfo["reward_components"][name][i]
            assert infos[agent]["score"] == ginfo["score"]


def test_right_agent_sees_mirrored_pitch():
    env = make(**TEAMS["1_left_1_right"])
    obs, _ = env.reset(seed=0)
    left, right = obs["left_0"], obs["right_0"]
    # own team of one is the opponents of the other, rotated by 180 degrees
    np.testing.assert_allclose(right[44:52], -left[0:8], atol=1e-6)
    np.testing.assert_allclose(left[44:48], -right[0:4], atol=1e-6)


@pytest.mark.parametrize("representation", ["simple115v2", "smm", "raw"])
def test_state(representation):
    env = make(representation=representation, **TEAMS["3_left"])
    obs, _ = env.reset(seed=0)
    state = env.state()
    assert env.state_space.contains(state)
    if representation != "raw":
        np.testing.assert_array_equal(state, obs["left_0"])
    else:
        assert state.shape == (sum(int(np.prod(s.shape)) for s in env.observation_space("left_0").values()),)
    for _ in range(5):  # half a second: players move further than a minimap pixel (1.1 m)
        env.step({a: 5 for a in env.agents})
    assert not np.array_equal(env.state(), state)


def test_get_set_state_roundtrip():
    env = make(**TEAMS["1_left_1_right"])
    env.reset(seed=3)
    for _ in range(3):
        env.step({"left_0": 5, "right_0": 5})
    saved = env.get_state()
    assert isinstance(saved, bytes)
    actions = [{"left_0": int(a), "right_0": int(b)} for a, b in np.random.default_rng(0).integers(0, 19, (20, 2))]

    def play():
        out = []
        for act in actions:
            if not env.agents:
                break
            obs, rew, *_ = env.step(act)
            out.append((obs["left_0"].copy(), obs["right_0"].copy(), rew["left_0"]))
        return out

    first = play()
    env.set_state(saved)
    assert env.agents == ["left_0", "right_0"]
    second = play()
    assert len(first) == len(second)
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a[0], b[0])
        np.testing.assert_array_equal(a[1], b[1])
        assert a[2] == b[2]
    with pytest.raises(TypeError):
        env.set_state("not bytes")


def test_render():
    env = make(render_mode="rgb_array", render_width=192)
    env.reset(seed=0)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[1] == 192 and frame.shape[2] == 3
    assert make().render() is None
    with pytest.raises(ValueError, match="rgb_array"):
        make(render_mode="human")
    env.close()


def test_unknown_config_key():
    with pytest.raises(TypeError, match="unknown config key"):
        make(number_of_left_agents=2)
    with pytest.raises(ValueError, match="right players"):
        make(number_of_right_players_agent_controls=3)


def test_aec_api_town_self_play_with_respawns():
    # every vehicle an agent; an ended one's slot takes a new agent with a new name, which
    # possible_agents declared from the start (PettingZoo's converter keeps that list)
    api_test(trackfield.env("town_self_play", agents=8), num_cycles=400)


def test_town_self_play_possible_agents_hold_every_agent_of_an_episode():
    env = trackfield.parallel_env("town_self_play", agents=8, max_steps=60)
    declared = env.possible_agents
    assert len(declared) == 8 * 61 and len(set(declared)) == len(declared)
    rng = np.random.default_rng(0)
    seen = set()
    for seed in (0, 1):
        env.reset(seed=seed)
        while env.agents:
            seen |= set(env.agents)
            env.step({agent: int(rng.integers(12)) for agent in env.agents})
    assert env.possible_agents is declared and seen <= set(declared)
    assert len(seen) > 8 * 2  # random driving ends agents and the slots respawn
