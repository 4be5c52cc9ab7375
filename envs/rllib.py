"""Ray RLlib adapters: every trackfield scenario as an RLlib env, single- and multi-agent.

>>> import trackfield.rllib as tfr
>>> from ray.rllib.algorithms.ppo import PPOConfig
>>> tfr.register()                                      # doctest: +SKIP
>>> config = tfr.single_agent(PPOConfig(), "academy_empty_goal_close",
...                           num_envs_per_env_runner=16)  # doctest: +SKIP

Ray is imported only when something here needs it; it comes with the ``dist`` extra
(``pip install "trackfield[dist]"``).

Registration
------------
:func:`register` (call it on the driver, before or after ``ray.init``, and again
after connecting to another cluster; the helpers below call it for you) puts these names into Ray Tune's env
registry, from which every env runner of a cluster builds its envs:

* ``trackfield/<scenario>``: single-agent (one RLlib agent per world; with several
  controlled players that agent acts for all of them, as ``trackfield.make`` does);
* ``trackfield/<scenario>/multi_agent``: multi-agent, one RLlib agent per controlled
  player (:class:`TrackfieldMultiAgentEnv` over ``trackfield.parallel_env``);
* ``trackfield`` and ``trackfield/multi_agent``: the same two forms with the scenario
  (a shipped name or a path to a scenario file) given as ``env_config["scenario"]``.

The RLlib ``env_config`` dict holds trackfield's keyword arguments (those of
``trackfield.make``, e.g. ``representation``, ``rewards``,
``number_of_left_players_agent_controls``) plus ``num_threads`` for the single-agent
batch (default 1: Ray already runs one env runner per CPU). Keys that RLlib itself adds
(``worker_index``, ``vector_index``, ``num_workers``, ``remote``, ``num_envs``) are
consumed here and never passed on; any other unknown key raises ``ValueError`` naming
it, and an unknown scenario raises ``ValueError`` listing the valid names.

Single-agent: the whole runner's worlds in one C++ batch
--------------------------------------------------------
RLlib's new API stack (``SingleAgentEnvRunner.make_env`` in
``ray/rllib/env/single_agent_env_runner.py``) builds each runner's env with
``gymnasium.make_vec(..., num_envs=num_envs_per_env_runner,
vectorization_mode=config.gym_env_vectorize_mode)``; for a name from the Tune registry it
registers a Gymnasium spec whose ``vector_entry_point`` calls our creator with
``env_config | {"num_envs": n}``. With ``gym_env_vectorize_mode=
gymnasium.VectorizeMode.VECTOR_ENTRY_POINT`` (documented on
``AlgorithmConfig.env_runners``: "your env creator already returns a
gym.vector.VectorEnv") RLlib uses what the creator returns as the runner's vector env.
Our creator returns one ``trackfield.vector.make(scenario, n)`` batch, so one C++ call
steps all of the runner's worlds. :func:`single_agent` sets both settings. (Left at
RLlib's default ``"sync"``, the creator is called without ``num_envs`` and returns one
single-world ``trackfield.make`` env, which RLlib wraps in a ``SyncVectorEnv``: correct,
only slower.)

RLlib's env runners expect Gymnasium's NEXT_STEP autoreset (an ended world reports its
last observation, and the following ``step`` returns the new episode's first observation,
ignoring that world's action), while trackfield's batch resets in the same step
(SAME_STEP, ``info["final_obs"]``). :class:`NextStepVectorEnv` converts exactly: when a
world ends, it returns the ended episode's last observation and info and keeps a
snapshot (``get_state``) of the world's already-started new episode; in the next step
the batch steps every world as usual, then that world is restored from its snapshot
and reported with the new episode's first observation, reward 0 and no end. The
snapshot work happens once per ended episode, never per step. Observations and actions
pass through unchanged (the Dict space of raw football included).

Multi-agent
-----------
:class:`TrackfieldMultiAgentEnv` is a ``MultiAgentEnv`` over the PettingZoo parallel
env: agents come and go with the engine's live mask (an agent that leaves is reported
terminated or truncated with its last observation; one that joins appears in that
step's observations), and ``__all__`` ends when no agent is left in play. RLlib
vectorizes multi-agent envs itself (one env per world). :func:`policy_mapping_by_prefix`
maps agents to policies by agent-name prefix (any domain); :func:`football_policy_mapping`
maps ``left_*`` and ``right_*`` to one policy each.

Clusters
--------
:func:`connect` joins an existing Ray cluster and fails with ``ConnectionError`` within a
timeout when the address cannot be reached. Nothing here starts or manages machines.
"""
from __future__ import annotations

