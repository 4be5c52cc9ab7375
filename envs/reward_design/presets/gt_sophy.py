"""GT Sophy's reward terms as racing computes them in C++ (cpp_engine/racing/reward.cpp),
weighted as racing's "race" preset: re-scoring a trajectory with this file gives the
reward the env gave online (without section_modifiers, passing_window (20, 40))."""
import numpy as np

PASS_BEHIND_M, PASS_AHEAD_M = 20.0, 40.0


def _speed_sq(s):
    v = s.local_velocity_kmh
    return v[:, 0] * v[:, 0] + v[:, 1] * v[:, 1]


def _rivals(s):
    """(N, C) mask of the other cars of each car's group."""
    same = s.group[s.others] == s.group[:, None]
    return same & (s.others != np.arange(len(s))[:, None])


def progress(current, previous, course):
    return np.where(current.off_course, 0.0, current.progress - previous.progress)


def off_course_sq(current, previous, course):
    return -(current.off_course_s - previous.off_course_s) * _speed_sq(current)


def off_course_lin(current, previous, course):
    return -(current.off_course_s - previous.off_course_s) * np.sqrt(_speed_sq(current))


def wall(current, previous, course):
    return -(current.wall_s - previous.wall_s) * _speed_sq(current)


def tyre_slip(current, previous, course):
    return -(np.minimum(np.abs(current.slip_ratio), 1.0) * np.abs(current.slip_angle)).sum(axis=1)


def passing(current, previous, course):
    d0, d1 = previous.distance, current.distance  # signed centre-line distance to each car
    near = ((d0 >= -PASS_BEHIND_M) & (d0 <= PASS_AHEAD_M)) | ((d1 >= -PASS_BEHIND_M) & (d1 <= PASS_AHEAD_M))
    return np.where(near & _rivals(current), d0 - d1, 0.0).sum(axis=1)


def any_collision(current, previous, course):
    return -(current.contact != 0).any(axis=1).astype(np.float64)


def rear_end(current, previous, course):
    v = current.velocity_kmh[:, :2]
    dv = v[:, None, :] - v[current.others]
    ahead = current.distance > 0.0
    hit = (current.contact != 0) & ahead
    return -np.where(hit, (dv * dv).sum(axis=2), 0.0).sum(axis=1)


def unsporting(current, previous, course):
    c = current.contact
    straight = current.section_kind[:, None] == 0
    bad = np.where(straight, (c == 1) | (c == 3), (c != 0) & (c != 2))
    return -bad.any(axis=1).astype(np.float64)


weights = {"progress": 0.1, "off_course_sq": 2e-3, "off_course_lin": 0.0, "wall": 5e-4, "tyre_slip": 0.5,
           "passing": 0.1, "any_collision": 0.5, "rear_end": 1e-3, "unsporting": 1.0}
