"""The built-in AI's strength ladder in 11 vs 11, measured, beside real GRF's.

Three measurements, each a batch of full games (3,000 steps) in one ``trackfield.vector``
call, with the score of every game read when it ends:

* **ladder**: the named levels against each other, hard (0.95) against medium (0.6) and
  medium against easy (0.05), each pairing played half the games with the stronger AI on
  the left and half on the right, so the kick-off and the ends do not favour either. The
  test asks that each level beats the one below by at least two standard errors of the
  goal difference over 20 or more games.
  Real GRF's figures for the same pairings (``tools/grf_games.py`` with
  ``GRF_LEFT_DIFFICULTY`` and ``GRF_RIGHT_DIFFICULTY``, the stronger AI on each side in
  half the games) are stored and printed beside.
* **against GRF's files**: the AI at 1.0 (the left team's default) against easy, medium
  and hard, as GRF's 11_vs_11_easy_stochastic / _stochastic / _hard_stochastic files set
  it up with no controlled player (``behaviour_stats.py --left 0``). Real GRF's figures
  from the same protocol are stored in ``grf_behaviour.json`` and printed beside.
* **random player**: one controlled left player acting uniformly at random over the 19
  default actions against each level; GRF's figures (``behaviour_stats.py --left 1``)
  beside. The test asks that it loses to the easy AI on average, conceding about as many
  goals as against GRF's AI of the same level.

GRF's figures pool the same number of games under each of GRF's two team processing
orders: 30 a match, 45 for AI 1.0 against medium, 60 for each ladder pairing. GRF draws the
order (``reverse_team_processing``) once per environment at random, and the team it
processes first gains: GRF's AI 1.0 beats easy 2.97-0.27 processed first and 1.87-0.47
processed second. ``grf_figures(team_order=...)`` gives either order alone.

``python -m trackfield.bench football`` prints all three tables.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .fidelity import TEAM_ORDERS, stored_grf_entries  # TEAM_ORDERS: the team_order values grf_figures takes

LEVELS = {"easy": 0.05, "medium": 0.6, "hard": 0.95}
GRF_FILES = {"easy": "11_vs_11_easy_stochastic", "medium": "11_vs_11_stochastic", "hard": "11_vs_11_hard_stochastic"}
FULL_STRENGTH = 1.0  # GRF's default left_team_difficulty, which its 11 vs 11 files keep


@dataclass
class Result:
    """Mean goals per game of two sides over ``games`` games, and the standard error of the
    goal difference (first minus second)."""

    first: str
    second: str
    games: int
    goals_first: float
    goals_second: float
    diff_se: float

    @property
    def diff(self) -> float:
        return self.goals_first - self.goals_second

    def beats_by_standard_errors(self) -> float:
        """How many standard errors the first side's mean goal difference is above zero."""
        return self.diff / self.diff_se if self.diff_se > 0 else (np.inf if self.diff > 0 else 0.0)


def play_games(left_difficulty: float | None, right_difficulty: float, games: int, seed: int = 0,
               scenario: str = "11_vs_11_stochastic", num_threads: int | None = None) -> np.ndarray:
    """Plays ``games`` full games and returns their final scores, shape (games, 2) (left,
    right). ``left_difficulty=None`` puts one controlled left player acting uniformly at
    random instead of the left AI.

    GRF's full-game files swap the two line-ups on the episode number's parity (the team
    kicking off has both forwards central, the other a winger on each side), and GRF's
    protocol plays its games one after another in one environment, so they alternate. Here
    each world of one batch plays two games in a row, so that half the games are of each
    parity too. The line-up kicking off fares worse: two AIs at 1.0 give it a goal difference
    of -0.24 a game on the left and -0.09 on the right (docs/football_fidelity.md). The
    first ``(games + 1) // 2`` rows are the even games.
    """
    import trackfield

    random_left = left_difficulty is None
    config = dict(number_of_right_players_agent_controls=0, right_team_difficulty=float(right_difficulty))
    if random_left:
        config.update(number_of_left_players_agent_controls=1, representation="simple115v2")
    else:
        config.update(number_of_left_players_agent_controls=0, left_team_difficulty=float(left_difficulty))
    worlds = (games + 1) // 2
    env = trackfield.vector.make(scenario, num_envs=worlds, num_threads=num_threads, **config)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    scores = np.zeros((2, worlds, 2), dtype=np.int64)  # [parity, world, side]
    ended = np.zeros(worlds, dtype=np.int64)  # games each world has finished
    idle = np.zeros((worlds, 0), dtype=np.int64)
    while (ended < 2).any():
        actions = rng.integers(19, size=worlds) if random_left else idle
        _, _, terminated, truncated, info = env.step(actions)
        for i in np.flatnonzero((terminated | truncated) & (ended < 2)):  # at most 2 x worlds times in all
            scores[ended[i], i] = info["final_info"]["score"][i]
            ended[i] += 1
    env.close()
    return np.concatenate([scores[0], scores[1, :games - worlds]])


