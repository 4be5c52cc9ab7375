"""Noise, augmentation, the eval_long preset and the evaluation: config values, determinism,
incident recording on a staged crash, km accounting."""
from __future__ import annotations

import dataclasses
import math
import re

import numpy as np
import pytest

import trackfield
from trackfield import _engine
from trackfield.driving.config import OBS_NOISE_SCALES, DrivingConfig
from trackfield.driving.engine import make_engine
from trackfield.driving.evaluation import EvaluationRun, evaluate, lane_keeping_policy
from trackfield.driving.scenarios import load_driving_scenario

SELF_PLAY = load_driving_scenario("town_self_play")


def rollout(steps=12, seed=5, **config):
    """Observations and vehicle states of a 2-world self-play run under fixed actions."""
    env = trackfield.vector.make("town_self_play", num_envs=2, num_threads=1, slots=8, agents=8, max_steps=100,
                                 **config)
    obs, _ = env.reset(seed=seed)
    rng = np.random.default_rng(0)
    out_obs, out_states = [obs.copy()], [env._engine.batch.vehicles(0)]
    for _ in range(steps):
        obs, *_ = env.step(rng.integers(0, 12, size=(2, 8)))
        out_obs.append(obs.copy())
        out_states.append(env._engine.batch.vehicles(0))
    return np.array(out_obs), np.array(out_states)


# ---------------------------------------------------------------- noise

def test_noises_are_zero_by_default():
    config = DrivingConfig()
    assert config.obs_noise == 0 and config.dynamics_noise == 0
    assert config.obs_noise_stds() == (0.0, 0.0, 0.0)
    cfg = make_engine(SELF_PLAY, config).drive_config
    assert cfg.jerk_noise == 0 and (cfg.obs_noise_pos, cfg.obs_noise_heading, cfg.obs_noise_speed) == (0, 0, 0)


def test_obs_noise_moves_only_what_the_ego_observes_and_is_deterministic():
    clean_obs, clean_states = rollout()
    noisy_obs, noisy_states = rollout(obs_noise=1.0)
    again_obs, _ = rollout(obs_noise=1.0)
    other_obs, _ = rollout(obs_noise=1.0, seed=6)
    assert np.array_equal(noisy_obs, again_obs)                # deterministic per seed
    assert not np.array_equal(noisy_obs[0], other_obs[0])
    assert np.array_equal(noisy_states, clean_states)          # the world itself is untouched
    live = np.abs(clean_obs).sum(axis=-1) > 0
    diff = np.abs(noisy_obs - clean_obs)[live]
    assert diff[:, 3].mean() > 0.2 / 30 * 0.3                  # speed (/30 m/s), std 0.2 m/s
    assert diff[:, 0].mean() > 0.5 / 5 * 0.3                   # lane offset (/5 m), std 0.5 m
    assert diff[:, 14:20].max() > 0                            # goals seen from a moved ego
    assert np.array_equal(noisy_obs[..., 325:], clean_obs[..., 325:])   # conditioning untouched
    stds = DrivingConfig(obs_noise=(1.0, 0.0, 0.0)).obs_noise_stds()
    assert stds == (1.0, 0.0, 0.0)
    assert DrivingConfig(obs_noise=2.0).obs_noise_stds() == tuple(2 * s for s in OBS_NOISE_SCALES)


def test_dynamics_noise_changes_the_trajectories_deterministically():
    _, clean = rollout()
    _, noisy = rollout(dynamics_noise=2.0)
    _, again = rollout(dynamics_noise=2.0)
    assert np.array_equal(noisy, again)
    moved = np.abs(noisy[-1, :8, :2] - clean[-1, :8, :2]).max()
    assert moved > 1e-3