import copy
import dataclasses
import socket
import time

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv

import trackfield

NAMESPACE = "trackfield"
MULTI_AGENT_SUFFIX = "multi_agent"

# Keys RLlib puts into (or next to) an env config; consumed here, never passed to trackfield.
RLLIB_KEYS = frozenset({"worker_index", "vector_index", "num_workers", "remote", "num_envs"})
# Keys this module adds on top of trackfield's own config.
ADAPTER_KEYS = frozenset({"scenario", "num_threads"})
DEFAULT_CONNECT_TIMEOUT_S = 30.0

# Agent-name prefixes per domain: how policy mapping groups a domain's agents. A domain
# that lands adds its row here (driving: {"vehicle_": "vehicle"}). Racing's cars share
# one policy, "car" (self-play); map per car with policy_mapping_by_prefix if wanted.
AGENT_GROUPS = {"football": {"left_": "left", "right_": "right"}, "racing": {"car_": "car"},
                "driving": {"vehicle_": "vehicle"}}


# ---------------------------------------------------------------------- ray import


def _import_ray():
    try:
        import ray
        import ray.rllib  # noqa: F401 - ray without the rllib extra lacks RLlib's dependencies
        import ray.tune  # noqa: F401 - the env registry
    except ImportError as e:  # pragma: no cover - depends on the install
        raise ImportError('trackfield.rllib needs Ray RLlib: pip install "trackfield[dist]" '
                          '(or pip install "ray[rllib]")') from e
    return ray


def _multi_agent_env_base():
    _import_ray()
    from ray.rllib.env.multi_agent_env import MultiAgentEnv

    return MultiAgentEnv


# ---------------------------------------------------------------------- names and configs


def env_name(scenario: str | None = None, multi_agent: bool = False) -> str:
    """The registered RLlib env name of shipped scenario ``scenario`` (``None``: the
    generic name that takes the scenario, a name or a file, from ``env_config["scenario"]``)."""
    if scenario is not None and check_scenario(scenario) not in trackfield.list_scenarios():
        raise ValueError(f"scenario files have no registered name of their own: use env_name(None, {multi_agent}) "
                         f"and env_config={{'scenario': {scenario!r}, ...}}")
    parts = [NAMESPACE] + ([scenario] if scenario is not None else []) + ([MULTI_AGENT_SUFFIX] if multi_agent else [])
    return "/".join(parts)


def check_scenario(scenario) -> str:
    """``scenario`` if it is a shipped name or a scenario file path; else ``ValueError``
    listing the valid names."""
    if isinstance(scenario, str) and scenario in trackfield.list_scenarios():
        return scenario
    if isinstance(scenario, str) and (scenario.endswith(".py") or "/" in scenario):
        return scenario  # a scenario file: the loader reports a missing or broken file
    raise ValueError(f"unknown trackfield scenario {scenario!r}; valid names: "
                     f"{', '.join(trackfield.list_scenarios())} (or a path to a scenario .py file)")


def _domain_config_keys(scenario: str) -> frozenset:
    domain = trackfield.domain_of(scenario)
    if domain == "football":
        from trackfield.football.config import FootballConfig

        return frozenset(field.name for field in dataclasses.fields(FootballConfig))
    if domain == "racing":
        from trackfield.racing.config import RacingConfig

        return frozenset(field.name for field in dataclasses.fields(RacingConfig))
    if domain == "driving":
        from trackfield.driving.config import DrivingConfig

        return frozenset(field.name for field in dataclasses.fields(DrivingConfig))
    raise ValueError(f"trackfield.rllib has no adapter for domain {domain!r} yet")


