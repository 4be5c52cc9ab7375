"""The sets observation's stop-line set: the nearby lit stop lines with their light states,
crossing traffic's included, not only the one on the agent's route."""
import math

import numpy as np

import trackfield
from trackfield import _engine
from trackfield.driving.engine import light_arrays, resolve_roadmap

D = _engine.driving


def sets_env(**config):
    return trackfield.vector.make("town_self_play", num_envs=1, num_threads=1, agents=1, observation="sets",
                                  erratic=False, **config)


def test_field_shape_in_the_table():
    fields = {name: tuple(shape) for name, shape, *_ in D.sets_fields()}
    assert fields["stop_lines"] == (8, 9)


def test_a_junction_shows_the_crossing_approaches_stop_lines_with_their_colours():
    roadmap = resolve_roadmap(None, 0)
    lights = light_arrays(roadmap)
    mids = lights["stop_lines"].mean(axis=1)
    heading = float(lights["light_heading"][0])
    # The ego 8 m before light 0's stop line, facing along its lane, standing; an episode
    # where that light is lit (lights are removed at random).
    x, y = mids[0, 0] - 8 * math.cos(heading), mids[0, 1] - 8 * math.sin(heading)
    for seed in range(20):
        env = sets_env()
        env.reset(seed=seed)
        env.unwrapped._engine.batch.place_vehicle(0, 0, x, y, heading, 0.0)
        obs, *_ = env.step(np.full((1, 150), 7))
        if obs["light"][0, 0, 0] == 1 and abs(obs["light"][0, 0, 1] - 0.08) < 0.02:
            break
    else:
        raise AssertionError("no episode with light 0 lit")
    table = obs["stop_lines"][0, 0]
    assert table[0, 0] == 1 and table[0, 8] == 1                # ours, 8 m ahead, nearest
    assert abs(table[0, 1] - 0.08) < 0.01 and abs(table[0, 3] - 1) < 1e-3
    assert table[0, 5:8].tolist() == obs["light"][0, 0, 2:5].tolist()
    assert table[1:, 8].sum() == 0
    seen = table[table[:, 0] == 1]
    assert len(seen) >= 3
    # Rows are stop lines of the map at their positions in the ego frame, nearest first.
    c, s = math.cos(heading), math.sin(heading)
    world = np.stack([x + 100 * (c * seen[:, 1] - s * seen[:, 2]), y + 100 * (s * seen[:, 1] + c * seen[:, 2])], 1)
    d = np.hypot(world[:, None, 0] - mids[None, :, 0], world[:, None, 1] - mids[None, :, 1]).min(axis=1)
    assert (d < 0.05).all()
    dist = np.hypot(seen[:, 1], seen[:, 2])
    assert (np.diff(dist) >= -1e-6).all()
    # Each lit row has exactly one colour; a crossing approach (lanes at about 90 degrees) is seen.
    assert (seen[:, 5:8].sum(axis=1) == 1).all()
    assert (np.abs(seen[:, 3]) < 0.5).any()
    # Crossing approaches never show green while ours does (phases take turns).
    ours = seen[np.abs(seen[:, 3] - 1) < 0.05]
    crossing = seen[np.abs(seen[:, 3]) < 0.5]
    if ours[:, 5].any():
        assert not crossing[:, 5].any()