@pytest.mark.parametrize("kwargs, name", [
    (dict(obs_noise=-1.0), "obs_noise"), (dict(obs_noise=(1.0, 2.0)), "obs_noise"),
    (dict(obs_noise=(1.0, float("nan"), 0.0)), "obs_noise"), (dict(dynamics_noise=-0.1), "dynamics_noise"),
    (dict(obs_inflate=9.0), "obs_inflate"), (dict(spawn_clearance=-1.0), "spawn_clearance"),
    (dict(conditioning="brave"), "conditioning"), (dict(augment_variants=0), "augment_variants"),
    (dict(preset="eval_short"), "preset"), (dict(preset="eval_long", dt=0.3), "dt"),
    (dict(preset="eval_long", agents=10), "agents"), (dict(preset="eval_long", obs_noise=1.0), "obs_noise"),
])
def test_bad_config_values_raise_naming_the_key(kwargs, name):
    with pytest.raises(ValueError, match=name):
        DrivingConfig(**kwargs)


def test_jerk_noise_is_gone_for_dynamics_noise():
    with pytest.raises(TypeError, match="jerk_noise"):
        trackfield.make("town_drive", jerk_noise=1.0)


# ---------------------------------------------------------------- preset

def test_eval_long_preset_values():
    c = DrivingConfig(preset="eval_long")
    assert c.dt == pytest.approx(1 / 15) and c.slots == 50 and c.agents == 50
    assert c.obs_noise == 0 and c.dynamics_noise == 0 and c.erratic is False and c.lights is True
    assert c.obs_inflate == pytest.approx(0.1) and c.conditioning == "safe" and c.spawn_clearance == 10.0
    assert c.max_steps == 4500 and DrivingConfig(preset="eval_long", max_steps=900).max_steps == 900
    assert DrivingConfig(preset="eval_long", dt=1 / 15).dt == pytest.approx(1 / 15)   # the same value is fine
    plain = DrivingConfig()
    assert plain.dt == 0.3 and plain.max_steps == 300 and plain.conditioning == "random" and plain.obs_inflate == 0


def test_eval_long_world_safe_conditioning_inflated_boxes_and_clearance():
    env = trackfield.vector.make("town_self_play", num_envs=2, preset="eval_long")
    obs, info = env.reset(seed=1)
    cfg = env._engine.drive_config
    assert cfg.dt == pytest.approx(1 / 15) and cfg.safe_conditioning and cfg.obs_inflate == pytest.approx(0.1)
    assert obs.shape == (2, 50, 337) and info["live"].sum() == 100
    # Every agent sees the same (safe) reward-weight conditioning: the top of each penalty range.
    weights = obs[..., 325:332]
    assert np.all(weights == weights[0, 0])
    assert np.allclose(weights[0, 0], [1, 1, 1, 1, 0, 1, 1])
    # Other vehicles' sizes are seen 10 cm larger per side.
    vehicles = env._engine.batch.vehicles(0)
    rel = obs[0, 0, 20:200].reshape(20, 9)
    seen = np.sort(rel[rel[:, 0] > 0, 6] * 7.0)
    true = np.minimum(vehicles[1:50, 4] + 0.2, 7.0)  # the observation clips lengths at its 7 m scale
    assert all(np.isclose(true, s, atol=1e-4).any() for s in seen)
    # Spawn clearance: bounding circles at least 10 m apart.
    v = vehicles[:50]
    radius = 0.5 * np.hypot(v[:, 4], v[:, 5])
    gap = np.hypot(*(v[:, None, :2] - v[None, :, :2]).transpose(2, 0, 1)) - radius[:, None] - radius[None, :]
    np.fill_diagonal(gap, np.inf)
    close = np.abs(v[:, None, 8] - v[None, :, 8]) <= 4.0
    assert gap[close].min() >= 10.0 - 1e-6


def test_safe_conditioning_weights_are_documented():
    from trackfield.driving.env import DrivingEnv

    safe = _engine.driving.safe_conditioning()
    assert safe["lane_center_bias"] == 0 and safe["stop_line"] == 1.0 and safe["comfort"] == pytest.approx(0.1)
    assert "safe" in DrivingEnv.__doc__ and "eval_long" in DrivingEnv.__doc__


