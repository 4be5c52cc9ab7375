"""The racing envs' contract: spaces, checkers, scenarios, determinism, bad input."""
from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env
from pettingzoo.test import parallel_api_test

import trackfield
from trackfield import _engine
from trackfield.racing.scenarios import SCENARIOS


def sb3_check_env(env, **kwargs):
    """Stable-Baselines3's env checker, imported when a test runs (it imports torch)."""
    from stable_baselines3.common.env_checker import check_env

    return check_env(env, **kwargs)


pytestmark = [pytest.mark.filterwarnings("ignore:.*Box observation space (minimum|maximum) value is")]

FAST = dict(track="technical")
FEATURES = 655


def run(env, steps, action=(0.5, 0.0), seed=0):
    obs, info = env.reset(seed=seed)
    out = [obs]
    for _ in range(steps):
        obs, reward, terminated, truncated, info = env.step(np.asarray(action, np.float32))
        out.append(obs)
        if terminated or truncated:
            break
    return np.array(out), info


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_gymnasium_and_sb3_checkers(name):
    env = trackfield.make(name)
    gym_check_env(env, skip_render_check=True)
    sb3_check_env(trackfield.make(name))


def test_spaces_and_observation_layout():
    env = trackfield.make("race_1v1")
    assert env.observation_space.shape == (FEATURES,) and env.observation_space.dtype == np.float32
    assert env.action_space == gymnasium.spaces.Box(-1, 1, (2,), np.float32)
    fields = _engine.racing.feature_fields()
    assert sum(int(np.prod(f[1])) for f in fields) == FEATURES
    obs, info = env.reset(seed=1)
    assert np.isfinite(obs).all()
    dict_env = trackfield.make("race_1v1", observation="track_points")
    d, _ = dict_env.reset(seed=1)
    assert set(d) == {f[0] for f in fields}
    assert np.array_equal(np.concatenate([np.ravel(d[f[0]]) for f in fields]), obs)


def test_track_points_are_egocentric_and_ahead():
    env = trackfield.make("race_time_trial", observation="track_points")
    d, _ = env.reset(seed=3)
    ranges = {name: (lo, hi) for name, lo, hi, _ in _engine.racing.feature_ranges()}
    lo, hi = ranges["centre_line"]
    centre = d["centre_line"] * ((hi - lo) / np.sqrt(12)) + (lo + hi) / 2
    # The first point is beside the car, the rest lie ahead along x and spread out.
    assert abs(centre[0, 0]) < 3.0
    assert centre[-1, 0] > 50.0
    assert np.all(np.diff(np.linalg.norm(centre[:, :2], axis=1))[5:] > 0)


def test_scenario_facts():
    env = trackfield.make("race_1v2", observation="track_points")
    assert env.num_cars == 3 and env.unwrapped_engine.num_agents == 1
    d, _ = env.reset(seed=0)
    assert (d["ahead_mask"] > 0).sum() + (d["behind_mask"] > 0).sum() <= 2  # standardised: 1 -> +1.73, 0 -> -1.73
    # 150 s at 10 Hz: truncated on step 1500.
    env = trackfield.make("race_time_trial", max_time_s=2.0)
    obs, info = env.reset(seed=0)
    for t in range(1, 30):
        obs, r, term, trunc, info = env.step(np.array([0.3, 0.0], np.float32))
        if trunc:
            break
    assert t == 20 and info["time_s"] == pytest.approx(2.0, abs=1e-3)
    assert trackfield.make("race_1v1").scenario.max_time_s == 150.0


def test_grid_start_slot_and_field():
    env = trackfield.make("race_field")
    obs, info = env.reset(seed=0)
    assert info["place"] == 19  # last on the grid
    env = trackfield.make("race_field", start_slot=0)
    obs, info = env.reset(seed=0)
    assert info["place"] == 0
    with pytest.raises(ValueError, match="start_slot"):
        trackfield.make("race_1v1", start_slot=5)


