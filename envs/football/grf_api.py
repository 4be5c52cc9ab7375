"""GRF's own entry point: ``create_environment`` with Google Research Football 2.10.2's
signature, defaults and meaning for every argument.

    from trackfield.football import create_environment          # a Gymnasium env
    import trackfield.football.gfootball_env as football_env    # GRF's gym API (reset -> obs,
    env = football_env.create_environment(env_name="academy_empty_goal_close")  # step -> 4-tuple)

What each argument becomes (docs/football_grf_migration.md has the full table):

| GRF argument | trackfield |
|---|---|
| env_name | the scenario (a shipped GRF name or a path to a scenario file); required, as in GRF |
| stacked | ``stacked``: the last 4 observations along the last axis |
| representation | 'extracted' is ``smm``; 'simple115v2', 'raw', 'pixels', 'pixels_gray' the same names; 'simple115' is GRF's v1 layout (present players packed, -1 only at the end) |
| rewards | ``rewards`` ('scoring' or 'scoring,checkpoints') |
| write_goal_dumps | only False: trackfield writes whole episodes (write_full_episode_dumps) |
| write_full_episode_dumps, logdir | the same; ``trackfield.replay`` re-simulates a dump, and makes its video |
| render | True: ``env.render()`` returns frames (Gymnasium's render_mode "rgb_array") |
| write_video | only False: make a video from a dump with ``trackfield.replay(path, video=...)`` |
| dump_frequency | a dump of every dump_frequency-th episode (the first, then every n-th), as GRF |
| extra_players | only None or []: GRF's bots and checkpoint players are not in trackfield |
| number_of_left/right_players_agent_controls | the same |
| channel_dimensions | the same: (width, height) of extracted and pixels |
| other_config_options | GRF's config keys (see ``OTHER_CONFIG_OPTIONS``) and any ``FootballConfig`` field |

With GRF's layout of observations: raw is a list of one dict per controlled player (GRF's
``env.reset()[0]``), the vector and picture representations an array ((115,) for one agent,
(n, 115) for several), and ``info["score_reward"]`` is the step's scoring reward, as in GRF.
"""
from __future__ import annotations

import numpy as np
import gymnasium as gym

from trackfield.core.config import check_int
from trackfield.football.config import FootballConfig

GRF_REPRESENTATIONS = ("simple115", "simple115v2", "extracted", "raw", "pixels", "pixels_gray")
REPRESENTATION_NAMES = {"simple115": "simple115v2", "simple115v2": "simple115v2", "extracted": "smm",
                        "raw": "raw", "pixels": "pixels", "pixels_gray": "pixels_gray"}
SMM_WIDTH, SMM_HEIGHT = 96, 72  # GRF's observation_preprocessing.SMM_WIDTH / SMM_HEIGHT

# GRF's Config keys that other_config_options may set: what each becomes here, or the only
# value trackfield can honour (any other value raises naming the key).
OTHER_CONFIG_OPTIONS = {
    "action_set": "action_set ('default', 'v2' or 'full')",
    "game_engine_random_seed": "the seed of the first reset (later resets continue its generator)",
    "render_resolution_x": "the rendered frame's width (render_width)",
    "render_resolution_y": "ignored: the frame's height follows its width",
    "level": "env_name (GRF lets this key override it)",
    "tracesdir": "logdir",
    "dump_full_episodes": "write_full_episode_dumps",
    "dump_scores": "write_goal_dumps (only False)",
    "write_video": "write_video (only False)",
    "players": "only GRF's own agent entry for the two counts",
    "real_time": "only False",
    "physics_steps_per_frame": "only 10 (GRF's default: a step is 0.1 s of game time)",
    "enable_sides_swap": "only False",
    "display_game_stats": "ignored (GRF's on-screen statistics)",
    "custom_display_stats": "ignored (GRF's on-screen statistics)",
    "video_format": "ignored (no video is written)",
    "video_quality_level": "ignored (no video is written)",
}
_ONLY = {"real_time": False, "physics_steps_per_frame": 10, "enable_sides_swap": False}
_FOOTBALL_FIELDS = set(FootballConfig.__dataclass_fields__)