# ---------------------------------------------------------------- augmentation

def test_augmentation_draws_a_variant_per_reset_deterministically():
    env = trackfield.vector.make("town_self_play", num_envs=3, agents=2, augment=True, augment_variants=6)
    maps = env._engine.drive_config.maps
    assert len(maps) == 6
    lengths = [m.map.lane_lengths.sum() for m in maps]
    assert len(set(np.round(lengths, 3))) == 6                     # six different geometries
    seen = []
    for seed in range(4):
        _, info = env.reset(seed=seed)
        seen.append(tuple(info["map_id"]))
    assert len({m for ids in seen for m in ids}) > 1
    again = trackfield.vector.make("town_self_play", num_envs=3, agents=2, augment=True, augment_variants=6)
    for seed, ids in enumerate(seen):
        _, info = again.reset(seed=seed)
        assert tuple(info["map_id"]) == ids
    assert [m.map.lane_lengths.sum() for m in again._engine.drive_config.maps] == lengths
    other = trackfield.vector.make("town_self_play", num_envs=1, agents=2, augment=True, augment_variants=6,
                                   augment_seed=1)
    assert [m.map.lane_lengths.sum() for m in other._engine.drive_config.maps] != lengths
    plain = trackfield.vector.make("town_self_play", num_envs=1, agents=2)
    assert len(plain._engine.drive_config.maps) == 1


def test_several_maps_each_with_its_variants():
    from trackfield.driving import generate_town

    town = generate_town(seed=1, size="small")
    env = trackfield.vector.make("town_self_play", num_envs=8, agents=2, map=["Town01", town], augment=True,
                                 augment_variants=2)
    maps = env._engine.drive_config.maps
    assert len(maps) == 4 and maps[0].map.lane_count == maps[1].map.lane_count != maps[2].map.lane_count
    ids = np.concatenate([env.reset(seed=s)[1]["map_id"] for s in range(3)])
    assert set(ids) == {0, 1, 2, 3}
    plain = trackfield.vector.make("town_self_play", num_envs=2, agents=2, map=("Town01", town))
    assert len(plain._engine.drive_config.maps) == 2
    with pytest.raises(ValueError, match="map"):
        DrivingConfig(map=[])
    with pytest.raises(TypeError, match="map"):
        DrivingConfig(map=["Town01", 3])


# ---------------------------------------------------------------- evaluation

def staged_run(**config):
    """Two agents at rest on a generated town, no lights or erratic drivers, dt 1/15 s."""
    base = dict(dt=1 / 15, slots=2, agents=2, lights=False, erratic=False, max_steps=2000)
    cfg = DrivingConfig(**dict(base, **config))
    engine = make_engine(SELF_PLAY, cfg, num_envs=2, autoreset=False)
    return EvaluationRun(engine, lambda obs: np.full(obs.shape[:2], 7, np.int32), seed=3)


def rear_end(run, world=0):
    """Puts agent 1 at rest 12 m ahead of agent 0 and agent 0 at 8 m/s, then steps until
    the crash; returns the step count."""
    batch = run.engine.batch
    x, y, heading = batch.vehicles(world)[0, :3]
    batch.place_vehicle(world, 1, x + 12 * math.cos(heading), y + 12 * math.sin(heading), heading, 0.0)
    batch.place_vehicle(world, 0, x, y, heading, 8.0)
    run.sync()
    for _ in range(40):
        run.step()
        if run.collisions:
            return run.steps
    raise AssertionError("no collision")


