"""Shared helpers for the trackfield test suite.

Scenario files are written in GRF's format (``from . import *`` plus
``build_scenario(builder)``) so tests can construct exact situations and load them
with ``trackfield.make(path, ...)``.
"""
from __future__ import annotations

import importlib.util
import textwrap
from pathlib import Path

import numpy as np
import pytest

import trackfield

SCENARIO_HEADER = "from . import *\n\n\ndef build_scenario(builder):\n"

# Scenario config of GRF's academy files: every end-of-episode flag on, no offside.
ACADEMY_FLAGS = dict(
    offsides=False,
    end_episode_on_score=True,
    end_episode_on_out_of_play=True,
    end_episode_on_possession_change=True,
)
# No end-of-episode flag: only the time limit ends an episode.
NO_END_FLAGS = dict(
    offsides=False,
    end_episode_on_score=False,
    end_episode_on_out_of_play=False,
    end_episode_on_possession_change=False,
)

ALL_SCENARIOS = trackfield.list_scenarios("football")

# Skips a module whose tests train (found without importing torch, so collection stays quick).
NEEDS_TRAINING = pytest.mark.skipif(
    any(importlib.util.find_spec(name) is None for name in ("stable_baselines3", "torch")),
    reason="needs stable-baselines3 and torch (pip install '.[train]')",
)

# Test modules whose every test carries one marker and whose imports are heavy (Ray starts
# torch): when the -m expression deselects that marker they are not even imported, so the
# fast command does not spend its collection time importing them.
WHOLE_MODULE_MARKERS = {"test_rllib.py": "rllib"}


def pytest_ignore_collect(collection_path, config):
    marker = WHOLE_MODULE_MARKERS.get(collection_path.name)
    expression = config.getoption("markexpr", "")
    if marker is None or not expression:
        return None
    from _pytest.mark.expression import Expression

    try:
        selected = Expression.compile(expression).evaluate(lambda name, **kwargs: name == marker)
    except Exception:  # an expression pytest will report itself
        return None
    return None if selected else True


def write_scenario(tmp_path, body: str, name: str = "scenario") -> str:
    """Writes a GRF-style scenario file whose build_scenario runs ``body``; returns its path.

    ``body`` is the function body (any indentation; it is dedented and re-indented).
    """
    path = tmp_path / f"{name}.py"
    text = textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")
    path.write_text(SCENARIO_HEADER + text + "\n")
    return str(path)


# Observation units per scenario-file unit at reset, as GRF's: its engine places a file's
# ball at x 54.4 / y 83.6 m and its players at x 55 / y 2.36 x 36 m, and observes metres
# / 54.4 and / 83.6, so the ball reads the file's coordinates and a player 1.011 / 1.0163
# times them.
PLAYER_START = (55.0 / 54.4, 2.36 * 36.0 / 83.6)
# GRF's metres per observation unit along x and y (its observation divides them by 54.4 and
# 83.6, on its 110 x 72 m pitch), which ours reports too.
GRF_METRES = np.array([54.4, 83.6])


def scenario_body(ball, left, right, **config) -> str:
    """The body of build_scenario for a line-up.

    ``ball`` is (x, y); ``left`` / ``right`` are lists of ``(x, y, role)`` or
    ``(x, y, role, lazy)`` in each team's own frame, role a name such as "GK" or "CF";
    all positions are where the reset observation shows them (the file's coordinates are
    the ball's as they are, the players' divided by PLAYER_START, within the file's bounds); ``config`` sets ``builder.config()`` fields.
    """
    lines = [f"builder.config().{key} = {value!r}" for key, value in config.items()]
    bx, by = ball
    lines.append(f"builder.SetBallPosition({bx!r}, {by!r})")
    for team, players in (("e_Left", left), ("e_Right", right)):
        lines.append(f"builder.SetTeam(Team.{team})")
        for x, y, role, *rest in players:
            extra = "".join(f", {value!r}" for value in rest)
            # a player on the touchline is as near it as the file allows (GRF's engine never
            # puts one past y = 0.42 x 2.36 x 36 m, 0.3 m inside)
            x, y = x / PLAYER_START[0], max(-0.42, min(0.42, y / PLAYER_START[1]))
            lines.append(f"builder.AddPlayer({x!r}, {y!r}, e_PlayerRole_{role}{extra})")
    return "\n".join(lines)


