"""FootballEnv: one football world behind the Gymnasium API."""
from __future__ import annotations

import numpy as np
import gymnasium as gym

from trackfield.core.config import check_int, config_from_kwargs
from trackfield.football.config import FootballConfig
from trackfield.football.engine import ACTION_NAMES, FootballEngine
from trackfield.football.scenarios import load_scenario


class FootballEnv(gym.Env):
    """Football in the manner of Google Research Football (GRF), simulated in C++.

    | | |
    |---|---|
    | Import | `trackfield.make("academy_empty_goal_close")` |
    | Gymnasium id | `gymnasium.make("trackfield/AcademyEmptyGoalClose-v0")` |
    | Parallel API | `trackfield.parallel_env(name, number_of_left_players_agent_controls=k)` |
    | Agents | `number_of_left_players_agent_controls` + `number_of_right_players_agent_controls` (default 1 + 0) |
    | Action space | `Discrete(19)` for one agent, `MultiDiscrete([19] * k)` for k agents |
    | Observation | raw: `Dict`; simple115v2: `Box(115,)` float32 (460 stacked); smm: `Box(72, 96, 4)` uint8 (16 channels stacked) |
    | Reward components | `scoring`, `checkpoints` |

    ## Description
    Two teams of up to eleven players on a 105 x 68 m pitch. The agent controls one
    player of its team at a time (the ball carrier, the receiver of its pass, or the
    team-mate nearest the ball); every other player is moved by a rule-based AI whose
    strength is the scenario's team difficulty in [0, 1]. Players run, sprint (tiring
    them), dribble, pass, shoot, tackle and slide; the ball flies in 2.5-D with
    gravity, bounces and rolls. Each step is 0.1 s of game time in 5 physics substeps.

    Scenarios are GRF scenario files (`build_scenario(builder)`); the eleven Football
    Academy scenarios ship with trackfield under GRF's names, and any file path works.
    Kurach et al., "Google Research Football: A Novel Reinforcement Learning
    Environment", AAAI 2020.

    ## Observation Space
    Coordinates use GRF's convention: x in [-1, 1] with the observing team attacking
    x = +1, y in [-0.42, 0.42] with "top" at negative y. Right-team agents see the pitch
    rotated by 180 degrees, so one policy can play both sides. Directions are the
    movement over one step in the same units.

    simple115v2 (float32, 115; stacked: 4 frames concatenated, oldest first):

    | Index | Field | Min | Max | Unit |
    |---|---|---|---|---|
    | 0-21 | own team (x, y) for 11 slots, -1 for missing players | -1.05 | 1.05 | pitch |
    | 22-43 | own team (dx, dy) per step, -1 for missing | -inf | inf | pitch/step |
    | 44-65 | opponent (x, y) for 11 slots, -1 for missing | -1.05 | 1.05 | pitch |
    | 66-87 | opponent (dx, dy) per step, -1 for missing | -inf | inf | pitch/step |
    | 88-90 | ball (x, y, z); z is the height in metres | -inf | inf | pitch, m |
    | 91-93 | ball (dx, dy, dz) per step | -inf | inf | pitch/step |
    | 94-96 | ball owned by: nobody, own team, opponents (one-hot) | 0 | 1 | |
    | 97-107 | controlled player's slot (one-hot) | 0 | 1 | |
    | 108-114 | game mode (one-hot): normal, kickoff, goal kick, free kick, corner, throw-in, penalty | 0 | 1 | |

    smm (uint8, 72 x 96 x 4, channels last): own team, opponents, ball, controlled
    player; 255 at each entity's pixel.

    raw (a dict with GRF's keys; table generated from the engine's field list):
    `ball`, `ball_direction`, `ball_rotation`, `ball_owned_team`, `ball_owned_player`,
    `left_team`, `left_team_direction`, `left_team_tired_factor`, `left_team_yellow_card`,
    `left_team_active`, `left_team_roles`, the same six for `right_team`, `score`,
    `steps_left`, `game_mode`, `active`, `designated`, `sticky_actions`
    (see `trackfield._engine.football.raw_fields`).

    ## Action Space
    GRF's default set: 0 idle, 1 left, 2 top_left, 3 top, 4 top_right, 5 right,
    6 bottom_right, 7 bottom, 8 bottom_left, 9 long_pass, 10 high_pass, 11 short_pass,
    12 shot, 13 sprint, 14 release_direction, 15 release_sprint, 16 sliding,
    17 dribble, 18 release_dribble. Movement, sprint and dribble are sticky until
    released. Passes go to the team-mate best placed in the kicking direction; shots
    aim inside a post with an error that grows with distance, pressure and fatigue.
    A kick pressed up to 0.3 s before the ball arrives is played first time.

    ## Rewards
    | Component | Weight | When it fires |
    |---|---|---|
    | scoring | 1 | +1 when the agent's team scores, -1 when it concedes |
    | checkpoints | 1 with `rewards="scoring,checkpoints"`, else 0 | +0.1 the first time the agent's player carries the ball into each of 10 zones nearer the opponent goal (distance <= 0.99 - k * 0.8 / 9); on scoring, all unpaid checkpoints are paid; at most 1 per episode |

    `info["reward_components"]` reports both components every step, weighted or not.
    `info` also holds `score` (left goals, right goals), `steps`, `game_mode` and
    `ball_owned_team` (-1, 0 left, 1 right): absolute sides, unlike the observation,
    which is seen from the agent's side.

    ## Starting State
    The scenario's line-ups and ball position. With `deterministic=False` (GRF's
    default) kicks, ball control and tackles are random, seeded by `reset(seed)`;
    with `deterministic=True` outcomes do not depend on the seed at all.

    ## Episode End
    Terminated: a goal with `end_episode_on_score`; the ball going out of play (or
    any stoppage) with `end_episode_on_out_of_play`; the other team winning the ball
    with `end_episode_on_possession_change`. Truncated: after `game_duration + 1`
    steps (GRF's count).

    ## Arguments
    | Parameter | Type | Default | Description |
    |---|---|---|---|
    | scenario | str | "academy_empty_goal_close" | a shipped scenario name or a path to a scenario `.py` file |
    | representation | str | "simple115v2" | "raw", "simple115v2" or "smm" |
    | stacked | bool | False | stack the last 4 frames |
    | rewards | str | "scoring" | "scoring" or "scoring,checkpoints" |
    | number_of_left_players_agent_controls | int | 1 | controlled left players |
    | number_of_right_players_agent_controls | int | 0 | controlled right players |
    | render_mode | str or None | None | "rgb_array" or "human" |
    | render_width | int | 480 | width of rendered frames in pixels |
    | game_duration, deterministic, offsides, end_episode_on_*, left_team_difficulty, right_team_difficulty | | None | override the scenario file's value |

    ## Vectorized use
    >>> import trackfield
    >>> envs = trackfield.vector.make("academy_3_vs_1_with_keeper", num_envs=8, num_threads=2)
    >>> obs, info = envs.reset(seed=0)
    >>> obs.shape
    (8, 115)
    >>> obs, rewards, terminated, truncated, info = envs.step(envs.action_space.sample())
    >>> envs.close()

    ## Version History
    * v0: first release.
    """

    metadata = {"render_modes": ["rgb_array", "human"], "render_fps": 10}

    def __init__(self, scenario: str = "academy_empty_goal_close", **config):
        self.config = config_from_kwargs(FootballConfig, config, "FootballEnv")
        self.scenario = load_scenario(scenario)
        self._engine = FootballEngine(self.scenario, self.config, num_envs=1, num_threads=1, autoreset=False)
        self.observation_space = self._engine.observation_space
        self.action_space = self._engine.action_space
        self.render_mode = self.config.render_mode
        self._num_agents = self.config.num_agents
        self._actions = self._engine.actions
        self._needs_reset = True
        self._ever_reset = False
        self._window = None

    @property
    def unwrapped_engine(self) -> FootballEngine:
        return self._engine

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            check_int("seed", seed, 0, 2**64 - 1)
        super().reset(seed=seed)
        if seed is None and not self._ever_reset:
            # First reset without a seed: draw one, as Gymnasium envs do. Later unseeded
            # resets continue from the world's own generator, so a run stays reproducible.
            seed = int(self.np_random.integers(0, 2**63 - 1))
        self._engine.batch.reset_one(0, seed)
        self._ever_reset = True
        self._needs_reset = False
        if self.render_mode == "human":
            self.render()
        return self._engine.world_obs(self._engine.obs, 0), self._engine.world_info(0)

    def _set_actions(self, action):
        if self._num_agents == 1:
            if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
                a = int(action)
            else:
                arr = np.asarray(action)
                if arr.size != 1 or not np.issubdtype(arr.dtype, np.integer):
                    raise ValueError(f"action must be an int in [0, 18], got {action!r}")
                a = int(arr.reshape(()))
            if not 0 <= a < 19:
                raise ValueError(f"action must be an int in [0, 18], got {a}")
            self._actions[0, 0] = a
            return
        arr = np.asarray(action)
        if arr.shape != (self._num_agents,) or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"action must be {self._num_agents} ints in [0, 18] (one per agent), got {action!r}")
        if arr.min() < 0 or arr.max() >= 19:
            raise ValueError(f"action values must be in [0, 18], got {arr.tolist()}")
        self._actions[0] = arr

    def step(self, action):
        if self._needs_reset:
            raise RuntimeError("step() called before reset() or after the episode ended; call reset()")
        self._set_actions(action)
        eng = self._engine
        eng.batch.step()
        terminated = bool(eng.terminated[0])
        truncated = bool(eng.truncated[0])
        self._needs_reset = terminated or truncated
        reward = float(eng.rewards[0, 0]) if self._num_agents == 1 else eng.rewards[0].copy()
        if self.render_mode == "human":
            self.render()
        return eng.world_obs(eng.obs, 0), reward, terminated, truncated, eng.world_info(0)

    def render(self):
        if self.render_mode is None:
            return None
        frame = self._engine.batch.render(0, self.config.render_width)
        if self.render_mode == "rgb_array":
            return frame
        from trackfield.core.render import show_frame

        self._window = show_frame(self._window, frame, self.metadata["render_fps"])
        return None

    def close(self):
        if self._window is not None:
            from trackfield.core.render import close_window

            close_window(self._window)
            self._window = None

    def get_state(self) -> bytes:
        """The world's full state (RNG, sticky actions and frame stack included) as bytes."""
        return self._engine.batch.get_state(0)

    def set_state(self, state: bytes) -> None:
        """Restores a state from ``get_state()`` of an env with the same scenario and config."""
        if not isinstance(state, (bytes, bytearray)):
            raise TypeError(f"state must be bytes from get_state(), got {type(state).__name__}")
        self._engine.batch.set_state(0, bytes(state))
        self._ever_reset = True
        self._needs_reset = bool(self._engine.terminated[0] or self._engine.truncated[0])

    def observation(self):
        """The current observation (as the last reset/step returned it)."""
        return self._engine.world_obs(self._engine.obs, 0)

    @property
    def action_names(self):
        return ACTION_NAMES