def test_staged_crash_is_one_incident_with_the_episode_so_far():
    run = staged_run()
    for _ in range(5):
        run.step()
    assert run.collisions == 0 and run.off_road == 0
    crash_step = rear_end(run)
    assert run.collisions == 2 and run.incidents == 1          # both agents flagged, one incident
    (incident,) = run.recorder.records
    assert incident.kind == "collision" and incident.world == 0 and incident.agents == (0, 1)
    assert incident.step == crash_step
    assert incident.states.shape == (crash_step + 1, 2, 8)   # reset state + every step: younger than 10 s
    cols = list(_engine.driving.VEHICLE_STATE_COLUMNS)
    last = incident.states[-1]
    assert np.all(last[:, cols.index("state")] == 2)          # both ended at the crash
    gap = np.hypot(*(last[1, :2] - last[0, :2]))
    assert gap <= 0.5 * (last[0, cols.index("length")] + last[1, cols.index("length")]) + 0.5
    assert incident.states[-2, 0, cols.index("speed")] == pytest.approx(8.0, abs=0.5)
    metrics = run.metrics("staged")
    assert metrics.agent_episodes == 4 and metrics.collision_rate == pytest.approx(2 / 4)   # 2 worlds x 2 agents
    assert metrics.km_per_incident == pytest.approx(run.km) and metrics.off_road == 0


def test_incident_window_is_ten_seconds_in_an_older_episode():
    run = staged_run()
    for _ in range(200):                                      # vehicles at rest: nothing happens
        run.step()
    assert run.recorder.filled[0] == 150
    rear_end(run)
    (incident,) = run.recorder.records
    assert incident.states.shape == (150, 2, 8) and incident.seconds == pytest.approx(149 / 15)
    # The window is the last 150 states in order: the crash world's x moves only at the end.
    x = incident.states[:, 0, 0]
    assert np.all(x[:-20] == x[0]) and x[-1] != x[0]


def test_km_and_event_counts_match_the_engine_episode_statistics():
    steps = 60
    cfg = DrivingConfig(slots=20, agents=20, dt=0.1, max_steps=steps)
    engine = make_engine(SELF_PLAY, cfg, num_envs=3, autoreset=False)
    rng = np.random.default_rng(0)
    run = EvaluationRun(engine, lambda obs: rng.integers(0, 12, size=obs.shape[:2]).astype(np.int32), seed=2)
    manual_m = 0.0
    for _ in range(steps - 1):
        before = engine.live.copy(), engine.agent_info[..., 5].copy()
        run.step()
        manual_m += float((np.abs(before[1] + engine.agent_info[..., 5]) / 2)[before[0]].sum()) * 0.1
    assert run.km == pytest.approx(manual_m / 1000)           # the sum of speed x dt
    run.step()                                                # the last step ends every world's episode
    stats = dict(zip(engine.episode_stat_fields.names, engine.episode_stats.sum(axis=0)))
    assert run.km == pytest.approx(stats["km_driven"], rel=2e-3)   # the engine's chord lengths
    assert run.collisions == stats["collisions"] and run.off_road == stats["off_road"]
    assert run.red_lights == stats["red_lights"] and run.goals == stats["goals"]
    assert run.agent_episodes >= stats["agents"] > 0          # + the agents of the new episodes
    assert run.collisions + run.off_road > 0


def test_evaluate_is_deterministic_and_prints_the_reference_figures():
    a = evaluate(None, worlds=2, steps=80, seed=4, num_threads=1, max_steps=60)
    b = evaluate(None, worlds=2, steps=80, seed=4, num_threads=2, max_steps=60)
    c = evaluate(None, worlds=2, steps=80, seed=5, num_threads=1, max_steps=60)
    strip = lambda m: {k: v for k, v in m.as_dict().items() if k != "seconds"}   # noqa: E731
    assert strip(a) == strip(b) and strip(a) != strip(c)
    assert a.steps == 80 and a.agent_episodes >= 100 and a.km > 0
    assert [i.step for i in a.incidents] == [i.step for i in b.incidents]
    assert all(np.array_equal(i.states, j.states) for i, j in zip(a.incidents, b.incidents))
    text = str(a)
    assert "3,000,000" in text and "829,000" in text and "km per incident" in text
    by_km = evaluate(None, worlds=2, km=1.0, seed=4)
    assert 1.0 <= by_km.km < 1.2


