#!/usr/bin/env python3
"""Scripted probes of GRF's game mechanics, run the same way on real GRF or trackfield.

    $GRF_VENV/bin/python tools/football_probes.py grf passes
    python tools/football_probes.py trackfield passes
    $GRF_VENV/bin/python tools/football_probes.py grf loose_ball
    $GRF_VENV/bin/python tools/football_probes.py grf keeper_claim
    $GRF_VENV/bin/python tools/football_probes.py grf shots
    $GRF_VENV/bin/python tools/football_probes.py grf keeper_difficulty
    $GRF_VENV/bin/python tools/football_probes.py grf scripted
    $GRF_VENV/bin/python tools/football_probes.py grf kick_buffer
    $GRF_VENV/bin/python tools/football_probes.py grf first_touch
    $GRF_VENV/bin/python tools/football_probes.py grf duel
    $GRF_VENV/bin/python tools/football_probes.py grf turn
    $GRF_VENV/bin/python tools/football_probes.py grf flight

GRF processes one team before the other, in an order it draws at random per environment
(docs/football_fidelity.md); ``GRF_TEAM_ORDER=0`` (left first) or ``1`` fixes it.

Each probe writes small GRF-format scenario files (``tfprobe_*``) into a temporary folder.
trackfield loads them by path; GRF only loads scenarios by module name from its own package,
so each is registered as ``gfootball.scenarios.<name>`` in ``sys.modules`` (as
``tools/grf_games.py`` does), and nothing is written into GRF's installation.

passes: a left player 15-60 m from his only outfield team-mate (behind him, ``back``, or
  ahead, ``ahead``) runs at him for four steps and presses one kick (short, long or high
  pass), then keeps running; printed per case, over four engine seeds: the ball's top
  speed (m/s, from ``ball_direction``) and top height (m).
loose_ball: a loose ball 22 m from the selected player, nobody else near it; the agent
  holds "top" (action 3) the whole time; printed every 10 steps: ball, owner, player
  positions (obs units). In GRF the selected player runs onto the ball whatever is held.
keeper_claim: an attacker 21 m out with the ball runs straight at the keeper (centrally, and
  0.15 units wide), no kick pressed; printed over 20 engine seeds: how the episodes ended
  (keeper: the keeper took the ball) and their mean length in steps.
shots: an attacker 14 m out, centrally, runs (or stands) for four steps in one direction and
  shoots, keeping the direction held; printed per direction over 16 engine seeds: goals,
  balls out, keeper holds.
keeper_difficulty: an attacker 16, 20 or 24 m out, centrally, runs at goal for three steps and
  shoots, keeping on running; the right team is its keeper alone, at difficulty 0.05, 0.6 or
  1.0 (GRF scales every skill by 0.3 + 0.7 x difficulty and adds 0.1 s x (1 - difficulty) to
  its AI's reaction); printed per case over 30 engine seeds (PROBE_SEEDS): goals, balls out,
  keeper holds, and other (neither after 4.4 s: parried, loose, or back with the attacker).
kick_buffer: a loose ball 3-28 m ahead of the selected player, who runs at it and presses a
  short pass once, on the second step; printed per distance over two engine seeds: the
  step the ball was struck (None: never) and the reported owner each step (L / R / .).
  GRF queues the press for 2 s and plays it as his first touch, never reporting him.
first_touch: 40 fixed random action streams (seeded 1000 + k) from reset in four academy
  scenarios; printed per stream: what came first, the left team reported on the ball
  (own@step) or the ball struck (kick@step), then the stream's first ten actions. GRF
  reports a player only after his first touch, ignores a kick pressed on the first step,
  and plays one pressed before the touch as that touch.
duel: a carrier runs straight at one AI centre-back 22 m ahead (running, sprinting, or
  dribbling held), the keeper behind; printed over 20 engine seeds: how the episodes ended
  (keeper: the right team took the ball), mean length, the median x where it ended.
scripted: the demo's scripted policy (`trackfield.demo.scripted_action`, restated here so
  that GRF's interpreter needs no trackfield: run at the ball; with it, run at goal and shoot
  from inside 0.72, |y| < 0.2) on five academy scenarios, simple115v2, 20 engine seeds;
  printed: episodes scored.
flight: as ``passes`` (ahead), a long or high pass to the team-mate 15-80 m upfield; printed
  per case (running on after the press), the mean of eight engine seeds: where the ball first lands (m from the kick),
  its speed along the ground over the step before and the step after (m/s), its peak
  height (m), and how far from the kick it is when first reported owned (or after 40
  steps). GRF's landing takes 10-50% off the ball's run, more the harder it comes down.
turn: the selected player sprints right for 2 s, then is sent back left, or up; without
  the ball and with it; printed: his velocity (m/s) per step, the mean of three engine
  seeds. GRF sheds unwanted speed at 20-30 m/s^2 and gains it at about 6. With
  TURN_WIDE=1 the dribbler is also sent back-and-up (135 degrees) and ahead-and-up (45);
  TURN_PACE=run (no sprint pressed) or dribble (dribble pressed) sets the pace before the turn.
"""
import os
import sys
import tempfile

