"""The GT7 baseline reward of "Automated Reward Design for Gran Turismo": progress,
off-course, wall, fault-based collision, any contact, passing, steering change and
steering direction changes. The paper gives no weights; these are trackfield's own
(docs/reward_design.md): progress 0.1 per metre makes one clean step at 200 km/h worth
about +0.55 and each penalty is sized against that step; off-course, the one weight
training decides, was swept with SAC on race_time_trial (5: no clean lap in 240k steps,
the policy cut corners; 50: seed 1 stayed on but drove no lap within 150 s; 20: clean laps
at 160k and 200k steps for seeds 0 and 1)."""
import numpy as np

PASS_BEHIND_M, PASS_AHEAD_M = 20.0, 40.0


def progress(current, previous, course):
    """Centre-line metres gained this step."""
    return current.progress - previous.progress


def off_course(current, previous, course):
    """Minus the longest time any one tyre was off course since the last step, s."""
    d = current.tyre_off_s - previous.tyre_off_s
    return -np.maximum(np.maximum(d[:, 0], d[:, 1]), np.maximum(d[:, 2], d[:, 3]))


def wall(current, previous, course):
    """Minus wall-contact time this step times speed squared, s (km/h)^2."""
    return -(current.wall_s - previous.wall_s) * current.speed_kmh ** 2


def collision(current, previous, course):
    """Minus relative speed squared of contacts this car is at fault for: it ran into
    the other from behind, or touched it side by side from behind, (km/h)^2."""
    fault = (current.contact == 1) | ((current.contact == 3) & (current.distance > 0))
    car, slot = np.divmod(np.flatnonzero(fault), fault.shape[1])  # contacts are rare: only touched pairs count
    v = current.velocity_kmh[:, :2]
    dv = v[car] - v[current.others[car, slot]]
    return -np.bincount(car, weights=(dv * dv).sum(axis=1), minlength=len(current))


def any_contact(current, previous, course):
    """-1 when touching any car."""
    return -current.car_contact.astype(np.float64)


def passing(current, previous, course):
    """Metres gained on the cars of the group within [-20, 40] m (before or after)."""
    d0, d1 = previous.distance, current.distance
    near = ((d0 >= -PASS_BEHIND_M) & (d0 <= PASS_AHEAD_M)) | ((d1 >= -PASS_BEHIND_M) & (d1 <= PASS_AHEAD_M))
    # distance is 0 to itself and to other groups' cars, so they add nothing.
    return (near * (d0 - d1)) @ np.ones(d0.shape[1], d0.dtype)


def steering_change(current, previous, course):
    """Minus the change of the steering command since the last step (full lock = 1)."""
    return -np.abs(current.steering - previous.steering)


def steering_reversals(current, previous, course):
    """Minus the number of direction changes of the steering over the last 10 steps
    (a step without movement neither starts nor ends a direction)."""
    step = np.sign(np.diff(current.steering_history.T, axis=0))  # (9, N): a loop over 9 rows, vectorised over cars
    flips = np.zeros(step.shape[1])
    last = step[0]
    for now in step[1:]:
        flips += (now * last) < 0
        last = np.where(now != 0, now, last)
    return -flips


weights = {"progress": 0.1, "off_course": 20.0, "wall": 5e-4, "collision": 1e-3, "any_contact": 0.5,
           "passing": 0.1, "steering_change": 0.05, "steering_reversals": 0.05}