def test_groups_never_touch_or_see_each_other():
    # Two groups launched on the same spot: they overlap at reset, yet never touch.
    env = trackfield.parallel_env("race_slipstream", groups=2, agents=1)
    obs, infos = env.reset(seed=0)
    assert set(env.agents) == {"car_0", "car_1"}
    for _ in range(50):
        # Braking: each agent falls back from its own group's opponent, so any contact would be across groups.
        obs, rewards, terms, truncs, infos = env.step({a: np.array([-0.3, 0.0], np.float32) for a in env.agents})
        if not env.agents:
            break
    for info in infos.values():
        assert info["contact_s"] == 0.0


def test_determinism_threads_and_batch_equals_single():
    single = trackfield.make("race_1v3")
    rng = np.random.default_rng(0)
    actions = rng.uniform(-1, 1, size=(30, 2)).astype(np.float32)
    obs, _ = single.reset(seed=5)
    expected = [obs]
    for a in actions:
        obs, *_ = single.step(a)
        expected.append(obs)
    for threads in (1, 2, 4):
        vec = trackfield.vector.make("race_1v3", num_envs=4, num_threads=threads)
        obs, _ = vec.reset(seed=5)
        assert np.array_equal(obs[0], expected[0])
        for t, a in enumerate(actions):
            obs, *_ = vec.step(np.repeat(a[None], 4, axis=0))
            assert np.array_equal(obs[0], expected[t + 1]), (threads, t)
        vec.close()


def test_state_round_trip_is_bitwise():
    env = trackfield.make("race_1v1")
    env.reset(seed=2)
    for _ in range(5):
        env.step(np.array([1.0, 0.1], np.float32))
    state = env.get_state()
    a, _ = run_from(env, state)
    b, _ = run_from(env, state)
    assert np.array_equal(a, b)


def run_from(env, state, steps=10):
    obs, info = env.reset(options={"state": state})
    out = [obs]
    for _ in range(steps):
        obs, *_ = env.step(np.array([0.8, -0.2], np.float32))
        out.append(obs)
    return np.array(out), info


def test_parallel_api():
    parallel_api_test(trackfield.parallel_env("race_1v3", agents=2), num_cycles=30)


def test_bad_actions_name_the_car():
    env = trackfield.make("race_1v1")
    env.reset(seed=0)
    for bad in ([np.nan, 0.0], [0.0, np.inf], [1.5, 0.0], [0.0, -1.01]):
        with pytest.raises(ValueError, match="car"):
            env.step(np.array(bad, np.float32))


@pytest.mark.parametrize("kwargs,match", [
    (dict(car="kart"), "car must be one of"),
    (dict(track="nowhere"), "nowhere"),
    (dict(action_delay_s=-0.1), "action_delay_s"),
    (dict(observation_delay_s=-1), "observation_delay_s"),
    (dict(section_modifiers={"final_chicane": {"progress": 2}}), "no section 'final_chicane'"),
    (dict(section_modifiers={"final_chicane": {"speed": 2}}), "unknown component 'speed'"),
    (dict(reward="fast"), "reward must be one of"),
    (dict(observation="lidar"), "observation must be one of"),
])
def test_bad_config_is_named(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        trackfield.make("race_1v1", **kwargs)


def test_unknown_scenario_lists_names():
    with pytest.raises(ValueError, match="race_1v1"):
        trackfield.make("race_1v99")


def test_action_delay_shifts_the_response_by_whole_physics_steps():
    # Full throttle from a rolling start: with a delay of k physics steps the car
    # coasts k steps longer, so after one control step it is slower.
    speeds = []
    for delay in (0.0, 0.05):
        env = trackfield.make("race_time_trial", action_delay_s=delay)
        env.reset(seed=4)
        _, _, _, _, info = env.step(np.array([1.0, 0.0], np.float32))
        speeds.append(info["speed_kmh"])
    assert speeds[1] < speeds[0]


def test_render_rgb_array():
    env = trackfield.make("race_1v3", render_mode="rgb_array", render_width=320)
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (240, 320, 3) and frame.dtype == np.uint8
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) >= 4  # grass, asphalt, kerb, car at least