def _result(first: str, second: str, goals_first: np.ndarray, goals_second: np.ndarray) -> Result:
    diff = goals_first - goals_second
    se = float(diff.std(ddof=1) / np.sqrt(len(diff))) if len(diff) > 1 else 0.0
    return Result(first, second, len(diff), float(goals_first.mean()), float(goals_second.mean()), se)


def ladder(games: int = 40, seed: int = 0) -> list[Result]:
    """Hard against medium and medium against easy, half the games each way round."""
    out = []
    for stronger, weaker in (("hard", "medium"), ("medium", "easy")):
        half = games // 2
        on_left = play_games(LEVELS[stronger], LEVELS[weaker], half, seed)
        on_right = play_games(LEVELS[weaker], LEVELS[stronger], games - half, seed + half)
        out.append(_result(stronger, weaker, np.concatenate([on_left[:, 0], on_right[:, 1]]),
                           np.concatenate([on_left[:, 1], on_right[:, 0]])))
    return out


def against_grf_files(games: int = 20, seed: int = 0) -> list[Result]:
    """The AI at full strength (left) against each named level (right), as GRF's files."""
    out = []
    for level, difficulty in LEVELS.items():
        s = play_games(FULL_STRENGTH, difficulty, games, seed)
        out.append(_result(f"AI {FULL_STRENGTH:g}", level, s[:, 0], s[:, 1]))
    return out


def random_player(games: int = 20, seed: int = 0) -> list[Result]:
    """A uniformly random left player against each named level."""
    out = []
    for level, difficulty in LEVELS.items():
        s = play_games(None, difficulty, games, seed)
        out.append(_result("random", level, s[:, 0], s[:, 1]))
    return out


def grf_figures(team_order: str | None = None) -> dict:
    """Real GRF's stored full-game figures: ``{"ai_vs_ai"|"random"|"ladder": {level: Result}}``.

    ``ai_vs_ai`` and ``random`` are keyed by the right team's level, ``ladder`` by the weaker
    level of each pairing (``"medium"``: hard v medium, ``"easy"``: medium v easy), as
    ``format_table`` looks them up. ``team_order=None`` pools both of GRF's team processing
    orders; ``"left_team_first"`` or ``"right_team_first"`` (``TEAM_ORDERS``) gives one alone.
    """
    out = {}
    for kind, first in (("ai_vs_ai", f"AI {FULL_STRENGTH:g}"), ("random", "random")):
        entries = stored_grf_entries("full_game", kind, team_order)
        out[kind] = {level: Result(first, level, v["games"], v["goals_left"], v["goals_right"], v["diff_se"])
                     for level, v in entries.items()}
    entries = stored_grf_entries("full_game", "ladder", team_order)
    out["ladder"] = {v["weaker"]: Result(v["stronger"], v["weaker"], v["games"], v["goals_stronger"],
                                         v["goals_weaker"], v["diff_se"]) for v in entries.values()}
    return out


def format_table(results, grf: dict | None = None) -> str:
    """Markdown table: goals per game, goal difference +- its standard error, GRF's beside."""
    lines = ["| match | games | goals per game | difference +- SE | GRF: games, goals per game, difference +- SE |",
             "|---|---|---|---|---|"]
    for r in results:
        g = (grf or {}).get(r.second)
        theirs = (f"{g.games}, {g.goals_first:.2f} - {g.goals_second:.2f}, {g.diff:+.2f} +- {g.diff_se:.2f}"
                  if g else "-")
        lines.append(f"| {r.first} v {r.second} | {r.games} | {r.goals_first:.2f} - {r.goals_second:.2f} | "
                     f"{r.diff:+.2f} +- {r.diff_se:.2f} | {theirs} |")
    return "\n".join(lines)
