"""Loading football scenarios written as GRF scenario files.

A scenario is a Python file defining ``build_scenario(builder)``. The builder offers
GRF's vocabulary (``config()``, ``SetTeam``, ``AddPlayer``, ``SetBallPosition``,
``EpisodeNumber``) and records into the engine's ``ScenarioConfig``. Files run as
modules inside ``trackfield.scenarios.football`` so that ``from . import *`` brings
in ``Team`` and the ``e_PlayerRole_*`` constants, exactly as in GRF.
"""
from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import traceback
import warnings
from dataclasses import dataclass
from pathlib import Path

from trackfield import _engine

_fb = _engine.football
SCENARIO_PACKAGE = "trackfield.scenarios.football"
_PITCH_X = 1.0
_PITCH_Y = 0.42
_EPS = 1e-6

# builder.config() fields and their types; GRF's engine defaults live in the C++ struct.
CONFIG_FIELDS = {
    "game_duration": int,
    "deterministic": bool,
    "offsides": bool,
    "end_episode_on_score": bool,
    "end_episode_on_out_of_play": bool,
    "end_episode_on_possession_change": bool,
    "left_team_difficulty": float,
    "right_team_difficulty": float,
    "second_half": int,
    "control_all_players": bool,
    # trackfield's (GRF has no handball): see FootballEnv's docstring.
    "handballs": bool,
    "handball_probability": float,
}


class ScenarioError(ValueError):
    """A scenario file could not be loaded; the message names the file (and line)."""


class _ScenarioConfigView:
    """What ``builder.config()`` returns: GRF's config fields, checked on assignment."""

    def __init__(self, config, where):
        object.__setattr__(self, "_config", config)
        object.__setattr__(self, "_where", where)

    def __getattr__(self, name):
        if name in CONFIG_FIELDS:
            return getattr(self._config, name)
        raise AttributeError(f"{self._where()}: unknown config field {name!r}; valid fields: {sorted(CONFIG_FIELDS)}")

    def __setattr__(self, name, value):
        kind = CONFIG_FIELDS.get(name)
        if kind is None:
            raise ScenarioError(f"{self._where()}: unknown config field {name!r}; valid fields: {sorted(CONFIG_FIELDS)}")
        if kind is bool and not isinstance(value, (bool, int)):
            raise ScenarioError(f"{self._where()}: config field {name!r} must be a bool, got {value!r}")
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise ScenarioError(f"{self._where()}: config field {name!r} must be an int, got {value!r}")
        if kind is float and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise ScenarioError(f"{self._where()}: config field {name!r} must be a number, got {value!r}")
        value = kind(value)
        if (name.endswith("difficulty") or name == "handball_probability") and not 0.0 <= value <= 1.0:
            raise ScenarioError(f"{self._where()}: {name} must be in [0, 1], got {value}")
        if name == "game_duration" and not 1 <= value <= 1_000_000:
            raise ScenarioError(f"{self._where()}: game_duration must be in [1, 1000000], got {value}")
        setattr(self._config, name, value)


class ScenarioBuilder:
    """GRF's scenario builder vocabulary, recording into an engine ScenarioConfig."""

    def __init__(self, path: str, episode_number: int):
        self._config = _fb.ScenarioConfig()
        self._team = 0
        self._episode = episode_number
        self._path = path
        self._ball_set = False

    def _where(self):
        # The line of the scenario file that made the current call.
        for frame in reversed(traceback.extract_stack()):
            if frame.filename == self._path:
                return f"{self._path}:{frame.lineno}"
        return self._path

    def config(self):
        return _ScenarioConfigView(self._config, self._where)

    def SetTeam(self, team):
        if team not in (0, 1):
            raise ScenarioError(f"{self._where()}: SetTeam expects Team.e_Left or Team.e_Right, got {team!r}")
        self._team = int(team)

    def AddPlayer(self, x, y, role, lazy=False, controllable=True):
        where = self._where()
        if isinstance(role, bool) or not isinstance(role, int) or not 0 <= role <= 9:
            raise ScenarioError(f"{where}: unknown role {role!r}; use the e_PlayerRole_* constants (GK .. CF)")
        try:
            x, y = float(x), float(y)
        except (TypeError, ValueError):
            raise ScenarioError(f"{where}: player position must be numbers, got ({x!r}, {y!r})") from None
        if not (abs(x) <= _PITCH_X + _EPS and abs(y) <= _PITCH_Y + _EPS):
            raise ScenarioError(
                f"{where}: player at ({x}, {y}) is off the pitch (x in [-1, 1], y in [-0.42, 0.42])")
        if self._config.num_players(self._team) >= 11:
            side = "left" if self._team == 0 else "right"
            raise ScenarioError(f"{where}: more than 11 players in the {side} team")
        self._config.add_player(self._team, x, y, int(role), bool(lazy), bool(controllable))

    def SetBallPosition(self, x, y):
        where = self._where()
        x, y = float(x), float(y)
        if not (abs(x) <= _PITCH_X + _EPS and abs(y) <= _PITCH_Y + _EPS):
            raise ScenarioError(f"{where}: ball at ({x}, {y}) is off the pitch")
        self._config.ball_x = x
        self._config.ball_y = y

    def EpisodeNumber(self):
        return self._episode

    def finish(self):
        # GRF: a team without players gets a lone lazy keeper in its corner.
        for team in (0, 1):
            if self._config.num_players(team) == 0:
                self._config.add_player(team, -1.0, 0.42, 0, True, True)
        return self._config