def test_evaluate_bad_arguments_raise_naming_them():
    with pytest.raises(ValueError, match="km"):
        evaluate(None, worlds=1)
    with pytest.raises(ValueError, match="worlds"):
        evaluate(None, worlds=0, steps=1)
    with pytest.raises(TypeError, match="policy"):
        evaluate(3, worlds=1, steps=1)
    with pytest.raises(ValueError, match="dt"):
        evaluate(None, worlds=1, steps=1, dt=0.3)
    with pytest.raises(ValueError, match="actions"):
        evaluate(lambda obs: np.zeros(3), worlds=1, steps=1)
    env = trackfield.vector.make("town_self_play", num_envs=2, agents=2)
    with pytest.raises(ValueError, match="out"):
        env._engine.batch.vehicle_states(np.zeros((2, 150, 7), np.float32))


def test_scripted_policy_acts_per_row_and_drives_better_than_random():
    from trackfield.demo import lane_keeping_action

    env = trackfield.vector.make("town_self_play", num_envs=2, agents=10, slots=10)
    obs, _ = env.reset(seed=0)
    for _ in range(5):
        obs, *_ = env.step(lane_keeping_policy(obs))
    rows = obs.reshape(-1, 337)
    assert list(lane_keeping_policy(rows)) == [lane_keeping_action(r) for r in rows]
    rng = np.random.default_rng(0)
    scripted = evaluate(None, worlds=2, steps=300, seed=1)
    random = evaluate(lambda o: rng.integers(0, 12, size=o.shape[:2]), worlds=2, steps=300, seed=1)
    assert scripted.km_per_incident > 3 * random.km_per_incident


def test_evaluation_command_line_prints_the_metrics(capsys):
    from trackfield.driving.evaluation import main

    main(["--worlds", "1", "--steps", "3"])
    assert "km per incident" in capsys.readouterr().out


def test_arguments_table_lists_every_config_key():
    from trackfield.driving.env import DrivingEnv

    table = DrivingEnv.__doc__.split("## Arguments")[1].split("##")[0]
    documented = {name for row in re.findall(r"^\s*\| ([\w, ]+) \|", table, re.M) for name in row.split(", ")}
    keys = {f.name for f in dataclasses.fields(DrivingConfig)} - {"render_mode"}
    assert keys <= documented, sorted(keys - documented)


def test_sets_observation_sees_the_same_noisy_ego_and_inflated_boxes_as_flat():
    def first_obs(observation, **config):
        env = trackfield.vector.make("town_self_play", num_envs=1, num_threads=1, slots=8, agents=8,
                                     observation=observation, **config)
        obs, _ = env.reset(seed=3)
        return obs

    flat_noisy, sets_noisy = first_obs("flat", obs_noise=1.0), first_obs("sets", obs_noise=1.0)
    sets_clean = first_obs("sets")
    assert np.array_equal(sets_noisy["ego"], flat_noisy[..., :14])       # the same noisy ego ...
    assert np.array_equal(sets_noisy["goal"], flat_noisy[..., 14:20])    # ... and goals seen from it
    assert not np.array_equal(sets_noisy["ego"], sets_clean["ego"])
    assert not np.array_equal(sets_noisy["lane_points"], sets_clean["lane_points"])
    inflated = first_obs("sets", obs_inflate=0.5)
    seen = (sets_clean["vehicles"][..., 0] > 0) & (inflated["vehicles"][..., 7] < 1.0)  # 1: clipped
    assert seen.any()
    np.testing.assert_allclose((inflated["vehicles"][..., 7] - sets_clean["vehicles"][..., 7])[seen] * 7.0, 1.0,
                               atol=1e-4)                                # length /7 m, 0.5 m per end
