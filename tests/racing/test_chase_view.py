"""The racing chase view (`pixels` observations, rgb_array frames) against stored frames.

The frames are the first observation of fixed resets (no physics step, so a change to the
cars or the AI does not move them) and rgb_array renders. Regenerate after an intended
change of the picture with ``PYTHONPATH=pkg python tests/racing/test_chase_view.py``.
"""
from pathlib import Path

import numpy as np
import pytest

import trackfield

FRAMES = Path(__file__).parent / "data" / "chase_view_frames.npz"
RESETS = [("race_field", "technical", 0), ("race_field", "gt", 1), ("race_field", "speedway", 0),
          ("race_final_chicane_traffic", "speedway", 0), ("race_1v7", "technical", 1), ("race_1v3", "gt", 0),
          ("race_time_trial", "technical", 1), ("race_slipstream", "speedway", 1)]


def chase_view_frames() -> dict:
    frames = {}
    for scenario, track, seed in RESETS:
        env = trackfield.make(scenario, observation="pixels", track=track, render_mode="rgb_array", render_width=320)
        obs, _ = env.reset(seed=seed)
        frames[f"{scenario}-{track}-{seed}-obs"] = obs
        frames[f"{scenario}-{track}-{seed}-render"] = env.render()
        env.close()
    return frames


@pytest.fixture(scope="module")
def frames():
    return chase_view_frames()


def test_chase_view_matches_the_stored_frames(frames):
    stored = np.load(FRAMES)
    assert sorted(stored.files) == sorted(frames)
    for name, frame in frames.items():
        assert frame.shape == stored[name].shape, name
        # A few pixels on an edge may flip with another compiler's rounding; a change to
        # the picture moves hundreds.
        differing = (frame != stored[name]).any(axis=-1).mean()
        assert differing <= 0.002, (name, differing)


def test_chase_view_draws_every_layer_and_the_own_car(frames):
    colours = {"grass": (52, 110, 48), "run-off": (150, 140, 110), "kerb": (200, 40, 40), "asphalt": (90, 90, 96),
               "own car": (255, 220, 0)}
    for name, frame in frames.items():
        for layer, rgb in colours.items():
            assert (frame == rgb).all(axis=-1).any(), (name, layer)
    # race_field: the 19 cars ahead on the grid are drawn in their colour.
    assert (frames["race_field-technical-0-obs"] == (40, 110, 230)).all(axis=-1).sum() >= 20


if __name__ == "__main__":
    FRAMES.parent.mkdir(exist_ok=True)
    np.savez_compressed(FRAMES, **chase_view_frames())
    print(f"wrote {FRAMES}")
