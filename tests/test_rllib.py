"""Ray RLlib adapters (trackfield.rllib): RLlib's own env runners and env checks on every
registered domain, PPO iterations, the NEXT_STEP conversion, bad input, and (slow) PPO on
a two-node local cluster.

A domain that lands adds its rows to SINGLE_AGENT_CASES and MULTI_AGENT_CASES (and its
agent-name prefixes to trackfield.rllib.AGENT_GROUPS); every test here then covers it.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest
from conftest import load_example

# Every test here starts or uses Ray: the second test command runs them (-m rllib).
pytestmark = pytest.mark.rllib

ray = pytest.importorskip("ray")
pytest.importorskip("ray.rllib")

import gymnasium as gym  # noqa: E402
from ray.rllib.algorithms.algorithm_config import AlgorithmConfig  # noqa: E402
from ray.rllib.algorithms.ppo import PPOConfig  # noqa: E402
from ray.rllib.env.multi_agent_env_runner import MultiAgentEnvRunner  # noqa: E402
from ray.rllib.env.single_agent_env_runner import SingleAgentEnvRunner  # noqa: E402
from ray.rllib.utils.pre_checks.env import check_multiagent_environments  # noqa: E402

import trackfield  # noqa: E402
import trackfield.rllib as tfr  # noqa: E402
from trackfield import _engine  # noqa: E402
from trackfield.core.engine import BatchEngine  # noqa: E402
from trackfield.core.pettingzoo import BatchParallelEnv  # noqa: E402


# (domain, scenario, trackfield config): one row per observation kind of each landed domain.
SINGLE_AGENT_CASES = [
    ("football", "academy_empty_goal_close", {"representation": "simple115v2"}),
    ("football", "academy_3_vs_1_with_keeper", {"representation": "raw"}),
    ("racing", "race_1v1", {}),
    ("driving", "town_drive", {}),
]
MULTI_AGENT_CASES = [
    ("football", "academy_3_vs_1_with_keeper",
     {"number_of_left_players_agent_controls": 3, "number_of_right_players_agent_controls": 2}),
    ("racing", "race_1v3", {"agents": 2}),
]
TINY_PPO = {"train_batch_size_per_learner": 128, "minibatch_size": 64, "num_epochs": 1}


def case_id(case):
    return f"{case[0]}-{case[1]}-{case[2].get('representation', 'default')}"


@pytest.fixture(scope="module")
def ray_session():
    """One local Ray for the module's fast tests (2 CPUs, no dashboard)."""
    if not ray.is_initialized():
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def single_agent_config(scenario, trackfield_config, num_envs=4, algorithm_config=None):
    config = tfr.single_agent(algorithm_config or PPOConfig(), scenario, num_envs_per_env_runner=num_envs,
                              **trackfield_config)
    return config.env_runners(num_env_runners=0, rollout_fragment_length=32).training(**TINY_PPO)


def has_box_observations(case):
    # RLlib's default models take Box observations; raw football's Dict passes through
    # the env unchanged and needs the user's own encoder (or connector) to train on.
    return isinstance(trackfield.make(case[1], **case[2]).observation_space, gym.spaces.Box)


# ---------------------------------------------------------------------- registration


def test_register_names_both_forms_of_every_scenario():
    names = set(tfr.register())
    for scenario in trackfield.list_scenarios():
        assert f"trackfield/{scenario}" in names and f"trackfield/{scenario}/multi_agent" in names
    assert {"trackfield", "trackfield/multi_agent"} <= names
    assert set(tfr.register()) == names  # safe to repeat


# ---------------------------------------------------------------------- single-agent