def create_environment(env_name="", stacked=False, representation="extracted", rewards="scoring",
                       write_goal_dumps=False, write_full_episode_dumps=False, render=False,
                       write_video=False, dump_frequency=1, logdir="", extra_players=None,
                       number_of_left_players_agent_controls=1, number_of_right_players_agent_controls=0,
                       channel_dimensions=(SMM_WIDTH, SMM_HEIGHT), other_config_options={}, *,
                       gym_api=False):
    """Creates a football env as GRF 2.10.2's ``gfootball.env.create_environment`` does.

    Every argument has GRF's name, default and meaning (see the module docstring); one that
    trackfield cannot honour raises a ValueError naming it. Returns a Gymnasium env
    (``reset()`` -> ``(obs, info)``, ``step()`` -> 5-tuple); ``gym_api=True`` (keyword only,
    not GRF's) returns GRF's old gym API instead: ``reset()`` -> ``obs``, ``step()`` ->
    ``(obs, reward, done, info)``.
    """
    options = dict(other_config_options or {})
    if not isinstance(other_config_options, dict):
        raise TypeError(f"other_config_options must be a dict of config keys, got {other_config_options!r}")
    # GRF applies other_config_options over the values create_environment set.
    env_name = options.pop("level", env_name)
    logdir = options.pop("tracesdir", logdir)
    write_full_episode_dumps = options.pop("dump_full_episodes", write_full_episode_dumps)
    write_goal_dumps = options.pop("dump_scores", write_goal_dumps)
    write_video = options.pop("write_video", write_video)
    if not isinstance(env_name, (str, bytes)) and not hasattr(env_name, "__fspath__"):
        raise TypeError(f"env_name must be a scenario name or path, got {env_name!r}")
    if not env_name:
        raise ValueError("env_name is required: a GRF scenario name such as '11_vs_11_stochastic' or a scenario file path")
    if representation not in GRF_REPRESENTATIONS:
        raise ValueError(f"representation must be one of {GRF_REPRESENTATIONS}, got {representation!r}")
    for name, value in (("write_goal_dumps", write_goal_dumps), ("write_video", write_video), ("render", render),
                        ("stacked", stacked), ("write_full_episode_dumps", write_full_episode_dumps)):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {value!r}")
    if write_goal_dumps:
        raise ValueError("write_goal_dumps=True is not supported: trackfield writes whole episodes "
                         "(write_full_episode_dumps=True), which trackfield.replay re-simulates")
    if write_video:
        raise ValueError("write_video=True is not supported: write dumps (write_full_episode_dumps=True) and "
                         "make a video of one with trackfield.replay(path, video='out.mp4')")
    if isinstance(dump_frequency, bool) or not isinstance(dump_frequency, (int, np.integer)):
        raise TypeError(f"dump_frequency must be an int, got {dump_frequency!r}")
    if extra_players:
        raise ValueError(f"extra_players={extra_players!r} is not supported: trackfield has no GRF bot or "
                         "checkpoint players; the built-in AI plays every player no agent controls")
    config = dict(representation=REPRESENTATION_NAMES[representation], stacked=bool(stacked), rewards=rewards,
                  write_full_episode_dumps=bool(write_full_episode_dumps), logdir=logdir,
                  number_of_left_players_agent_controls=number_of_left_players_agent_controls,
                  number_of_right_players_agent_controls=number_of_right_players_agent_controls,
                  channel_dimensions=channel_dimensions, render_mode="rgb_array" if render else None)
    seed = _apply_other_options(options, config, number_of_left_players_agent_controls,
                                number_of_right_players_agent_controls)
    from trackfield.football.env import FootballEnv
    env = FootballEnv(env_name, **config)
    if env._recorder is not None and dump_frequency > 1:
        _write_every(env._recorder, int(dump_frequency))
    env = GrfObservations(env, representation, env.config.num_agents, seed)
    return GymApi(env) if gym_api else env


def _apply_other_options(options, config, left, right):
    seed = None
    for key, value in options.items():
        if key == "action_set":
            config["action_set"] = value
        elif key == "game_engine_random_seed":
            seed = check_int("other_config_options['game_engine_random_seed']", value, 0, 2**63 - 1)
        elif key == "render_resolution_x":
            config["render_width"] = check_int("other_config_options['render_resolution_x']", value, 96, 4096)
        elif key == "players":
            wanted = [f"agent:left_players={left},right_players={right}"]
            if list(value) != wanted:
                raise ValueError(f"other_config_options['players']={value!r} is not supported: trackfield's "
                                 f"agents are set by the two player counts ({wanted!r})")
        elif key in _ONLY:
            if value != _ONLY[key]:
                raise ValueError(f"other_config_options[{key!r}]={value!r} is not supported (only {_ONLY[key]!r})")
        elif key in OTHER_CONFIG_OPTIONS:
            pass  # on-screen and video settings with nothing to apply
        elif key in _FOOTBALL_FIELDS:
            config[key] = value  # trackfield's own settings (game_duration, teammate_ai, ...)
        else:
            raise ValueError(f"other_config_options[{key!r}] is not a GRF config key trackfield knows "
                             f"({sorted(OTHER_CONFIG_OPTIONS)}) nor a FootballConfig field")
    return seed


