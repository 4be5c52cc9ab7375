"""FootballEnv: one football world behind the Gymnasium API."""
from __future__ import annotations

from trackfield.core.config import config_from_kwargs
from trackfield.core.single import BatchEnv
from trackfield.football.config import FootballConfig
from trackfield.football.engine import ACTION_SET_NAMES, football_recorder, make_engine
from trackfield.football.scenarios import load_scenario


class FootballEnv(BatchEnv):
    """Football in the manner of Google Research Football (GRF), simulated in C++.

    | | |
    |---|---|
    | Import | `trackfield.make("academy_empty_goal_close")` |
    | Gymnasium id | `gymnasium.make("trackfield/AcademyEmptyGoalClose-v0")` |
    | Parallel API | `trackfield.parallel_env(name, number_of_left_players_agent_controls=k)` |
    | GRF's entry point | `trackfield.football.create_environment(env_name=..., representation=...)` (GRF 2.10.2's arguments; docs/football_grf_migration.md) |
    | Agents | `number_of_left_players_agent_controls` + `number_of_right_players_agent_controls` (default 1 + 0) |
    | Action space | `Discrete(n)` for one agent, `MultiDiscrete([n] * k)` for k agents; n = 19, 20 or 33 by `action_set` |
    | Observation | raw: `Dict`; simple115v2: `Box(115,)` float32 (460 stacked); smm: `Box(72, 96, 4)` uint8 (16 channels stacked); pixels: `Box(72, 96, 3)` uint8 (12 stacked); pixels_gray: `Box(72, 96, 1)` uint8 (4 stacked) |
    | Reward components | `scoring`, `checkpoints` |

    ## Description
    Two teams of up to eleven players on a 105 x 68 m pitch. The agent controls one
    player of its team at a time (the ball carrier, the receiver of its pass, or the
    team-mate nearest the ball); every other player is moved by a rule-based AI whose
    strength is the scenario's team difficulty in [0, 1]. Players run, sprint (tiring
    them), dribble, pass, shoot, tackle and slide; the ball flies in 2.5-D with
    gravity, bounces and rolls. Each step is 0.1 s of game time in 5 physics substeps.

    Players differ as GRF's: a team's players take GRF's eleven database profiles in
    the scenario's order, the same set for both teams (top speed, stamina, kick
    accuracy). `tired_factor` (raw) is GRF's fatigue: it builds with every metre a
    player runs in play, at GRF's rate for his stamina (about 0.75 by the end of a full
    game), never recovers, and takes up to 30% off his kicking and tackling. A separate
    sprint meter, not in the observation, slows a field player after a long sprint by up
    to 35% and recovers at rest; GRF has none (its top speed never falls), and it stands
    in for what GRF's team shape and recent running do (docs/football_fidelity.md).

    Scenarios are GRF scenario files (`build_scenario(builder)`); the eleven Football
    Academy scenarios ship with trackfield under GRF's names, and any file path works.
    Kurach et al., "Google Research Football: A Novel Reinforcement Learning
    Environment", AAAI 2020.

    ## Observation Space
    Coordinates are GRF's observation units: the observing team attacks towards +x, "top"
    is negative y, and the lines lie where GRF's lie in its observations (goal lines at
    x = +-1.011, touchlines at y = +-0.4306; a scenario file's x in [-1, 1], y in
    [-0.42, 0.42] places its ball at those numbers and its players at 1.011 x, 1.016 y of
    them, as GRF's engine does). Right-team agents see the pitch
    rotated by 180 degrees, so one policy can play both sides. Directions are the
    movement over one step in the same units.

    simple115v2 (float32, 115; stacked: 4 frames concatenated, oldest first):

    | Index | Field | Min | Max | Unit |
    |---|---|---|---|---|
    | 0-21 | own team (x, y) for 11 slots, -1 for missing players | -1.05 | 1.05 | pitch |
    | 22-43 | own team (dx, dy) per step, -1 for missing | -inf | inf | pitch/step |
    | 44-65 | opponent (x, y) for 11 slots, -1 for missing | -1.05 | 1.05 | pitch |
    | 66-87 | opponent (dx, dy) per step, -1 for missing | -inf | inf | pitch/step |
    | 88-90 | ball (x, y, z); z is the height of its centre in metres (0.11 on the grass, as GRF) | -inf | inf | pitch, m |
    | 91-93 | ball (dx, dy, dz) per step | -inf | inf | pitch/step |
    | 94-96 | ball owned by: nobody, own team, opponents (one-hot) | 0 | 1 | |
    | 97-107 | controlled player's slot (one-hot) | 0 | 1 | |
    | 108-114 | game mode (one-hot): normal, kickoff, goal kick, free kick, corner, throw-in, penalty | 0 | 1 | |

    smm (uint8, 72 x 96 x 4, channels last): own team, opponents, ball, controlled
    player; 255 at each entity's pixel. `channel_dimensions=(width, height)` (GRF's
    argument) changes the 96 x 72 size of smm and pixels.

    pixels (uint8, 72 x 96 x 3 RGB) and pixels_gray (72 x 96 x 1, luminance
    0.299 R + 0.587 G + 0.114 B of the same picture): a top-down picture of the whole
    pitch drawn by the C++ rasteriser, rotated like every observation for right-team
    agents: mown grass, white markings, own players light (255, 120, 80; keeper
    255, 190, 120), opponents dark (30, 40, 140; keeper 10, 10, 60), the agent's active
    player yellow (255, 255, 0), the ball pure white (255, 255, 255) raised by its
    height over its shadow. Stacked: the channels of each pixel grouped in time
    (oldest first). GRF's pixels are its 3-D broadcast camera scaled down, so results
    from the two are not comparable.

    raw (a dict with GRF's keys; table generated from the engine's field list):
    `ball`, `ball_direction`, `ball_rotation`, `ball_owned_team`, `ball_owned_player`,
    `left_team`, `left_team_direction`, `left_team_tired_factor`, `left_team_yellow_card`,
    `left_team_active`, `left_team_roles`, the same six for `right_team`, `score`,
    `steps_left`, `game_mode`, `active`, `designated`, `sticky_actions`
    (see `trackfield._engine.football.raw_fields`). `sticky_actions` has 10 entries
    (8 directions, sprint, dribble), 13 with `action_set="full"` (then keeper_rush,
    pressure, team_pressure), as GRF lists the set's sticky actions.

    A player sent off (second yellow card) leaves for the rest of the episode: raw keeps
    his slot with `*_active` False and his last position; simple115v2 pads his slot
    with -1 like a missing player; smm and pixels no longer draw him. An agent that
    controlled him on its own (as many agents as controllable players) then drives
    nobody (`active` -1). As in GRF, a keeper sent off is replaced in goal by the team's
    first player still on the pitch, and a team's last player is never sent off. Unlike
    GRF, the player leaves at once (GRF: 6 s after the card) and there are no straight
    red cards. With `deterministic=True` no card is ever shown (a foul is booked with
    chance 0.4).

    ## Action Space
    `action_set=` picks one of GRF's sets (gfootball/env/football_action_set.py); each
    extends the previous one, so an index means the same action in every set.

    * `"default"` (19): 0 idle, 1 left, 2 top_left, 3 top, 4 top_right, 5 right,
      6 bottom_right, 7 bottom, 8 bottom_left, 9 long_pass, 10 high_pass,
      11 short_pass, 12 shot, 13 sprint, 14 release_direction, 15 release_sprint,
      16 sliding, 17 dribble, 18 release_dribble.
    * `"v2"` (20): adds 19 builtin_ai: the built-in AI plays the agent's player for that
      step, and every sticky action is released (GRF reports none while the AI plays).
    * `"full"` (33, GRF's code order): v2 plus 20 keeper_rush (sticky: the team's AI
      keeper comes out for any ball the team does not have), 21 pressure (sticky: while
      the opponents have the ball or it is loose, the active player runs at it by
      himself, whatever direction is held), 22 team_pressure (sticky: the team's two AI
      players nearest the ball hunt the carrier from any distance, and the AI player
      nearest the point just goal-side of him runs at the ball, holding off for nothing),
      23 switch (control
      passes to the team-mate nearest the ball that no agent drives, kept for 1 s, while
      the team is not on the ball), 24 release_long_pass, 25 release_high_pass,
      26 release_short_pass, 27 release_shot (each withdraws its kick if it was pressed
      early and is still waiting for the ball; a kick whose wind-up has started goes ahead),
      28 release_keeper_rush, 29 release_sliding (nothing to release: a slide is one
      press), 30 release_pressure, 31 release_team_pressure, 32 release_switch
      (nothing to release). GRF notes that "full" is meant for its play_game script,
      not for training.

    The GRF paper (Kurach et al. 2020) describes the actions in a 20-entry table
    grouped by kind (movement, kicks, other), not in index order, and with the
    releases under their own names; it is not an index map. Its 20 entries are not
    GRF's "default" set of 19: the code's sets (gfootball/env/football_action_set.py)
    are what GRF's `action_space` numbers, and trackfield follows the code, so index i
    is GRF's index i in every set. Use `env.action_names` for the names by index.

    Movement, sprint and dribble (and the full set's keeper_rush, pressure and
    team_pressure) are sticky until released. Passes go to the team-mate best placed
    in the kicking direction. A shot goes where GRF's auto-direction sends it: at the
    goal's middle with the direction held straight at goal, towards a post the further
    the held direction (else the facing) is off that line, and wide when it is struck
    across or against the run; its error grows with distance, pressure and fatigue. As in GRF, a kick pressed on the way to a ball the
    player's team will win (he is its designated possession player, or nearly as quick
    to it as the opponents) stays queued for 2 s and is played as his first touch; a
    press while an opponent has the ball, or on an episode's first step, does nothing.

    ## Rewards
    | Component | Weight | When it fires |
    |---|---|---|
    | scoring | 1 | +1 when the agent's team scores, -1 when it concedes |
    | checkpoints | 1 with `rewards="scoring,checkpoints"`, else 0 | +0.1 the first time the agent's player carries the ball into each of 10 zones nearer the opponent goal (distance <= 0.99 - k * 0.8 / 9); on scoring, all unpaid checkpoints are paid; at most 1 per episode |

    Who owns the ball (`ball_owned_team` / `ball_owned_player`, simple115v2's 94-96,
    the checkpoints and the possession-change ending) is GRF's reported owner: the
    player with the ball at his feet once he has touched it. Nobody owns it while a kick
    pressed before he reached it is his first touch, nor for the first step of an
    episode that starts with the ball at a player's feet.

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
    | representation | str | "simple115v2" | "raw", "simple115v2", "smm", "pixels" or "pixels_gray" |
    | stacked | bool | False | stack the last 4 frames |
    | rewards | str | "scoring" | "scoring" or "scoring,checkpoints" |
    | number_of_left_players_agent_controls | int | 1 | controlled left players |
    | number_of_right_players_agent_controls | int | 0 | controlled right players; with both counts 0 the built-in AI plays both teams, the action is `[]` and the observation has a leading axis of 0 (GRF's AI-against-AI mode) |
    | render_mode | str or None | None | "rgb_array" (a top-down frame with scoreboard, match clock running 90 minutes over the game, step count, game mode, shirt numbers from 660 px wide, controlled players ringed in yellow, the ball's shadow) or "human" (the same in a pygame window) |
    | render_width | int | 480 | width of rendered frames in pixels (96 to 4096; 1280 gives a 1280 x 853 frame) |
    | channel_dimensions | (int, int) | (96, 72) | (width, height) of smm and pixels observations, each in [1, 4096] |
    | action_set | str | "default" | GRF's "default" (19), "v2" (20) or "full" (33); see Action Space |
    | teammate_ai | bool | True | False: the team-mates of controlled players that no agent drives stand idle instead of being moved by the built-in AI (a set-piece taker is still helped after 4 s so play resumes) |
    | handballs | bool or None | None (False) | trackfield's handball rule, off by default because GRF has none: a loose ball reaching a field player (or a keeper outside his box) at 0.8-1.6 m, arm height, who did not last touch it, is a handball with probability `handball_probability`: a free kick where it happened, a penalty inside his own box. No card is shown |
    | handball_probability | float or None | None (0.5) | the chance that a touch in the arm band is called (in [0, 1]); with `deterministic=True` a call happens whenever it is >= 0.5 |
    | write_full_episode_dumps | bool | False | write each episode to `logdir` as a dump (config, starting state, actions, per-step summaries); `trackfield.replay(path, video="out.mp4")` re-simulates it bit for bit |
    | logdir | str | "" | folder for dumps (default: the temp folder's `trackfield_dumps`) |
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
        engine = make_engine(self.scenario, self.config, num_envs=1, num_threads=1, autoreset=False)
        self._attach(engine, self.config.render_mode, self.config.render_width)
        if self.config.write_full_episode_dumps:
            self._recorder = football_recorder(self.scenario, self.config, engine)

    @property
    def action_names(self):
        """Names of the actions of the env's ``action_set``, by index."""
        return ACTION_SET_NAMES[self.config.action_set]