def split_env_config(env_config, scenario: str | None = None):
    """(scenario, trackfield kwargs, num_envs or None, num_threads) from an RLlib env config.

    RLlib's own keys are dropped; a key neither trackfield nor this module knows raises
    ``ValueError`` naming it."""
    config = dict(env_config or {})
    if scenario is None:
        if "scenario" not in config:
            raise ValueError("env_config needs 'scenario' (a trackfield scenario name) with the generic env name "
                             f"{NAMESPACE!r}; or use a per-scenario name such as 'trackfield/academy_empty_goal_close'")
        scenario = config["scenario"]
    elif "scenario" in config and config["scenario"] != scenario:
        raise ValueError(f"env_config['scenario']={config['scenario']!r} contradicts the env name's scenario {scenario!r}")
    check_scenario(scenario)
    config.pop("scenario", None)
    num_envs = config.pop("num_envs", None)
    num_threads = config.pop("num_threads", 1)
    for key in RLLIB_KEYS:
        config.pop(key, None)
    known = _domain_config_keys(scenario)
    for key in sorted(config, key=str):
        if key not in known:
            raise ValueError(f"env_config key {key!r} is not a trackfield setting of {scenario!r}; valid keys: "
                             f"{sorted(known | ADAPTER_KEYS)} (RLlib's own {sorted(RLLIB_KEYS)} are ignored)")
    return scenario, config, num_envs, num_threads


# ---------------------------------------------------------------------- single-agent


class NextStepVectorEnv(VectorEnv):
    """A trackfield vector env (SAME_STEP autoreset) with Gymnasium's NEXT_STEP autoreset,
    the convention RLlib's env runners follow (see the module docstring).

    ``batch`` is a ``trackfield.vector.make`` env; its worlds still step in one C++ call.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": ["rgb_array"]}
    _SAME_STEP_KEYS = ("final_obs", "_final_obs", "final_info", "_final_info")

    def __init__(self, batch):
        self.batch = batch
        self.num_envs = batch.num_envs
        self.single_observation_space = batch.single_observation_space
        self.single_action_space = batch.single_action_space
        self.observation_space = batch.observation_space
        self.action_space = batch.action_space
        self.render_mode = batch.render_mode
        self._pending = np.zeros(self.num_envs, np.bool_)  # worlds whose new episode is not reported yet
        self._snapshots: dict[int, bytes] = {}
        self._first_obs = None   # the batch's observation when the pending worlds ended: their new episodes' first
        self._first_info = None  # ... and their info

    def reset(self, *, seed=None, options=None):
        self._pending[:] = False
        self._snapshots.clear()
        return self.batch.reset(seed=seed, options=options)

    def step(self, actions):
        obs, rewards, terminated, truncated, info = self.batch.step(actions)
        if self._pending.any():
            self._report_new_episodes(obs, rewards, terminated, truncated, info)
        ended = terminated | truncated
        if ended.any():
            self._report_ended_episodes(ended, obs, info)
        for key in self._SAME_STEP_KEYS:
            info.pop(key, None)
        return obs, rewards, terminated, truncated, info

    def _report_ended_episodes(self, ended, obs, info):
        # The batch has already started these worlds' next episodes: keep those for the
        # next step and report the ended episodes' last observation and info now.
        self._first_obs = copy.deepcopy(obs)
        self._first_info = {key: copy.deepcopy(value) for key, value in info.items()
                            if key not in self._SAME_STEP_KEYS and key not in ("episode", "_episode")}
        for i in np.flatnonzero(ended):
            self._snapshots[int(i)] = self.batch.get_state(int(i))
            _put_row(obs, int(i), info["final_obs"][i])
        _copy_rows(info, info["final_info"], ended)
        self._pending = ended.copy()

    def _report_new_episodes(self, obs, rewards, terminated, truncated, info):
        # NEXT_STEP: these worlds "reset" in this step and ignore their action, so undo
        # the step the batch just made them take.
        pending = self._pending
        for i in np.flatnonzero(pending):
            self.batch.set_state(int(i), self._snapshots.pop(int(i)))
        _copy_rows(obs, self._first_obs, pending)
        _copy_rows(info, self._first_info, pending)
        for values in info.get("reward_components", {}).values():
            values[pending] = 0
        rewards[pending] = 0
        terminated[pending] = False
        truncated[pending] = False
        if "_episode" in info:
            info["_episode"] = info["_episode"] & ~pending
        self._pending = np.zeros(self.num_envs, np.bool_)

    def render(self):
        return self.batch.render()

    def close_extras(self, **kwargs):
        self.batch.close()


def _put_row(batch, i: int, value) -> None:
    """Writes one world's value into row ``i`` of a batched array or dict of arrays."""
    if isinstance(batch, dict):
        for key in batch:
            _put_row(batch[key], i, value[key])
    else:
        batch[i] = value