@pytest.mark.parametrize("case", SINGLE_AGENT_CASES, ids=case_id)
def test_single_agent_env_runner_steps_one_batch_per_runner(case):
    _, scenario, trackfield_config = case
    # A plain AlgorithmConfig: RLlib's runner and episodes without a model (random actions).
    runner = SingleAgentEnvRunner(config=single_agent_config(scenario, trackfield_config, 4, AlgorithmConfig()))
    try:
        env = runner.env.unwrapped
        assert isinstance(env, tfr.NextStepVectorEnv) and env.num_envs == 4
        assert env.batch.num_envs == 4  # the runner's four worlds are one trackfield batch
        single = trackfield.make(scenario, **trackfield_config)
        assert env.single_observation_space == single.observation_space  # passed through unchanged
        assert env.single_action_space == single.action_space
        episodes = runner.sample(num_timesteps=400, random_actions=True)
        assert sum(len(e) for e in episodes) >= 400
        for episode in episodes:
            for t in range(len(episode) + 1):
                assert single.observation_space.contains(episode.get_observations(t))
    finally:
        runner.stop()


@pytest.mark.parametrize("case", SINGLE_AGENT_CASES, ids=case_id)
def test_single_agent_creator_without_num_envs_gives_a_checked_gymnasium_env(case):
    from gymnasium.utils.env_checker import check_env

    _, scenario, trackfield_config = case
    env = tfr.make_single_agent_env(dict(trackfield_config, worker_index=1, vector_index=0), scenario)
    check_env(env, skip_render_check=True)


@pytest.mark.parametrize("representation", ["simple115v2", "raw"])
def test_next_step_autoreset_replays_the_single_env_exactly(representation):
    # World 0 of the NEXT_STEP batch must play the single env's game, with RLlib's
    # convention around episode ends: the ended episode's last observation is reported,
    # then one step (action ignored) that gives the new episode's first observation.
    batch = tfr.make_single_agent_env({"num_envs": 3, "representation": representation}, "academy_empty_goal_close")
    single = trackfield.make("academy_empty_goal_close", representation=representation)
    rng = np.random.default_rng(0)

    def world0(obs):
        return {k: v[0] for k, v in obs.items()} if isinstance(obs, dict) else obs[0]

    def same(a, b):
        return all(np.array_equal(a[k], b[k]) for k in a) if isinstance(a, dict) else np.array_equal(a, b)

    obs, _ = batch.reset(seed=7)
    expected, _ = single.reset(seed=7)
    assert same(world0(obs), expected)
    resetting, episodes = False, 0
    for t in range(1500):
        actions = rng.integers(0, 19, 3)
        obs, rewards, terminated, truncated, infos = batch.step(actions)
        if resetting:
            expected, _ = single.reset()
            assert rewards[0] == 0 and not terminated[0] and not truncated[0]
            resetting = False
        else:
            expected, reward, term, trunc, _ = single.step(int(actions[0]))
            assert (rewards[0], terminated[0], truncated[0]) == (reward, term, trunc), f"step {t}"
            resetting = term or trunc
            episodes += resetting
        assert same(world0(obs), expected), f"step {t}"
        assert batch.observation_space.contains(obs)
        assert "final_obs" not in infos
    assert episodes >= 5


def test_ppo_iterations_single_agent(ray_session):
    for _, scenario, trackfield_config in filter(has_box_observations, SINGLE_AGENT_CASES):
        algo = single_agent_config(scenario, trackfield_config).build_algo()
        try:
            for _ in range(2):
                result = algo.train()
            assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 256
        finally:
            algo.stop()


# ---------------------------------------------------------------------- multi-agent


def multi_agent_config(scenario, trackfield_config):
    config = tfr.multi_agent(PPOConfig(), scenario, **trackfield_config)
    return config.env_runners(num_env_runners=0, num_envs_per_env_runner=2, rollout_fragment_length=32) \
                 .training(**TINY_PPO)


@pytest.mark.parametrize("case", MULTI_AGENT_CASES, ids=case_id)
def test_multi_agent_env_passes_rllib_checks(case):
    _, scenario, trackfield_config = case
    env = tfr.make_multi_agent_env(trackfield_config, scenario)
    check_multiagent_environments(env)
    parallel = trackfield.parallel_env(scenario, **trackfield_config)
    assert env.possible_agents == parallel.possible_agents
    for agent in env.possible_agents:
        assert env.get_observation_space(agent) == parallel.observation_space(agent)
        assert env.get_action_space(agent) == parallel.action_space(agent)