def _write_every(recorder, n):
    """GRF's PeriodicDumpWriter: dumps of episodes 0, n, 2n, ... only."""
    write = recorder.write
    count = [0]

    def write_some(finished=True):
        episode, count[0] = count[0], count[0] + 1
        if episode % n == 0:
            return write(finished)
        recorder._reset_buffers(None, None)
        return None
    recorder.write = write_some


def simple115_from_v2(obs: np.ndarray) -> np.ndarray:
    """GRF's simple115 (v1) from simple115v2: the four player blocks hold the present players
    packed one after another, and the -1 fill of missing players comes only at the end of the
    first 88 entries. Works on (..., 115)."""
    obs = np.asarray(obs, dtype=np.float32)
    lead = obs.shape[:-1]
    pairs = obs[..., :88].reshape(-1, 44, 2)
    # A missing player's position is (-1, -1) (never on the pitch); his direction slots too.
    pos_missing = (pairs[:, [*range(11), *range(22, 33)]] == -1.0).all(axis=-1)  # (n, 22)
    missing = np.concatenate([pos_missing[:, :11], pos_missing[:, :11], pos_missing[:, 11:], pos_missing[:, 11:]], 1)
    order = np.argsort(missing, axis=1, kind="stable")
    packed = np.take_along_axis(pairs, order[..., None], axis=1)
    packed[np.take_along_axis(missing, order, axis=1)] = -1.0
    out = obs.reshape(-1, 115).copy()
    out[:, :88] = packed.reshape(-1, 88)
    return out.reshape(*lead, 115)


class GrfObservations(gym.Wrapper):
    """Observations in GRF's layout: raw as a list of one dict per agent, simple115 in GRF's
    v1 layout; ``info["score_reward"]`` as GRF's. ``game_engine_random_seed`` seeds the
    first reset."""

    def __init__(self, env, representation, num_agents, seed=None):
        super().__init__(env)
        self._representation = representation
        self._num_agents = num_agents
        self._first_seed = seed

    def reset(self, *, seed=None, options=None):
        if seed is None and self._first_seed is not None:
            seed, self._first_seed = self._first_seed, None
        obs, info = self.env.reset(seed=seed, options=options)
        return self._obs(obs), self._info(info)

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return self._obs(obs), reward, terminated, truncated, self._info(info)

    def _obs(self, obs):
        if self._representation == "raw":
            if self._num_agents == 1:
                return [obs]
            return [{k: v[i] for k, v in obs.items()} for i in range(self._num_agents)]
        if self._representation == "simple115":
            if obs.shape[-1] != 115:  # stacked: four frames of 115, oldest first
                return simple115_from_v2(obs.reshape(*obs.shape[:-1], -1, 115)).reshape(obs.shape)
            return simple115_from_v2(obs)
        return obs

    @staticmethod
    def _info(info):
        scoring = info.get("reward_components", {}).get("scoring")
        if scoring is not None:
            info["score_reward"] = float(np.asarray(scoring).reshape(-1)[0])
        return info


class GymApi:
    """GRF's old gym API over a Gymnasium env: ``reset()`` returns the observation,
    ``step()`` returns ``(obs, reward, done, info)`` (``done``: terminated or truncated;
    ``info["TimeLimit.truncated"]`` says which, as gym's TimeLimit did)."""

    def __init__(self, env):
        self.env = env
        self.observation_space = env.observation_space
        self.action_space = env.action_space
        self.metadata = env.metadata
        self.reward_range = (-float("inf"), float("inf"))
        self._next_seed = None

    @property
    def unwrapped(self):
        return self.env.unwrapped

    def reset(self):
        seed, self._next_seed = self._next_seed, None
        return self.env.reset(seed=seed)[0]

    def seed(self, seed=None):
        """The next reset starts from ``seed`` (gym's old ``env.seed``)."""
        self._next_seed = seed
        return [seed]

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        if truncated and not terminated:
            info["TimeLimit.truncated"] = True
        return obs, reward, bool(terminated or truncated), info

    def render(self, mode="rgb_array"):
        return self.env.render()

    def close(self):
        self.env.close()

    def __getattr__(self, name):
        return getattr(self.env, name)