def make_scenario(tmp_path, ball, left, right, name="scenario", **config) -> str:
    """write_scenario(scenario_body(...)): a constructed situation as a scenario file."""
    return write_scenario(tmp_path, scenario_body(ball, left, right, **config), name)


@pytest.fixture
def scenario_file(tmp_path):
    """``scenario_file(ball, left, right, name=..., **config)`` -> path of a new scenario file."""

    def make(ball, left, right, name="scenario", **config):
        return make_scenario(tmp_path, ball, left, right, name=name, **config)

    return make


def random_actions(seed: int, n: int, shape=()):
    """n arrays (or ints) of valid actions, reproducible from seed."""
    rng = np.random.default_rng(seed)
    if shape == ():
        return [int(a) for a in rng.integers(0, 19, size=n)]
    return [rng.integers(0, 19, size=shape) for _ in range(n)]


def assert_obs_equal(a, b, where=""):
    """Bitwise equality of two observations (arrays or raw dicts)."""
    if isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for key in a:
            assert np.array_equal(a[key], b[key]), f"{where}: key {key!r} differs"
    else:
        assert np.array_equal(a, b), where


def run_episode(env, actions, seed=None):
    """Resets env (with seed) and steps it with actions until the episode ends or actions run out.

    Returns lists (observations incl. the reset one, rewards, infos) and whether it ended.
    """
    obs, info = env.reset(seed=seed)
    observations, rewards, infos = [obs], [], [info]
    for action in actions:
        obs, reward, terminated, truncated, info = env.step(action)
        observations.append(obs)
        rewards.append(reward)
        infos.append(info)
        if terminated or truncated:
            return observations, rewards, infos, True
    return observations, rewards, infos, False


EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load_example(name: str):
    """examples/<name>.py as a module (the code a user runs, imported as a test would)."""
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------- football rules tests (tests/football/test_rules_*.py)
# Directions: action -> index in raw obs sticky_actions (GRF: 8 directions, sprint, dribble).
DIRECTIONS = {1: 0, 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 7}
SPRINT_FLAG, DRIBBLE_FLAG = 8, 9
GAME_MODE = dict(normal=0, kickoff=1, goal_kick=2, free_kick=3, corner=4, throw_in=5, penalty=6)

# The opponents' only player: a lazy keeper stranded in the far (left) goal.
FAR_LAZY_KEEPER = [(1.0, 0.0, "GK", True)]
KICK_WINDUP = 4  # fewest steps from pressing a kick to the ball leaving the foot (GRF, measured: 3-4)
MAX_KICK_WINDUP = 7  # ... up to three more the further the player must turn (GRF: 5-6 at 100-110 degrees)


def press_kick(env, action, extra=0):
    """Presses a kick and steps until the ball leaves the carrier's foot; returns that obs."""
    obs, *_ = env.step(action)
    for _ in range(KICK_WINDUP - 1 + extra):
        assert obs["ball_owned_player"] >= 0, "the ball left before the kick's wind-up"
        obs, *_ = env.step(0)
    for _ in range(MAX_KICK_WINDUP - KICK_WINDUP - extra):
        if obs["ball_owned_player"] == -1:
            break
        obs, *_ = env.step(0)
    assert obs["ball_owned_player"] == -1, "the ball did not leave the foot after the wind-up"
    return obs


def take_opening_ball(env, team=0, player=None, max_steps=4):
    """Stands still from reset until GRF would report the opening ball's first owner (the
    later the farther he starts from it); returns that obs."""
    for _ in range(max_steps):
        obs, *_ = env.step(0)
        if obs["ball_owned_team"] == team and (player is None or obs["ball_owned_player"] == player):
            return obs
    raise AssertionError(f"team {team} was not reported on the opening ball within {max_steps} steps")


def step_until_done(env, actions):
    """Steps through actions until the episode ends; returns [(obs, reward, term, trunc, info)]."""
    out = []
    for a in actions:
        result = env.step(a)
        out.append(result)
        if result[2] or result[3]:
            break
    return out