def _copy_rows(dst, src, rows) -> None:
    """``dst[rows] = src[rows]`` through nested dicts, for the keys both hold (``_mask``
    keys of Gymnasium's vector infos are left alone)."""
    if isinstance(dst, dict):
        for key, value in src.items():
            if not key.startswith("_") and key in dst:
                _copy_rows(dst[key], value, rows)
    else:
        dst[rows] = src[rows]


def make_single_agent_env(env_config, scenario: str | None = None):
    """RLlib's env creator for the single-agent form: a :class:`NextStepVectorEnv` over one
    ``trackfield.vector.make`` batch when RLlib asks for ``num_envs`` worlds
    (``VECTOR_ENTRY_POINT`` mode), else one ``trackfield.make`` env."""
    scenario, kwargs, num_envs, num_threads = split_env_config(env_config, scenario)
    if num_envs is None:
        return trackfield.make(scenario, **kwargs)
    return NextStepVectorEnv(trackfield.vector.make(scenario, num_envs, num_threads, **kwargs))


# ---------------------------------------------------------------------- multi-agent


def _multi_agent_env_class():
    MultiAgentEnv = _multi_agent_env_base()  # noqa: N806 - a class

    class TrackfieldMultiAgentEnv(MultiAgentEnv):
        """RLlib ``MultiAgentEnv`` over ``trackfield.parallel_env(scenario, **config)``.

        ``config`` is an RLlib env config (see the module docstring); ``scenario`` comes
        from the registered name or ``config["scenario"]``. Or pass ``parallel``, any
        trackfield ``BatchParallelEnv`` already built (a domain without a scenario
        registry yet, a test domain). Agents and spaces are the parallel env's
        (football: ``left_0 ..``, ``right_0 ..``; right agents see the pitch mirrored,
        so one policy can play either side).
        """

        def __init__(self, config=None, scenario: str | None = None, parallel=None):
            if parallel is None:
                scenario, kwargs, _, _ = split_env_config(config, scenario)
                parallel = trackfield.parallel_env(scenario, **kwargs)
            self.scenario = scenario
            self.parallel = parallel
            self.possible_agents = list(self.parallel.possible_agents)
            if getattr(self.parallel, "names_agents_as_they_spawn", False) or not self.possible_agents:
                # RLlib's connectors fix the agent ids at construction; driving names each
                # (re)spawned vehicle afresh, so its self-play needs slot-stable ids first.
                raise ValueError(f"trackfield.rllib: {scenario or 'this env'} names its agents as they spawn, "
                                 "which RLlib's multi-agent API cannot follow yet; use the single-agent form "
                                 "(e.g. 'town_drive') or trackfield.vector.make for batched self-play")
            self.agents = []
            self.observation_spaces = {a: self.parallel.observation_space(a) for a in self.possible_agents}
            self.action_spaces = {a: self.parallel.action_space(a) for a in self.possible_agents}
            super().__init__()
            from gymnasium import spaces

            self.observation_space = spaces.Dict(self.observation_spaces)
            self.action_space = spaces.Dict(self.action_spaces)

        def reset(self, *, seed=None, options=None):
            observations, infos = self.parallel.reset(seed=seed, options=options)
            self.agents = list(self.parallel.agents)
            return observations, infos

        def step(self, action_dict):
            observations, rewards, terminateds, truncateds, infos = self.parallel.step(action_dict)
            in_play = list(self.parallel.agents)
            over = not in_play
            all_truncated = over and bool(truncateds) and all(truncateds.values())
            terminateds["__all__"] = over and not all_truncated
            truncateds["__all__"] = all_truncated
            # Agents reported leaving in this step stay listed until the next step:
            # RLlib's checks expect every key of a step's dicts in ``agents``.
            self.agents = in_play + [a for a in observations if a not in in_play]
            return observations, rewards, terminateds, truncateds, infos

        def render(self):
            return self.parallel.render()

        def close(self):
            self.parallel.close()

        def get_state(self) -> bytes:
            """The world's full state (``trackfield.parallel_env(...).get_state()``)."""
            return self.parallel.get_state()

    return TrackfieldMultiAgentEnv