def test_pixels_observation():
    env = trackfield.make("race_1v1", observation="pixels")
    obs, _ = env.reset(seed=0)
    assert obs.shape == (96, 96, 3) and obs.dtype == np.uint8
    # The agent's car is drawn yellow a quarter of the way up from the bottom, centred.
    assert (obs[68:76, 44:52] == [255, 220, 0]).all(axis=-1).any()


def test_recorded_launches_restart_before_trouble_and_restore_bitwise():
    from trackfield.racing import RecordedLaunches

    env = RecordedLaunches(trackfield.make("race_time_trial"), share=1.0, every_steps=2, lookback_steps=6)
    obs, info = env.reset(seed=3)
    assert info["launch"] == "scenario"  # nothing recorded yet
    for _ in range(300):  # full throttle, steering hard left: off the track and into the wall
        obs, r, term, trunc, info = env.step(np.array([1.0, 1.0], np.float32))
        if env.launches or term or trunc:
            break
    assert len(env.launches) == 1
    recorded = env.launches[0]
    obs, info = env.reset()
    assert info["launch"] == "recorded"
    assert env.unwrapped.get_state() == recorded  # bitwise
    assert not info["off_course"] and abs(info["heading_error"]) < 1.2  # from before the trouble
    with pytest.raises(ValueError, match="share"):
        RecordedLaunches(trackfield.make("race_time_trial"), share=1.5)


def test_info_reports_each_tyre():
    env = trackfield.make("race_time_trial")
    obs, info = env.reset(seed=0)
    assert info["tyres_out"].shape == (4,) and info["tyre_off_s"].shape == (4,)
    for _ in range(100):
        obs, r, term, trunc, info = env.step(np.array([1.0, 1.0], np.float32))
    assert info["tyre_off_s"].max() > 0 and info["tyre_off_s"].max() >= info["off_course_s"]


def test_scenario_mix_keeps_fixed_shares_and_names_each_world():
    envs = trackfield.vector.make(scenarios={"race_1v1": 0.3, "race_time_trial": 0.7}, num_envs=10, num_threads=1)
    obs, info = envs.reset(seed=0)
    assert obs.shape == (10, 655)
    assert list(info["scenario"]) == ["race_1v1"] * 3 + ["race_time_trial"] * 7
    assert envs.counts == {"race_1v1": 3, "race_time_trial": 7}
    for _ in range(20):
        obs, rewards, term, trunc, info = envs.step(np.tile(np.array([1.0, 0.3], np.float32), (10, 1)))
        assert rewards.shape == (10,) and info["place"].shape == (10,)
    assert list(info["scenario"]) == ["race_1v1"] * 3 + ["race_time_trial"] * 7  # shares stay fixed
    assert info["place"][3:].max() == 0  # time-trial worlds have one car
    with pytest.raises(ValueError, match="positive share"):
        trackfield.vector.make(scenarios={"race_1v1": 0.0}, num_envs=4)
    with pytest.raises(ValueError, match="racing scenarios only"):
        trackfield.vector.make(scenarios={"academy_corner": 1.0}, num_envs=4)


def test_info_names_the_scenario_everywhere():
    assert trackfield.make("race_1v1").reset(seed=0)[1]["scenario"] == "race_1v1"
    envs = trackfield.vector.make("race_1v3", num_envs=2, num_threads=1)
    assert list(envs.reset(seed=0)[1]["scenario"]) == ["race_1v3", "race_1v3"]
    env = trackfield.parallel_env("race_1v3", agents=2)
    obs, infos = env.reset(seed=0)
    assert {info["scenario"] for info in infos.values()} == {"race_1v3"}


