"""DrivingEnv: one driving world behind the Gymnasium API (one ego among built-in traffic)."""
from __future__ import annotations

import numpy as np

from trackfield.core.config import config_from_kwargs
from trackfield.core.single import BatchEnv
from trackfield.driving.config import DrivingConfig
from trackfield.driving.engine import make_engine
from trackfield.driving.scenarios import load_driving_scenario
from trackfield.driving.window import frame


class DrivingEnv(BatchEnv):
    """Town driving in the manner of GIGAFLOW, simulated in C++.

    | | |
    |---|---|
    | Import | `trackfield.make("town_drive")` |
    | Gymnasium id | `gymnasium.make("trackfield/TownDrive-v0")` |
    | Parallel API | `trackfield.parallel_env("town_self_play", agents=8)` (every vehicle an agent; respawns are new agents) |
    | Vector API | `trackfield.vector.make("town_self_play", num_envs=64)`: (num_envs, slots) with `info["live"]` |
    | Agents | town_drive: one ego (slot 0) among built-in drivers; town_self_play: up to 150 per world |
    | Action space | `Discrete(12)`: (j_long, j_lat) jerk pairs; `action="box"`: `Box([-15, -4], [4, 4])` m/s^3 |
    | Observation | flat: `Box(-1, 1, (337,), float32)`; sets: `Dict` of `Box(-1, 1)` (1369 floats, masks explicit); pixels: `Box(0, 255, (64, 64, 6), uint8)` |
    | Reward components | `goal`, `collision`, `off_road`, `comfort`, `lane_align`, `lane_center`, `velocity`, `reverse`, `stop_line`, `timestep`, `centring` |

    ## Description
    Vehicles of random size (0.8-7 m long) and dynamics coefficients drive a
    jerk-actuated kinematic bicycle at dt = 0.3 s on a town of lanes with traffic lights:
    a generated small town by default, one of CARLA's eight towns (`map="Town05"`) or any
    OpenDRIVE or JSON map. Each agent has a route: 0-3 waypoints and a final goal; its reward weights are
    drawn per agent per episode and shown to it as conditioning. In `town_drive` the
    other vehicles are built-in drivers (through the same bicycle model, via its Box
    jerks): IDM behind the vehicle on their route, slowing for curves (1.5 m/s^2 lateral planned),
    stopping at red and (when they can) yellow lights, giving way at junctions to
    vehicles already in them or nearer to them on a crossing path, and stopping at their
    goal; `env.ai_action()` drives the ego the same way. `info["traffic"]` holds arrays
    over the built-in vehicles (id, x, y, speed, alive, collided, off_road, ran_red,
    reached_goal, erratic, held_red, spawned); `trackfield.driving.traffic_stats`
    measures them per 100 km. Cusumano-Towner et al., "Robust autonomy emerges from self-play" (GIGAFLOW), 2025.

    ## Observation Space
    flat (float32, every value divided by its scale and clipped to [-1, 1]); ego frame
    x forward, y left. Absent rows are zero with mask 0.

    | Field | Shape | Meaning |
    |---|---|---|
    | ego | 14 | lane offset (/5 m), heading error (/pi), lane curvature ahead (/0.1 1/m), speed (/30 m/s), speed limit (/30 m/s), steering angle (/0.55 rad), a_long (/5), a_lat (/4 m/s^2), c_throttle, c_steer, c_acc, c_vel ((c - 1) / 0.5), length (/7 m), width (/3 m) |
    | goal | 6 | final goal x, y (/200 m), current goal x, y (/200 m), route distance to the current goal (/1000 m), waypoints left (/3) |
    | vehicles | 20 x 9 | 20 nearest other vehicles within 200 m: mask, x, y (/200 m), cos, sin of the heading difference, speed (/30), length (/7), width (/3), z difference (/10 m) |
    | lane_points | 20 x 6 | centre-line points every 5 m along the route: mask, x, y (/100 m), cos, sin of the relative heading, half width (/5 m) |
    | light | 5 | first lit stop line ahead within 100 m: mask, distance (/100 m), green, yellow, red |
    | conditioning | 12 | comfort, lane_align_w1, lane_align_w2, lane_center, lane_center_bias, reverse, stop_line, collision, c_throttle, c_steer, c_acc, c_vel, each mapped from its range onto [-1, 1] |

    sets (`observation="sets"`): a `Dict` of float32 Boxes in [-1, 1], for
    permutation-invariant encoders; each set row starts with its mask. ego, goal, light
    and conditioning are flat's, bit for bit. Lane and boundary points are the map's
    precomputed sets of the agent's quad group (GIGAFLOW's precompute, rules in
    `cpp_engine/driving/map_sets.h`): each lane sampled at <= 40 m spacing (the middles of
    equal pieces), boundaries every 1 m, the nearest to the group's centre first; at run
    time they are only moved into the ego frame. `feature_dropout=True` drops each lane
    point with probability 0.5 and each boundary point with 0.4, per agent per step
    (mask and values 0; the draws come from the world's seed, so they are reproducible).

    | Set field | Shape | Meaning |
    |---|---|---|
    | ego | 14 | as flat |
    | goal | 6 | as flat |
    | vehicles | 20 x 11 | 20 nearest other vehicles within 200 m: mask, x, y (/200 m), cos, sin of the heading difference, velocity vx, vy in the ego frame (/30 m/s), length (/7), width (/3), z difference (/10 m) |
    | lane_points | 80 x 9 | lane samples within 200 m: mask, x, y (/200 m), z difference (/10 m), cos, sin of the relative heading, half width (/5 m), route distance from the point to the current goal (/1000 m; 1: unreachable), that minus ours (/200 m) |
    | boundary_points | 80 x 4 | boundary samples within 50 m: mask, x, y (/50 m), z difference (/10 m) |
    | light | 5 | as flat |
    | stop_lines | 8 x 9 | the 8 nearest lit stop lines within 100 m, any lane's (crossing traffic's included), nearest first: mask, x, y (/100 m), cos, sin of their lanes' heading minus ours, green, yellow, red, 1 for the one on our route ahead (light's) |
    | conditioning | 12 | as flat |

    pixels (`observation="pixels"`): an egocentric top-down picture per agent, uint8
    (64, 64, 6), 1 m per pixel (a 64 m square), the agent's heading up and its centre at
    the middle of the frame (the corner between pixels (31, 31) and (32, 32)): pixel
    (row, col) shows the point (32 - row - 0.5) m ahead and (32 - col - 0.5) m to the
    left (observation noise moves the frame like every other observation). Written by
    the engine in the batched step; drivable area and boundaries are sampled from a
    0.5 m raster of the map built once per map (`cpp_engine/driving/map_raster.h`: a
    2-D picture, so the levels of an overpass merge). Slots not in play are all zero.

    | Channel | Values |
    |---|---|
    | 0 drivable | 255 on a lane |
    | 1 boundary | 255 on the map's boundary lines and on the edge of the drivable area (about 1.5 m thick) |
    | 2 route | 128 along the route to the current goal (50 m ahead), 255 on the current goal's disc (`goal_radius`) |
    | 3 vehicles | 255 in the other vehicles' oriented boxes (`obs_inflate` included; none while blind) |
    | 4 ego | 255 in the agent's own box |
    | 5 lights | 1.5 m bands behind lit stop lines: 255 red, 170 yellow, 85 green |

    ## Action Space
    `Discrete(12)`: index 3 i_long + i_lat, j_long in {-15, -4, 0, 4} and j_lat in
    {-4, 0, 4} m/s^3.

    | Action | j_long | j_lat | Action | j_long | j_lat |
    |---|---|---|---|---|---|
    | 0 | -15 | -4 | 6 | 0 | -4 |
    | 1 | -15 | 0 | 7 | 0 | 0 |
    | 2 | -15 | 4 | 8 | 0 | 4 |
    | 3 | -4 | -4 | 9 | 4 | -4 |
    | 4 | -4 | 0 | 10 | 4 | 0 |
    | 5 | -4 | 4 | 11 | 4 | 4 |

    Actions outside 0-11 (or NaN / inf box actions) raise a `ValueError` naming the agent.

    ## Rewards
    The reward is the sum of the components in `info["reward_components"]` (each already
    weighted and signed). Randomised weights are drawn per agent per episode.

    | Component | Weight | When it fires |
    |---|---|---|
    | goal | 1 | within `goal_radius` (2 m) of a waypoint, or of the final goal below `goal_speed` (2 m/s) |
    | collision | -25 U(1, 4) (1 + relative speed / 10 m/s) | the vehicle box touched another vehicle (the agent ends) |
    | off_road | -25 | the box left the road (the agent ends) |
    | comfort | U(0, 0.1) | jerk and acceleration penalties |
    | lane_align | U(2.5e-4, 2.5e-2), U(0, 1); bonus 2.5e-3 | heading error to the lane |
    | lane_center | U(2.5e-4, 7.5e-3), bias U(-0.5, 0.5) m | offset from the lane centre |
    | velocity | 2.5e-3 dt | progress at speed |
    | reverse | U(2.5e-4, 7.5e-3) | driving backwards |
    | stop_line | U(0, 1) | crossing a stop line on red |
    | timestep | 2.5e-5 | every step |
    | centring | 0 (off) | optional centring term |

    ## Starting State
    A map is drawn among the config's (the augmented variants with `augment`); lights get
    random timings and removals. Agents
    (U{agents_min, agents_max}) are placed one at a time at on-road points drawn from a
    lane-length-weighted buffer (no bias to wide roads), clear of the vehicles already
    placed, heading along their lane (`spawn_heading="random"`: uniform in [-pi, pi), a
    new draw for each candidate point until the box is on the road, as GIGAFLOW places its
    vehicles), at U(0, spawn_speed) m/s (0 by default). Built-in drivers and static
    obstacles always face along their lane. An agent facing against its lane sees a
    heading error near +-1 and its lane points and route behind it; its route distance is
    measured along its lane's direction of travel, so it has to turn to make progress.

    Routes follow GIGAFLOW: U{0, waypoints} waypoints plus a final goal; the route's first
    point is uniform over the map's lanes (by length) among the points the lane graph
    reaches from the spawn (redrawn when it cannot, or when it lies within 20 m; after 16
    draws, 200 m on along the lanes from the spawn), and each
    next point is 20-200 m on along the lanes (a random turn at each junction) from the
    previous, its lane heading within 60 degrees of the previous point's. The constraints
    relax where no draw meets them: after 16 draws the one nearest in heading is kept (a
    road that curves away), and a point from which every draw reaches a dead end within
    20 m ends the route (fewer waypoints). The last point is the final goal. With
    `goal_distance=(min_m, max_m)` the waypoints follow the same chain rule from the spawn
    and the final goal lies U(min_m, max_m) m on along the lanes from the route's last
    point (the spawn when there are no waypoints).

    ## Episode End
    An agent ends (terminated) on a collision, leaving the road, or reaching its final
    goal. In `town_drive` the episode ends with the ego; built-in drivers respawn. In
    `town_self_play` an ended agent's slot takes a new agent one step later (a new
    PettingZoo name). Truncated after `max_steps` (300 steps = 90 s).

    ## Arguments
    | Parameter | Type | Default | Description |
    |---|---|---|---|
    | map | str, path, RoadMap or a list | None | "Town01", "Town03", a .xodr / .json path; None: `generate_town(seed=town_seed)`; a list: each reset draws one |
    | town_seed | int | 0 | seed of the generated town |
    | slots | int | 32 (town_drive), 150 (town_self_play) | vehicle slots per world, at most 150 |
    | agents | int | None | fixed agents per world (else U{agents_min, agents_max}) |
    | agents_min, agents_max | int | 1, slots | range of agents per world |
    | static_obstacles | int | 0 | immobile vehicles, seen and hit like agents (at most 50) |
    | dt | float | 0.3 | step, s |
    | max_steps | int | 300 | truncation |
    | respawn | bool | scenario's | an ended agent's slot takes a new agent |
    | goal_radius, goal_speed | float | 2.0, 2.0 | goal reached within this distance (m), the final goal below this speed (m/s) |
    | waypoints | int | 3 | at most this many waypoints per route |
    | goal_distance | (float, float) | None | None: GIGAFLOW's routes, the first point uniform over the map (one the route reaches), each next 20-200 m on from the previous (see Starting State); (min_m, max_m): waypoints chained from the spawn, the final goal U(min_m, max_m) m on along the lanes from the route's last point (the spawn or the last waypoint), a random turn at each junction |
    | spawn_speed | float | 0 | agents start at U(0, min(spawn_speed, limit)) m/s |
    | preset | str | None | "eval_long": the evaluation set-up (see Presets and noise) |
    | spawn_heading | str | "lane" | "lane": agents start facing along their lane; "random": uniform in [-pi, pi) (the box still on the road; built-in drivers keep their lane's) |
    | spawn_clearance | float | 1.0 | m of free space between a new vehicle's bounding circle and every other's |
    | obs_noise | float or 3 floats | 0 | noise on the ego's observed position, heading, speed (see Presets and noise) |
    | dynamics_noise | float | 0 | std of Gaussian noise on each applied jerk (long. and lat.), m/s^3 |
    | obs_inflate | float | 0 | other vehicles' length and width as observed grow by this per side, m |
    | conditioning | str | "random" | "random": reward weights drawn per agent; "safe": every agent the cautious weights |
    | augment | bool | False | each world reset drives on one of `augment_variants` augmented variants of the map |
    | augment_variants, augment_seed | int | 128, 0 | how many variants (built once per process), and their seed |
    | lights, erratic | bool | True, True | traffic lights; erratic drivers (blind spells, sudden braking) |
    | action | str | "discrete" | "discrete" (12) or "box" |
    | observation | str | "flat" | "flat", "sets" or "pixels" |
    | feature_dropout | bool | False | sets only: drop 50% of lane and 40% of boundary points per agent and step |
    | render_mode | str or None | None | "rgb_array": `render()` returns a square RGB frame of the `render_view`; "human": the same in a pygame window (vector env: world 0) |
    | render_width | int | 480 | side of the rendered frame, px |
    | render_view | str | "town" | "town": the whole map, north up (lanes, boundaries, stop lines in their light's colour, vehicles: slot 0 yellow and ringed, other agents orange, built-in drivers blue, static obstacles grey; agents' goals magenta); "ego": 60 m around the ego (slot 0), its heading up (see Rendering) |

    ## Rendering
    `render_view="ego"` follows the ego (a vector env: each world's slot 0; a parallel
    env: world 0's; the first live agent while slot 0 is empty) in a 60 m square, its
    heading up and its centre at the middle of the frame: road grey, lane dividers white
    and dashed between lanes of one direction, solid yellow on a lane's left where no lane
    of its direction lies there (the centre line, or the road's edge), solid white at its
    right edge (none inside junctions), a grey arrow every 16 m of each lane in its direction of travel, each lit
    traffic light as a band behind its stop line and a disc past it in its colour, the
    route ahead through the remaining goals as a light-blue line, the goals as magenta
    discs (the current one bright, later ones dark, the final one with a target centre;
    a magenta arrowhead at the frame's edge points to a current goal beyond it),
    other vehicles as outlined boxes with a light windscreen at the front (agents orange,
    built-in drivers blue, static obstacles grey), the ego yellow, and the ego's speed and
    route distance to its current goal in the top-left corner. In the whole-town view
    slot 0 has a yellow ring of a fixed size in pixels, so it shows on the largest map.

    ## Presets and noise
    `obs_noise` perturbs only what the ego observes of itself (the world is unchanged, and
    the noise has its own generator: same seed, same noise): Gaussian, redrawn every step,
    on its position (per axis; it moves the ego frame, so goals, vehicles and lane points
    shift, and the lane offset), heading and speed. A float k means standard deviations
    k x (0.5 m, 0.02 rad, 0.2 m/s); three floats give them directly. `dynamics_noise` adds
    Gaussian noise to every vehicle's jerks before clipping (the action steps are 4 and
    15 m/s^3, so 1.0 is a quarter of the smallest).

    `augment=True` builds `augment_variants` variants of the map (`augment.variants`:
    stretch 0.8-1.2 along x and y, shear +-0.1, a mirror half the time, which makes it a
    left-hand-traffic town as GIGAFLOW's flips did) and each world reset draws one
    (`info["map_id"]`); 128 variants of the small town take about 10 s to build (once per
    process: they are cached per map, count and seed). With a list of maps (GIGAFLOW: 8
    towns x 128 variants) map k's variants have ids k x augment_variants onwards.

    `preset="eval_long"` (GIGAFLOW's long-run evaluation; `trackfield.driving.evaluate`
    uses it) fixes dt = 1/15 s, slots = agents = 50, obs_noise = dynamics_noise = 0,
    erratic = False, lights = True with CARLA's fixed timings (green 10 s, yellow 3 s, 2 s
    all-red between a junction's turns; none removed or stuck), spawn_clearance = 10 m (respawns
    land among moving traffic: 1 s of reaction at 10 m/s), obs_inflate = 0.1 m (others
    seen 10 cm larger per side) and conditioning = "safe" (`_engine.driving.safe_conditioning()`:
    comfort 0.1, lane_align 0.025 and 1, lane_center 0.0075 with no bias, reverse 0.0075,
    stop_line 1, collision factor 4: the top of every penalty range); max_steps defaults to 4500 (5 min).
    Passing a fixed key with another value raises ValueError; other keys are free.

    ## Vectorized use
    >>> import trackfield
    >>> envs = trackfield.vector.make("town_self_play", num_envs=2, agents=4)
    >>> obs, info = envs.reset(seed=0)
    >>> obs.shape
    (2, 150, 337)

    ## Version History
    * v0: first release.
    """

    metadata = {"render_modes": ["rgb_array", "human"], "render_fps": 10}

    def __init__(self, scenario: str = "town_drive", **config):
        self.config = config_from_kwargs(DrivingConfig, config, "DrivingEnv")
        self.scenario = load_driving_scenario(scenario)
        engine = make_engine(self.scenario, self.config, num_envs=1, num_threads=1, autoreset=False)
        self._attach(engine, self.config.render_mode, self.config.render_width)

    def reset(self, *, seed=None, options=None):
        obs, info = super().reset(seed=seed, options=options)
        return obs, self._with_traffic(info)

    def step(self, action):
        obs, reward, terminated, truncated, info = super().step(action)
        return obs, reward, terminated, truncated, self._with_traffic(info)

    def _with_traffic(self, info: dict) -> dict:
        if self.scenario.controlled == "ego":
            info["traffic"] = self._engine.batch.traffic(0)
        return info

    def render(self):
        if self.render_mode is None or self.config.render_view == "town":
            return super().render()
        image = frame(self._engine, 0, self._render_width, self.config.render_view)
        if self.render_mode == "rgb_array":
            return image
        from trackfield.core.render import show_frame

        self._window = show_frame(self._window, image, self.metadata["render_fps"])
        return None

    def ai_action(self):
        """The built-in driver's action for the ego (the driver of the traffic, see
        ``cpp_engine/driving/driver.h``): the (j_long, j_lat) jerks with ``action="box"``,
        else the nearest of the 12 discrete actions."""
        jerks = self._engine.batch.ai_actions_all()[0, 0]
        if self.config.action == "box":
            return jerks.astype(np.float32)
        i_long = int(np.argmin(np.abs(np.array([-15.0, -4.0, 0.0, 4.0]) - jerks[0])))
        i_lat = int(np.argmin(np.abs(np.array([-4.0, 0.0, 4.0]) - jerks[1])))
        return 3 * i_long + i_lat