@pytest.mark.parametrize("case", MULTI_AGENT_CASES, ids=case_id)
def test_multi_agent_env_runner_samples_both_groups(case):
    domain, scenario, trackfield_config = case
    runner = MultiAgentEnvRunner(config=multi_agent_config(scenario, trackfield_config))
    try:
        episodes = runner.sample(num_timesteps=300, random_actions=True)
        modules = {episode.module_for(agent) for episode in episodes for agent in episode.agent_ids}
        assert modules == set(tfr.AGENT_GROUPS[domain].values())
    finally:
        runner.stop()


def test_driving_self_play_multi_agent_form_says_why_it_is_refused():
    with pytest.raises(ValueError, match="names its agents as they spawn.*town_drive"):
        tfr.make_multi_agent_env({"agents": 4}, "town_self_play")


def test_ppo_iterations_multi_agent(ray_session):
    for _, scenario, trackfield_config in MULTI_AGENT_CASES:
        algo = multi_agent_config(scenario, trackfield_config).build_algo()
        try:
            for _ in range(2):
                result = algo.train()
            assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 128
        finally:
            algo.stop()


class ProbeParallelEnv(BatchParallelEnv):
    """The core tests' probe domain (agents join on a schedule and leave at a goal line)."""

    def __init__(self, **settings):
        cfg = _engine.probe.Config()
        for key, value in settings.items():
            setattr(cfg, key, value)
        engine = BatchEngine(_engine.probe, cfg)
        self._attach(engine, [f"car_{i}" for i in range(engine.num_agents)])


def test_agents_come_and_go_with_the_live_mask():
    env = tfr.TrackfieldMultiAgentEnv(parallel=ProbeParallelEnv(num_agents=3, join_every=3, max_steps=100))
    check_multiagent_environments(env)
    obs, _ = env.reset(seed=0)
    seen, left = set(obs), set()
    done = False
    while not done:
        actions = {agent: np.array([1.0, -1.0], np.float32) for agent in obs if agent not in left}
        obs, rewards, terminateds, truncateds, _ = env.step(actions)
        for agent in obs:
            if agent not in seen:
                assert agent not in actions  # joined in this step: observation, no action yet
                seen.add(agent)
            if terminateds.get(agent) or truncateds.get(agent):
                left.add(agent)
        assert set(rewards) <= set(env.agents)
        done = terminateds["__all__"] or truncateds["__all__"]
    assert seen == left == {"car_0", "car_1", "car_2"}
    mapping = tfr.policy_mapping_by_prefix({"car_": "car"})
    assert {mapping(agent, None) for agent in seen} == {"car"}


def test_policy_mapping_by_side_and_by_prefix():
    mapping = tfr.football_policy_mapping("blue", "red")
    assert [mapping(a, None) for a in ("left_0", "left_10", "right_3")] == ["blue", "blue", "red"]
    mapping = tfr.policy_mapping_by_prefix({"car_": "car", "car_ego": "ego"})
    assert mapping("car_ego", None) == "ego" and mapping("car_1", None) == "car"
    with pytest.raises(KeyError, match="pedestrian_0"):
        mapping("pedestrian_0", None)


# ---------------------------------------------------------------------- bad input


def test_unknown_scenario_lists_valid_names():
    with pytest.raises(ValueError, match="unknown trackfield scenario 'academy_nope'.*academy_empty_goal_close"):
        tfr.make_single_agent_env({"scenario": "academy_nope"})
    with pytest.raises(ValueError, match="academy_3_vs_1_with_keeper"):
        tfr.single_agent(PPOConfig(), "academy_nope")
    with pytest.raises(ValueError, match="needs 'scenario'"):
        tfr.make_multi_agent_env({})


