"""The reward sweep's report: a weight set's score is its worst order's margin, and it names
every order the set breaks."""
import numpy as np

from trackfield.racing.config import COMPONENTS
from trackfield.racing.reward_sweep import failing, margins, score


def totals_of(**per_behaviour):
    """{(track, behaviour): component totals} on one track from {behaviour: {component: x}}."""
    out = {}
    for behaviour, parts in per_behaviour.items():
        out[("gt", behaviour)] = np.array([parts.get(c, 0.0) for c in COMPONENTS])
    return out


def test_a_set_that_ranks_late_braking_above_cautious_fails_and_says_so():
    # Late braking keeps the clean drive's progress and costs only tyre slip; the cautious
    # drive gives up 8% of the progress.
    totals = totals_of(clean={"progress": 3600, "tyre_slip": -2}, cautious={"progress": 3310, "tyre_slip": -1},
                       late_braking={"progress": 3600, "tyre_slip": -12})
    orders = [("clean", "late_braking"), ("cautious", "late_braking"), ("clean", "cautious")]
    weights = {"progress": 0.1, "tyre_slip": 0.5}
    rows = margins(weights, totals, orders, tracks=("gt",))
    assert [r[1:] for r in rows][0] == ("gt", "cautious", "late_braking")
    assert score(weights, totals, orders, tracks=("gt",)) == rows[0][0] < 0
    assert failing(weights, totals, orders, tracks=("gt",)).startswith("gt: cautious < late_braking (-0.0")
    # Weighted heavily enough, tyre slip puts late braking last: every order holds.
    assert failing({"progress": 0.1, "tyre_slip": 10.0}, totals, orders, tracks=("gt",)).startswith("none")
