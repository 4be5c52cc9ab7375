"""How closely trackfield's football plays like real GRF: the same measurement on both.

The protocol (GRF's side: a behaviour-statistics script run on GRF 2.10.2): one controlled left player acting
uniformly at random over GRF's 19 actions, scoring reward, N episodes seeded 0..N-1. An
episode ends in one of five ways:

======================  ====================================================================
ending                  how it is told apart (in this order)
======================  ====================================================================
``time``                the game clock ran out (truncated)
``goal_for``            the episode's scoring return is +1
``goal_against``        the episode's scoring return is -1
``out_of_play``         the last step left play stopped (goal kick, corner, throw-in, ...)
``possession``          otherwise: the other team took the ball
======================  ====================================================================

Real GRF's figures (measured on GRF 2.10.2 with that script) ship in
``grf_behaviour.json``; :func:`compare` measures trackfield live and sets the two side by
side. GRF plays one team's frame before the other's, and which comes first
(``reverse_team_processing``) it draws once per environment at random; the order moves some
shares by 10 points or more (run_pass_and_shoot_with_keeper's goals against: 2% with the
left team first, 13% with the right). So the stored figures pool 100 episodes under each
order (``tools/grf_team_order.py``), and ``grf_figures(team_order=...)`` gives either alone.
``python -m trackfield.bench football`` prints the table; the tolerance is a mean
length within 0.67x-1.5x of GRF's and every ending share within 15 points.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

import numpy as np

ENDINGS = ("goal_for", "goal_against", "possession", "out_of_play", "time")
LENGTH_RATIO_RANGE = (0.67, 1.5)
SHARE_TOLERANCE = 15.0  # percentage points

_FIGURES = os.path.join(os.path.dirname(__file__), "grf_behaviour.json")


@dataclass
class Behaviour:
    """Random-policy behaviour of one scenario: mean episode length and ending shares (%)."""

    scenario: str
    episodes: int
    mean_length: float
    shares: dict = field(default_factory=dict)  # ending -> percent of episodes


TEAM_ORDERS = ("left_team_first", "right_team_first")


def stored_grf_entries(section: str | None, kind: str, team_order: str | None) -> dict:
    """Entries of ``grf_behaviour.json``'s ``kind`` (under ``section``, if one): both of GRF's
    team processing orders pooled (``team_order=None``), or one order's alone (from
    ``kind + "_by_team_order"``)."""
    if team_order is not None and team_order not in TEAM_ORDERS:
        raise ValueError(f"team_order must be None or one of {TEAM_ORDERS}, got {team_order!r}")
    with open(_FIGURES) as f:
        data = json.load(f)
    if section is not None:
        data = data[section]
    if team_order is None:
        return data[kind]
    return {name: orders[team_order] for name, orders in data[kind + "_by_team_order"].items()}


def grf_figures(team_order: str | None = None) -> dict:
    """Real GRF's stored figures: ``{scenario: Behaviour}`` for the academy scenarios.

    ``team_order=None`` pools both of GRF's team processing orders (200 episodes);
    ``"left_team_first"`` or ``"right_team_first"`` gives that order's 100 alone.
    """
    out = {}
    for name, v in stored_grf_entries(None, "academy", team_order).items():
        ends = v["ends"]
        counts = {e: ends.get(e, 0) for e in ENDINGS if e != "out_of_play"}
        counts["out_of_play"] = sum(c for k, c in ends.items() if k.startswith("stop_"))
        n = v["episodes"]
        out[name] = Behaviour(name, n, v["len_mean"], {e: 100.0 * counts[e] / n for e in ENDINGS})
    return out


def measure(scenario: str, episodes: int = 100, seed: int = 0) -> Behaviour:
    """Plays ``episodes`` random-policy episodes of ``scenario`` in trackfield."""
    import trackfield

    env = trackfield.make(scenario, representation="simple115v2", rewards="scoring")
    rng = np.random.default_rng(seed)
    lengths, counts = [], dict.fromkeys(ENDINGS, 0)
    for episode in range(episodes):
        env.reset(seed=seed + episode)
        ret, steps = 0.0, 0
        while True:
            _, reward, terminated, truncated, info = env.step(int(rng.integers(19)))
            ret += float(reward)
            steps += 1
            if terminated or truncated:
                break
        lengths.append(steps)
        counts[_ending(ret, truncated, info["game_mode"])] += 1
    env.close()
    return Behaviour(scenario, episodes, float(np.mean(lengths)),
                     {e: 100.0 * counts[e] / episodes for e in ENDINGS})


def _ending(scoring_return: float, truncated: bool, game_mode: int) -> str:
    if truncated:
        return "time"
    if scoring_return >= 0.999:
        return "goal_for"
    if scoring_return <= -0.999:
        return "goal_against"
    return "out_of_play" if game_mode != 0 else "possession"


def within_tolerance(ours: Behaviour, grf: Behaviour, share_tolerance: float = SHARE_TOLERANCE) -> bool:
    """The fidelity test: mean length within LENGTH_RATIO_RANGE of GRF's and every ending
    share within ``share_tolerance`` points (15 by default)."""
    if not 0.0 <= share_tolerance <= 100.0:
        raise ValueError(f"share_tolerance must be between 0 and 100 points, got {share_tolerance!r}")
    ratio = ours.mean_length / grf.mean_length
    worst = max(abs(ours.shares[e] - grf.shares[e]) for e in ENDINGS)
    return LENGTH_RATIO_RANGE[0] <= ratio <= LENGTH_RATIO_RANGE[1] and worst <= share_tolerance


def compare(scenarios=None, episodes: int = 100) -> list:
    """Measures trackfield on ``scenarios`` (default: every one GRF figures exist for) and
    returns ``[(ours, grf), ...]``."""
    grf = grf_figures()
    names = scenarios or sorted(grf)
    return [(measure(name, episodes), grf[name]) for name in names]


def format_table(rows) -> str:
    """Markdown table: length and each ending share, trackfield / GRF."""
    head = ("| scenario | mean length tf / GRF (ratio) | "
            + " | ".join(f"{e.replace('_', ' ')} % tf / GRF" for e in ENDINGS) + " | within tolerance |")
    lines = [head, "|" + "---|" * (len(ENDINGS) + 3)]
    for ours, grf in rows:
        ratio = ours.mean_length / grf.mean_length
        cells = [f"{ours.shares[e]:.0f} / {grf.shares[e]:.0f}" for e in ENDINGS]
        ok = "yes" if within_tolerance(ours, grf) else "no"
        lines.append(f"| {ours.scenario} | {ours.mean_length:.0f} / {grf.mean_length:.0f} ({ratio:.2f}) | "
                     + " | ".join(cells) + f" | {ok} |")
    return "\n".join(lines)