def test_unknown_config_key_is_named_and_rllib_keys_are_ignored():
    with pytest.raises(ValueError, match="env_config key 'representaton'"):
        tfr.make_single_agent_env({"representaton": "raw"}, "academy_empty_goal_close")
    with pytest.raises(ValueError, match="env_config key 'colour'"):
        tfr.multi_agent(PPOConfig(), "academy_empty_goal_close", colour="red")
    from ray.rllib.env.env_context import EnvContext

    context = EnvContext({"representation": "smm", "worker_index": 3, "vector_index": 1, "num_workers": 4,
                          "remote": False}, worker_index=3, num_workers=4, vector_index=1)
    env = tfr.make_single_agent_env(context | {"num_envs": 2}, "academy_empty_goal_close")
    assert env.num_envs == 2 and env.single_observation_space.shape == (72, 96, 4)


def test_a_scenario_file_goes_through_the_generic_name():
    import trackfield.scenarios

    path = str(Path(trackfield.scenarios.__file__).parent / "football" / "academy_empty_goal_close.py")
    config = tfr.single_agent(PPOConfig(), path, num_envs_per_env_runner=2)
    assert config.env == "trackfield" and config.env_config["scenario"] == path
    env = tfr.make_single_agent_env(dict(config.env_config, num_envs=2))
    assert env.reset(seed=0)[0].shape == (2, 115)
    with pytest.raises(ValueError, match="no registered name"):
        tfr.env_name(path)


def test_unreachable_address_raises_within_the_timeout():
    start = time.monotonic()
    with pytest.raises(ConnectionError, match="cannot be reached within 2 s"):
        tfr.connect("127.0.0.1:9", timeout_s=2)  # the discard port: nothing listens there
    assert time.monotonic() - start < 10
    with pytest.raises(ValueError, match="host:port"):
        tfr.connect("no-port-here", timeout_s=1)


# ---------------------------------------------------------------------- two nodes (slow)



# Budget: 120k env steps (about 60 iterations of 2,048). PPO's curve here is noisy and
# moves with any change to the game: the target was reached after 27k-33k steps once,
# after 49k at stop 28's man-marking, and after 92k with GRF's player profiles (0.87 at
# 80k; 0.93 at 92k). At the ~1,100 steps/s of an idle 2-core VM that is under 2 minutes,
# the cluster's start-up included; at the ~300 steps/s of a busy one, under 7.
CLUSTER_PPO_BUDGET_STEPS = 120_000


@pytest.mark.slow
def test_ppo_on_a_two_node_cluster_spreads_runners_and_solves_empty_goal_close():
    from ray.cluster_utils import Cluster

    ray.shutdown()  # the module's single-node session, if a fast test started it
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, log_to_driver=False)
        node_ids = {node["NodeID"] for node in ray.nodes() if node["Alive"]}
        assert len(node_ids) == 2
        example = load_example("rllib_ppo")
        # One env runner per node: each asks for one CPU and each node has one.
        algo = example.make_config("academy_empty_goal_close", num_env_runners=2, envs_per_runner=16).build_algo()
        try:
            runner_nodes = example.runner_node_ids(algo)
            assert len(runner_nodes) == 2 and set(runner_nodes) == node_ids
            steps, mean_return = example.train(algo, CLUSTER_PPO_BUDGET_STEPS, target=0.9)
            assert mean_return >= 0.9, f"mean episode return {mean_return:.3f} after {steps:,} env steps"
        finally:
            algo.stop()
    finally:
        ray.shutdown()
        cluster.shutdown()


def test_bench_rllib_reports_sampling_speed_and_trackfields_share():
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-m", "trackfield.bench", "rllib", "--scenarios", "academy_empty_goal_close",
                          "--threads", "1", "--seconds", "0.5"], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    record = next(json.loads(line) for line in out.stdout.splitlines() if line.startswith("{"))
    assert record["cores"] == 1 and record["rllib_sampled_steps_per_s"] > 0 and record["bare_batch_steps_per_s"] > 0
    assert 0.0 < record["trackfield_share"] < 1.0
    assert "in trackfield" in out.stdout