def test_penalties_are_earned_off_course_and_served_at_100_kmh():
    env = trackfield.make("race_time_trial", penalties=True, allow_reverse=True)  # the AI backs out of the grass
    obs, info = env.reset(seed=1)
    for _ in range(12):  # flat out, steering right: off the track at over 100 km/h
        obs, r, term, trunc, info = env.step(np.array([1.0, -0.15], np.float32))
    assert info["off_course"] and info["penalty_s"] > 0.1
    # The AI brings the car back; on the straights the limiter then holds it near 100 km/h
    # until the penalty is served.
    limited = []
    for _ in range(600):
        obs, r, term, trunc, info = env.step(env.ai_action())
        if info["penalty_s"] > 0 and not info["off_course"]:
            limited.append(info["speed_kmh"])
        if info["penalty_s"] == 0 and limited:
            break
    assert info["penalty_s"] == 0.0 and limited and max(limited) < 115
    for _ in range(100):  # served: full speed again
        obs, r, term, trunc, info = env.step(env.ai_action())
    assert max(info["speed_kmh"], 0) > 0 and trackfield.make("race_time_trial").reset(seed=1)[1]["penalty_s"] == 0.0


def test_points_follow_the_final_place():
    envs = trackfield.vector.make("race_field", num_envs=1, num_threads=1, laps=1, max_time_s=5.0, agents=2)
    envs.reset(seed=0)
    for _ in range(60):
        obs, r, term, trunc, info = envs.step(np.zeros((1, 2, 2), np.float32))
        if (term | trunc).any():
            break
    ep = info["episode"]
    places = np.asarray(ep["place"][0])
    expected = [[10, 8, 6, 5, 4, 3, 2, 1][p] if p < 8 else 0 for p in places]
    assert list(np.asarray(ep["points"][0])) == expected
    assert list(np.asarray(ep["team_points"][0])) == [sum(expected)] * 2


def test_reward_wrappers_add_their_component():
    from trackfield.wrappers import OffCourseReward, ProgressReward

    env = OffCourseReward(ProgressReward(trackfield.make("race_time_trial", reward={"progress": 0.0}), weight=0.1),
                          weight=1e-3, linear=True)
    env.reset(seed=0)
    for _ in range(30):
        obs, reward, term, trunc, info = env.step(np.array([1.0, -0.3], np.float32))
        c = info["reward_components"]
        assert reward == pytest.approx(0.1 * c["progress"] + 1e-3 * c["off_course_lin"], abs=1e-6)
    football = ProgressReward(trackfield.make("academy_empty_goal_close"))
    football.reset(seed=0)
    with pytest.raises(ValueError, match="progress"):
        football.step(0)


def test_max_off_course_s_ends_the_episode_on_leaving_the_course():
    env = trackfield.make("race_time_trial", track="technical", max_off_course_s=0.5)
    env.reset(seed=0)
    hard_left = np.array([1.0, 1.0], np.float32)
    for _ in range(300):
        _, _, terminated, truncated, info = env.step(hard_left)
        if terminated or truncated:
            break
    assert terminated and not truncated
    assert 0.5 < info["off_course_s"] <= 0.5 + 0.1 + 1e-6
    with pytest.raises(ValueError, match="max_off_course_s"):
        trackfield.make("race_time_trial", max_off_course_s=-1.0)


def test_backing_over_the_start_line_and_crossing_it_again_is_not_a_timed_lap():
    # The built-in driver backs out of a wall in reverse; near the line that crossed it
    # back and forth, and the demo printed a "best lap" of 4.6 s on the technical circuit.
    env = trackfield.make("race_time_trial", track="technical", allow_reverse=True, max_time_s=600)
    _, info = env.reset(seed=0)

    def drive(action, until, limit):
        nonlocal info
        for _ in range(limit):
            _, _, _, _, info = env.step(action() if callable(action) else action)
            if until(info):
                return True
        return False

    assert drive(env.ai_action, lambda i: i["lap"] == 1, 2000)  # the launch over the line
    assert drive(np.array([-1.0, 0.0], np.float32), lambda i: i["lap"] == 0, 300)  # backs over it
    assert drive(np.array([0.6, 0.0], np.float32), lambda i: i["lap"] == 1, 300)  # and over it again
    assert info["best_lap_s"] == 0.0 and info["last_lap_s"] == 0.0
    # A lap driven from there is timed from that last crossing.
    started = info["time_s"]
    assert drive(env.ai_action, lambda i: i["lap"] == 2, 3000)
    assert info["best_lap_s"] == pytest.approx(info["time_s"] - started, abs=0.11) and info["best_lap_s"] > 30.0
