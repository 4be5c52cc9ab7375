"""Cars launched apart (rolling starts) are ahead or behind by where they are, not by the
distance each has covered since its own start: observations and rewards agree with place."""
import numpy as np

import trackfield


def test_rolling_start_opponent_is_seen_on_the_side_it_is():
    seen = set()
    for seed in range(8):
        env = trackfield.make("race_1v1", observation="track_points")
        obs, info = env.reset(seed=seed)
        behind = info["place"] == 1  # the agent trails: the opponent is ahead of it
        seen.add(behind)
        assert (obs["ahead_mask"][0] > 0) == behind, seed
        assert (obs["behind_mask"][0] > 0) == (not behind), seed
        # Car frame, x forward: a car ahead has positive x (standardised around 0).
        x = obs["ahead_position"][0, 0] if behind else obs["behind_position"][0, 0]
        assert (x > 0) == behind, seed
    assert seen == {True, False}  # both orders occur over these seeds


def test_rear_end_costs_only_the_car_behind():
    """Two cars driven into each other by the AI of one and full throttle of the other:
    whichever is behind at a contact pays rear_end, never the car in front."""
    env = trackfield.make("race_1v1", agents=2, max_time_s=60.0)
    env.reset(seed=1)
    paid = 0
    for _ in range(600):
        actions = env.unwrapped.ai_action()
        actions[:, 0] = 1.0  # both flat out: contacts come quickly
        _, _, terminated, truncated, info = env.step(actions)
        rear = np.asarray(info["reward_components"]["rear_end"])
        if (rear < 0).any():
            paid += 1
            assert (rear < 0).sum() == 1
            behind = int(np.argmax(info["place"]))
            assert rear[behind] < 0
        if terminated or truncated:
            break
    assert paid > 0