import numpy as np

from grf_team import fix_team_order_from_env

HEADER = """from . import *
def build_scenario(builder):
  builder.config().game_duration = {duration}
  builder.config().deterministic = False
  builder.config().offsides = False
  builder.config().end_episode_on_score = True
  builder.config().end_episode_on_out_of_play = True
  builder.config().end_episode_on_possession_change = {end_on_possession}
  builder.SetBallPosition({ball_x}, {ball_y})
  builder.SetTeam(Team.e_Left)
  builder.AddPlayer(-1.0, 0.3, e_PlayerRole_GK)
  builder.AddPlayer({carrier_x}, 0.0, e_PlayerRole_CB)
{mate}  builder.SetTeam(Team.e_Right)
  builder.AddPlayer(-1.0, 0.0, e_PlayerRole_GK)
"""
KICKS = {"short": 11, "long": 9, "high": 10}
METRES_PER_UNIT = 54.4  # GRF's engine: ball x metres per observation unit


def scenario_folder():
    return tempfile.mkdtemp(prefix="tfprobe_")


def register_grf_scenario(folder, name):
    """Registers the scenario file as GRF's module ``gfootball.scenarios.<name>``."""
    import importlib.util
    import gfootball.scenarios  # noqa: F401  (the package its "from . import *" reads)
    spec = importlib.util.spec_from_file_location(f"gfootball.scenarios.{name}", os.path.join(folder, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)


def write_scenario(folder, name, **fields):
    fields.setdefault("mate", "")
    with open(os.path.join(folder, name + ".py"), "w") as f:
        f.write(HEADER.format(**fields))


def make_env(engine, folder, name):
    if engine == "grf":
        register_grf_scenario(folder, name)
        import gfootball.env as fe
        env = fe.create_environment(env_name=name, representation="raw", render=False,
                                    number_of_left_players_agent_controls=1)
        fix_team_order_from_env(env)

        def reset(seed):
            env.unwrapped._config._values["game_engine_random_seed"] = seed
            return env.reset()[0]

        def step(action):
            obs, _, done, _ = env.step(action)
            return obs[0], done
        return reset, step
    import trackfield
    env = trackfield.make(os.path.join(folder, name + ".py"), representation="raw")

    def reset(seed):
        return env.reset(seed=seed)[0]

    def step(action):
        obs, _, terminated, truncated, _ = env.step(action)
        return obs, terminated or truncated
    return reset, step


def probe_passes(engine):
    folder = scenario_folder()
    for way, carrier_x, sign, run in (("back", 0.3, -1.0, 1), ("ahead", -0.5, 1.0, 5)):
        for metres in (15, 25, 35, 45, 60):
            name = f"tfprobe_pass_{way}_{metres}"
            mate_x = carrier_x + sign * metres / METRES_PER_UNIT
            write_scenario(folder, name, duration=100, end_on_possession="False", ball_x=carrier_x, ball_y=0.0,
                           carrier_x=carrier_x, mate=f"  builder.AddPlayer({mate_x:.4f}, 0.0, e_PlayerRole_CB)\n")
            reset, step = make_env(engine, folder, name)
            for kick, action in KICKS.items():
                cells = []
                for seed in range(4):
                    reset(seed)
                    top_speed = top_height = 0.0
                    for action_now in [run] * 4 + [action] + [run] * 40:
                        obs, done = step(action_now)
                        top_speed = max(top_speed, float(np.hypot(*obs["ball_direction"][:2])) * 10 * METRES_PER_UNIT)
                        top_height = max(top_height, float(obs["ball"][2]))
                        if done:
                            break
                    cells.append(f"{top_speed:4.1f} m/s {top_height:3.1f} m")
                print(f"{engine} pass {way:5s} {metres:2d} m {kick:5s}: " + " | ".join(cells), flush=True)


def probe_flight(engine):
    folder = scenario_folder()
    carrier_x = -0.6
    for metres in (15, 25, 35, 45, 60, 80):
        name = f"tfprobe_flight_{metres}"
        mate_x = carrier_x + metres / METRES_PER_UNIT
        write_scenario(folder, name, duration=100, end_on_possession="False", ball_x=carrier_x, ball_y=0.0,
                       carrier_x=carrier_x, mate=f"  builder.AddPlayer({mate_x:.4f}, 0.0, e_PlayerRole_CB)\n")
        reset, step = make_env(engine, folder, name)
        for kick in ("long", "high"):
            rows = []
            for seed in range(8):
                reset(seed)
                trace = []
                for t, action_now in enumerate([5] * 4 + [KICKS[kick]] + [5] * 40):
                    obs, done = step(action_now)
                    ball = np.asarray(obs["ball"])
                    trace.append((ball[0], ball[2], float(np.hypot(*obs["ball_direction"][:2])) * 10 * METRES_PER_UNIT,
                                  int(obs["ball_owned_team"])))
                    if done:
                        break
                trace = np.array(trace)
                kicked = next((i for i in range(len(trace)) if trace[i, 2] > 5.0 and trace[i, 3] < 0), None)
                if kicked is None:
                    continue
                origin = trace[kicked - 1, 0]
                aloft = next((i for i in range(kicked, len(trace)) if trace[i, 1] > 0.5), None)
                if aloft is None:
                    continue
                land = next((i for i in range(aloft, len(trace) - 1) if trace[i, 1] < 0.2), None)
                if land is None:
                    continue
                owned = next((i for i in range(land, len(trace)) if trace[i, 3] >= 0), len(trace) - 1)
                rows.append(((trace[land, 0] - origin) * METRES_PER_UNIT, trace[land - 1, 2], trace[land + 1, 2],
                             trace[kicked:land, 1].max(), (trace[owned, 0] - origin) * METRES_PER_UNIT))
            if rows:
                r = np.mean(rows, axis=0)
                print(f"{engine} flight {metres} m {kick:4s}: lands {r[0]:5.1f} m, {r[1]:4.1f} -> {r[2]:4.1f} m/s, "
                      f"peak {r[3]:3.1f} m, owned at {r[4]:5.1f} m ({len(rows)} seeds)", flush=True)


def episode_ending(obs, total_reward):
    if total_reward > 0.5:
        return "goal"
    if int(obs["game_mode"]) != 0:
        return "out"
    return "keeper" if int(obs["ball_owned_team"]) == 1 else "other"


def probe_keeper_claim(engine):
    folder = scenario_folder()
    for wide in (0.0, 0.15):
        name = f"tfprobe_keeper_claim_{int(wide * 100)}"
        write_scenario(folder, name, duration=100, end_on_possession="True", ball_x=0.62, ball_y=wide,
                       carrier_x=0.6, mate="")
        with open(os.path.join(folder, name + ".py")) as f:
            text = f.read().replace("builder.AddPlayer(0.6, 0.0, e_PlayerRole_CB)",
                                    f"builder.AddPlayer(0.6, {wide}, e_PlayerRole_CF)")
        with open(os.path.join(folder, name + ".py"), "w") as f:
            f.write(text)
        reset, step = make_env(engine, folder, name)
        endings, lengths = {}, []
        for seed in range(20):
            reset(seed)
            for t in range(100):
                obs, done = step(5)
                if done:
                    break
            ending = episode_ending(obs, float(obs["score"][0]) - float(obs["score"][1]))
            endings[ending] = endings.get(ending, 0) + 1
            lengths.append(t + 1)
        print(f"{engine} keeper_claim wide {wide}: {endings}, mean length {np.mean(lengths):.1f} steps", flush=True)


def write_striker_scenario(folder, name, carrier_x, keeper_difficulty=None):
    """A centre-forward with the ball at his feet, centrally, and the right keeper alone."""
    write_scenario(folder, name, duration=100, end_on_possession="True", ball_x=carrier_x + 0.02, ball_y=0.0,
                   carrier_x=carrier_x)
    path = os.path.join(folder, name + ".py")
    with open(path) as f:
        text = f.read().replace("e_PlayerRole_CB", "e_PlayerRole_CF")
    if keeper_difficulty is not None:
        text = text.replace("  builder.SetBallPosition",
                            f"  builder.config().right_team_difficulty = {keeper_difficulty}\n  builder.SetBallPosition")
    with open(path, "w") as f:
        f.write(text)


def probe_shots(engine):
    folder = scenario_folder()
    name = "tfprobe_shot_14m"
    write_striker_scenario(folder, name, 0.72)
    reset, step = make_env(engine, folder, name)
    for label, direction in (("at goal", 5), ("across (top)", 3), ("across (bottom)", 7), ("diagonal top-right", 4),
                             ("away", 1), ("away diagonal", 8), ("standing", 0)):
        endings = count_endings(reset, step, [direction] * 4 + [12] + [direction] * 40, 16)
        print(f"{engine} shot running {label}: {endings}", flush=True)


def count_endings(reset, step, actions, seeds):
    """How the episodes ended (episode_ending) when each of the seeds plays `actions`."""
    endings = {}
    for seed in range(seeds):
        reset(seed)
        for action in actions:
            obs, done = step(action)
            if done:
                break
        ending = episode_ending(obs, float(obs["score"][0]) - float(obs["score"][1]))
        endings[ending] = endings.get(ending, 0) + 1
    return endings


def probe_keeper_difficulty(engine):
    folder = scenario_folder()
    seeds = int(os.environ.get("PROBE_SEEDS", "30"))
    for difficulty in (0.05, 0.6, 1.0):
        for metres in (16, 20, 24):
            name = f"tfprobe_keeper_{int(difficulty * 100)}_{metres}m"
            write_striker_scenario(folder, name, 1.0 - metres / METRES_PER_UNIT, keeper_difficulty=difficulty)
            reset, step = make_env(engine, folder, name)
            endings = count_endings(reset, step, [5] * 3 + [12] + [5] * 40, seeds)
            print(f"{engine} keeper at difficulty {difficulty}, shot from {metres} m: {dict(sorted(endings.items()))}", flush=True)


SCRIPTED_DIRECTIONS = {(-1, 0): 1, (-1, -1): 2, (0, -1): 3, (1, -1): 4, (1, 0): 5, (1, 1): 6, (0, 1): 7, (-1, 1): 8}


def scripted_action(obs):
    active = int(np.argmax(obs[97:108]))
    me, ball = obs[2 * active: 2 * active + 2], obs[88:90]
    if obs[95] == 1.0:  # our team has the ball
        if me[0] > 0.72 and abs(me[1]) < 0.2:
            return 12
        target = np.array([1.0, 0.0])
    else:
        target = ball
    step = tuple(int(np.sign(v)) if abs(v) > 0.01 else 0 for v in target - me)
    return SCRIPTED_DIRECTIONS.get(step, 5)


def probe_scripted(engine):
    for scenario in ("academy_empty_goal_close", "academy_empty_goal", "academy_run_to_score_with_keeper",
                     "academy_3_vs_1_with_keeper", "academy_counterattack_easy"):
        if engine == "grf":
            import gfootball.env as fe
            env = fe.create_environment(env_name=scenario, representation="simple115v2", render=False)
        else:
            import trackfield
            env = trackfield.make(scenario, representation="simple115v2")
        scored = 0
        for seed in range(20):
            if engine == "grf":
                env.unwrapped._config._values["game_engine_random_seed"] = seed
                obs, total = env.reset(), 0.0
            else:
                obs, total = env.reset(seed=seed)[0], 0.0
            while True:
                if engine == "grf":
                    obs, reward, done, _ = env.step(scripted_action(obs))
                else:
                    obs, reward, terminated, truncated, _ = env.step(scripted_action(obs))
                    done = terminated or truncated
                total += float(reward)
                if done:
                    break
            scored += total > 0
        print(f"{engine} scripted {scenario}: {scored}/20 scored", flush=True)


def probe_loose_ball(engine):
    folder = scenario_folder()
    name = "tfprobe_loose_ball"
    write_scenario(folder, name, duration=400, end_on_possession="True", ball_x=0.4, ball_y=0.1, carrier_x=0.0)
    reset, step = make_env(engine, folder, name)
    obs = reset(0)
    for t in range(60):
        if t % 10 == 0:
            print(engine, t, "ball", np.round(obs["ball"][:2], 2).tolist(), "owner", int(obs["ball_owned_team"]),
                  "left", np.round(obs["left_team"], 2).tolist(), "right", np.round(obs["right_team"], 2).tolist())
        obs, done = step(3)
        if done:
            break


def probe_kick_buffer(engine):
    folder = scenario_folder()
    for metres in (3, 6, 10, 15, 20, 28):
        name = f"tfprobe_buffer_{metres}"
        write_scenario(folder, name, duration=400, end_on_possession="True", ball_x=metres / METRES_PER_UNIT,
                       ball_y=0.0, carrier_x=0.0)
        reset, step = make_env(engine, folder, name)
        cells = []
        for seed in range(2):
            reset(seed)
            owners, struck = "", None
            for t in range(45):
                obs, done = step(11 if t == 1 else 5)
                speed = float(np.hypot(*obs["ball_direction"][:2])) * 10 * METRES_PER_UNIT
                if struck is None and speed > 12.0:
                    struck = t
                owners += {-1: ".", 0: "L", 1: "R"}[int(obs["ball_owned_team"])]
                if done:
                    break
            cells.append(f"struck {struck} {owners}")
        print(f"{engine} kick_buffer {metres:2d} m: " + " | ".join(cells), flush=True)


FIRST_TOUCH_NAMES = "id L TL T TR R BR B BL lp hp sp sh spr rd rs sl dr rdr".split()


def probe_first_touch(engine):
    for scenario in ("academy_counterattack_hard", "academy_3_vs_1_with_keeper",
                     "academy_run_to_score_with_keeper", "academy_pass_and_shoot_with_keeper"):
        if engine == "grf":
            import gfootball.env as fe
            env = fe.create_environment(env_name=scenario, representation="raw", render=False)
        else:
            import trackfield
            env = trackfield.make(scenario, representation="raw")
        for k in range(40):
            actions = np.random.default_rng(1000 + k).integers(19, size=30)
            if engine == "grf":
                env.unwrapped._config._values["game_engine_random_seed"] = k
                env.reset()
            else:
                env.reset(seed=k)
            first = "none"
            for t, action in enumerate(actions):
                if engine == "grf":
                    obs, _, done, _ = env.step(int(action))
                    obs = obs[0]
                else:
                    obs, _, terminated, truncated, _ = env.step(int(action))
                    done = terminated or truncated
                speed = float(np.hypot(*obs["ball_direction"][:2])) * 10 * METRES_PER_UNIT
                owner = int(obs["ball_owned_team"])
                if owner >= 0 or speed > 8.0:
                    first = f"{'own' if owner == 0 else 'right' if owner == 1 else 'kick'}@{t}"
                    break
                if done:
                    break
            print(f"{engine} first_touch {scenario} {k:2d} {first:8s} "
                  + " ".join(FIRST_TOUCH_NAMES[a] for a in actions[:10]), flush=True)


def probe_duel(engine):
    folder = scenario_folder()
    name = "tfprobe_duel"
    write_scenario(folder, name, duration=200, end_on_possession="True", ball_x=0.02, ball_y=0.0, carrier_x=0.0)
    with open(os.path.join(folder, name + ".py"), "a") as f:
        f.write("  builder.AddPlayer(-0.4, 0.0, e_PlayerRole_CB)\n")
    reset, step = make_env(engine, folder, name)
    for variant, lead in (("run", []), ("sprint", [13]), ("dribble", [17])):
        endings, lengths, where = {}, [], []
        for seed in range(20):
            reset(seed)
            for t, action in enumerate([0] + lead + [5] * 200):
                obs, done = step(action)
                if done:
                    break
            ending = episode_ending(obs, float(obs["score"][0]) - float(obs["score"][1]))
            endings[ending] = endings.get(ending, 0) + 1
            lengths.append(t + 1)
            where.append(float(obs["ball"][0]))
        # Where it ends tells who won it: the back near x 0.6, the keeper near 0.95.
        near_back = sum(1 for x in where if abs(x) < 0.8)
        print(f"{engine} duel {variant}: {endings}, mean length {np.mean(lengths):.1f} steps, "
              f"ended at x {np.median(where):.2f} (median), {near_back} of {len(where)} short of x 0.8", flush=True)


def probe_turn(engine):
    # How fast a sprinting player stops and turns, without the ball and with it: he sprints
    # right for 2 s, then is sent back left, or up (a right-angle turn). Prints the active
    # player's velocity per step (the mean of three seeds), from the step the turn is pressed.
    # TURN_DIFFICULTY sets the left team's difficulty (GRF scales every player's stats by
    # 0.3 + 0.7 x difficulty, whoever controls him).
    difficulty = float(os.environ.get("TURN_DIFFICULTY", "1.0"))
    folder = scenario_folder()
    name = "tfprobe_turn"
    for suffix, ball_x, ball_y in (("", 0.5, -0.38), ("_ball", -0.28, 0.0)):
        write_scenario(folder, name + suffix, duration=200, end_on_possession="False", ball_x=ball_x, ball_y=ball_y,
                       carrier_x=-0.3)
        with open(os.path.join(folder, name + suffix + ".py"), "a") as f:
            f.write(f"  builder.config().left_team_difficulty = {difficulty}\n")
    cases = (("back", 1, ""), ("up", 3, ""), ("back", 1, "_ball"), ("up", 3, "_ball"))
    if os.environ.get("TURN_WIDE"):  # also the turns between: back-and-up (135 degrees) and ahead-and-up (45)
        cases += (("back-up", 2, "_ball"), ("ahead-up", 4, "_ball"))
    pace = {"sprint": 13, "run": 5, "dribble": 17}[os.environ.get("TURN_PACE", "sprint")]
    for turn, action, ball in cases:
        reset, step = make_env(engine, folder, name + ball)
        runs = []
        for seed in range(3):
            reset(seed)
            vel = []
            for action_now in [5, pace] + [5] * 20 + [action] * 20:
                obs, done = step(action_now)
                vel.append(np.asarray(obs["left_team_direction"][int(obs["active"])][:2]) * 10 * METRES_PER_UNIT)
            runs.append(np.array(vel))
        mean = np.mean(runs, axis=0)
        print(f"{engine} turn {turn}{' with the ball' if ball else ''}: velocity (m/s, x y) from the step the turn is pressed: " +
              " ".join(f"{v[0]:+.1f},{v[1]:+.1f}" for v in mean[22:36]), flush=True)


if __name__ == "__main__":
    engine, probe = sys.argv[1], sys.argv[2]
    {"passes": probe_passes, "flight": probe_flight, "loose_ball": probe_loose_ball, "keeper_claim": probe_keeper_claim,
     "shots": probe_shots, "keeper_difficulty": probe_keeper_difficulty, "scripted": probe_scripted, "kick_buffer": probe_kick_buffer,
     "first_touch": probe_first_touch, "duel": probe_duel, "turn": probe_turn}[probe](engine)