def _package_dir() -> Path:
    spec = importlib.util.find_spec(SCENARIO_PACKAGE)
    return Path(list(spec.submodule_search_locations)[0])


def list_football_scenarios() -> list[str]:
    return sorted(p.stem for p in _package_dir().glob("*.py") if not p.stem.startswith("_"))


def resolve_scenario_path(name: str) -> str:
    """A shipped scenario name (GRF's names) or a path to a user's ``.py`` file."""
    if not isinstance(name, (str, os.PathLike)):
        raise TypeError(f"scenario must be a scenario name or a path to a .py file, got {type(name).__name__}")
    name = os.fspath(name)
    if name.endswith(".py") or os.sep in name or "/" in name:
        path = os.path.abspath(os.path.expanduser(name))
        if not os.path.isfile(path):
            raise FileNotFoundError(f"scenario file not found: {path}")
        return path
    shipped = _package_dir() / f"{name}.py"
    if not shipped.is_file():
        raise ValueError(f"unknown scenario {name!r}; known: {', '.join(list_football_scenarios())} "
                         "(or pass a path to a scenario .py file)")
    return str(shipped)


def _load_module(path: str):
    try:
        source = Path(path).read_text()
        code = compile(source, path, "exec")
    except SyntaxError as e:
        raise ScenarioError(f"{path}:{e.lineno}: syntax error in scenario file: {e.msg}") from None
    digest = hashlib.sha1(path.encode()).hexdigest()[:12]
    module_name = f"{SCENARIO_PACKAGE}._scenario_{Path(path).stem}_{digest}"
    spec = importlib.util.spec_from_loader(module_name, loader=None, origin=path)
    module = importlib.util.module_from_spec(spec)
    module.__file__ = path
    module.__package__ = SCENARIO_PACKAGE
    sys.modules[module_name] = module
    try:
        exec(code, module.__dict__)
    except ScenarioError:
        raise
    except Exception as e:
        raise ScenarioError(f"{_error_location(path, e)}: error while loading scenario: {e!r}") from e
    if not callable(getattr(module, "build_scenario", None)):
        raise ScenarioError(f"{path}: scenario file defines no build_scenario(builder) function")
    return module


def _error_location(path, exc):
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename == path:
            line = frame.lineno
    return f"{path}:{line}" if line else path


def _config_key(config) -> tuple:
    fields = tuple(getattr(config, f) for f in CONFIG_FIELDS)
    return fields + (config.ball_x, config.ball_y, tuple(config.players(0)), tuple(config.players(1)))


@dataclass
class Scenario:
    """A loaded scenario: the engine configs for even and odd episode numbers."""

    name: str
    path: str
    by_parity: tuple  # (ScenarioConfig for even episodes, ScenarioConfig for odd episodes)

    @property
    def config(self):
        return self.by_parity[0]


def load_scenario(name: str) -> Scenario:
    """Loads a scenario by GRF name or path and builds it for episode numbers 0..3.

    GRF scenario files may depend on ``builder.EpisodeNumber()``; the shipped 11 vs 11
    files swap sides on its parity. The engine holds one config per parity, so the
    probe checks episodes 2 and 3 match 0 and 1 and warns if a file varies further.
    """
    path = resolve_scenario_path(name)
    module = _load_module(path)
    built = []
    for episode in range(4):
        builder = ScenarioBuilder(path, episode)
        try:
            module.build_scenario(builder)
        except ScenarioError:
            raise
        except Exception as e:
            raise ScenarioError(f"{_error_location(path, e)}: error in build_scenario: {e!r}") from e
        built.append(builder.finish())
    if _config_key(built[0]) != _config_key(built[2]) or _config_key(built[1]) != _config_key(built[3]):
        warnings.warn(f"{path}: build_scenario varies beyond episode parity; trackfield replays the "
                      "configurations built for episodes 0 and 1 alternately", stacklevel=3)
    stem = Path(path).stem
    return Scenario(name=stem, path=path, by_parity=(built[0], built[1]))