_CLASSES: dict = {}


def __getattr__(name):
    if name == "TrackfieldMultiAgentEnv":  # built on first use: its base class is RLlib's
        if name not in _CLASSES:
            _CLASSES[name] = _multi_agent_env_class()
        return _CLASSES[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def make_multi_agent_env(env_config, scenario: str | None = None):
    """RLlib's env creator for the multi-agent form."""
    return __getattr__("TrackfieldMultiAgentEnv")(env_config, scenario)


def policy_mapping_by_prefix(prefix_to_policy: dict):
    """An RLlib ``policy_mapping_fn``: an agent's policy is that of the longest prefix of
    its name in ``prefix_to_policy`` (``{"left_": "left", "right_": "right"}``); an agent
    no prefix matches raises ``KeyError`` naming it."""
    prefixes = sorted(prefix_to_policy, key=len, reverse=True)

    def mapping(agent_id, episode=None, **kwargs):
        for prefix in prefixes:
            if str(agent_id).startswith(prefix):
                return prefix_to_policy[prefix]
        raise KeyError(f"agent {agent_id!r} matches none of the prefixes {prefixes}")

    return mapping


def football_policy_mapping(left: str = "left", right: str = "right"):
    """``left_*`` agents -> policy ``left``, ``right_*`` -> ``right`` (pass the same id
    twice for one policy playing both sides)."""
    return policy_mapping_by_prefix({"left_": left, "right_": right})


def domain_policy_mapping(scenario: str):
    """The per-domain grouping of :data:`AGENT_GROUPS` as a policy mapping, and its policy ids."""
    groups = AGENT_GROUPS[trackfield.domain_of(scenario)]
    return policy_mapping_by_prefix(groups), sorted(set(groups.values()))


# ---------------------------------------------------------------------- registration


def _single_creator(scenario):
    def creator(env_config):
        return make_single_agent_env(env_config, scenario)

    return creator


def _multi_creator(scenario):
    def creator(env_config):
        return make_multi_agent_env(env_config, scenario)

    return creator


def register() -> list:
    """Registers every shipped scenario (both forms) and the two generic names with Ray
    Tune; returns the names. Safe to call again, and needed again after ``ray.shutdown()``
    and a new ``ray.init``: the registry lives in the Ray cluster's store."""
    _import_ray()
    from ray.tune.registry import register_env

    names = []
    for scenario in [None] + trackfield.list_scenarios():
        for multi_agent, make_creator in ((False, _single_creator), (True, _multi_creator)):
            name = env_name(scenario, multi_agent)
            register_env(name, make_creator(scenario))
            names.append(name)
    return names


# ---------------------------------------------------------------------- config helpers


def _name_and_env_config(scenario: str, multi_agent: bool, env_config: dict):
    """The registered name and env config for ``scenario``: its own name if shipped, else
    the generic name with the scenario file in the config. Checks the config here, on
    the driver, rather than in a remote env runner."""
    split_env_config(env_config, scenario)
    if scenario in trackfield.list_scenarios():
        return env_name(scenario, multi_agent), env_config
    return env_name(None, multi_agent), dict(env_config, scenario=scenario)


def single_agent(config, scenario: str, num_envs_per_env_runner: int = 8, num_threads: int = 1, **trackfield_config):
    """``config`` (an RLlib ``AlgorithmConfig``) set to train on ``scenario``, each env
    runner stepping ``num_envs_per_env_runner`` worlds in one trackfield batch on
    ``num_threads`` threads. ``trackfield_config``: ``trackfield.make``'s keywords."""
    import gymnasium as gym

    register()
    name, env_config = _name_and_env_config(scenario, False, dict(trackfield_config, num_threads=num_threads))
    return (config.environment(name, env_config=env_config)
                  .env_runners(num_envs_per_env_runner=num_envs_per_env_runner,
                               gym_env_vectorize_mode=gym.VectorizeMode.VECTOR_ENTRY_POINT))


def multi_agent(config, scenario: str, policy_mapping_fn=None, policies=None, policies_to_train=None,
                **trackfield_config):
    """``config`` set to train on ``scenario``'s multi-agent form. By default every
    agent group of the domain (football: ``left``, ``right``) has its own policy."""
    register()
    name, env_config = _name_and_env_config(scenario, True, dict(trackfield_config))
    if policy_mapping_fn is None:
        policy_mapping_fn, default_policies = domain_policy_mapping(scenario)
        policies = default_policies if policies is None else policies
    if policies is None:
        raise ValueError("pass policies (the policy ids policy_mapping_fn returns) with a policy_mapping_fn")
    config = config.environment(name, env_config=env_config)
    return config.multi_agent(policies=set(policies), policy_mapping_fn=policy_mapping_fn,
                              policies_to_train=policies_to_train)


# ---------------------------------------------------------------------- clusters


def connect(address: str, timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S, **init_kwargs):
    """``ray.init(address=address)`` for an existing cluster (``"host:6379"`` or
    ``"ray://host:10001"``), after checking that the address answers within
    ``timeout_s`` seconds (default 30); raises ``ConnectionError`` saying the address
    cannot be reached instead of waiting on Ray's own retries. ``"auto"`` (a cluster
    started on this machine with ``ray start``) goes to Ray directly."""
    ray = _import_ray()
    if address != "auto":
        host, port = _host_and_port(address)
        _wait_for_port(address, host, port, timeout_s)
    return ray.init(address=address, **init_kwargs)


def _host_and_port(address: str):
    rest = address.split("://", 1)[1] if "://" in address else address
    host, sep, port = rest.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ValueError(f"Ray address must be 'host:port' or 'ray://host:port', got {address!r}")
    return host.strip("[]"), int(port)


def _wait_for_port(address: str, host: str, port: int, timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    error = None
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            break
        try:
            with socket.create_connection((host, port), timeout=min(left, 5.0)):
                return
        except OSError as e:  # refused, unreachable, unknown host, timed out: retry until the deadline
            error = e
            time.sleep(min(0.5, max(0.0, deadline - time.monotonic())))
    raise ConnectionError(f"Ray address {address!r} cannot be reached within {timeout_s:g} s "
                          f"({error or 'no answer'}); is the cluster's head node up and the port open?")


__all__ = ["register", "env_name", "check_scenario", "split_env_config", "single_agent", "multi_agent",
           "make_single_agent_env", "make_multi_agent_env", "NextStepVectorEnv", "TrackfieldMultiAgentEnv",
           "policy_mapping_by_prefix", "football_policy_mapping", "domain_policy_mapping", "connect",
           "AGENT_GROUPS", "RLLIB_KEYS"]
