"""Observations rebuilt from stored world states (``get_state()`` snapshots).

A trainer that keeps states instead of observations (GIGAFLOW stores the compact world,
not its ~5 KB-per-agent sets) calls :func:`observe` to get any observation kind back: the
snapshot's fingerprint leaves out the observation kind and feature dropout, so states
saved under ``observation="flat"`` can be observed as ``"sets"`` and the reverse.
"""
from __future__ import annotations

from collections.abc import Sequence

from trackfield.core.config import config_from_kwargs
from trackfield.driving.config import DrivingConfig
from trackfield.driving.engine import make_engine
from trackfield.driving.scenarios import load_driving_scenario


def observe(states: Sequence[bytes], scenario: str = "town_self_play", **config):
    """The observations of ``states`` (``get_state()`` bytes of worlds of ``scenario`` with
    the same ``config``, apart from ``observation`` and ``feature_dropout``), batched as the
    vector env returns them: leading axes (len(states), slots) (or (len(states),) for a
    one-agent scenario); a dict of such arrays for ``observation="sets"``.

    Slots in play are observed as the env observed them after that step (dropout draws
    included: they come from the stored state); other slots are zero, the terminal
    observation of a slot that ended in that step included.

    >>> import trackfield
    >>> env = trackfield.vector.make("town_self_play", num_envs=2, agents=4)
    >>> _ = env.reset(seed=0)
    >>> obs = observe([env.get_state(0), env.get_state(1)], observation="sets", agents=4)
    >>> obs["lane_points"].shape
    (2, 150, 80, 9)
    """
    if isinstance(states, (bytes, bytearray)) or not isinstance(states, Sequence):
        raise TypeError("states must be a sequence of get_state() bytes")
    if not states:
        raise ValueError("states: need at least one state")
    for k, state in enumerate(states):
        if not isinstance(state, (bytes, bytearray)):
            raise TypeError(f"states[{k}] must be bytes from get_state(), got {type(state).__name__}")
    cfg = config_from_kwargs(DrivingConfig, config, "trackfield.driving.observe")
    engine = make_engine(load_driving_scenario(scenario), cfg, num_envs=len(states), num_threads=1, autoreset=False)
    for k, state in enumerate(states):
        try:
            engine.batch.set_state(k, bytes(state))
        except ValueError as e:
            raise ValueError(f"states[{k}]: {e}") from None
    return engine.batch_obs(engine.obs)
