"""The car physics as a driver feels it: coasting, top speed, braking, grip, reverse,
tyres out of bounds, walls, and the reference lap against a real GT3 at Monza."""
from pathlib import Path

import numpy as np
import pytest

from trackfield import _engine
from trackfield.racing import build_track, car_params, load_raceline, load_track, reference_lap_details
from trackfield.racing.track_files import TUM_DIR

TUM = TUM_DIR  # TUM's circuits and racing lines, shipped with the package
KMH = 1 / 3.6


def stadium(straight=1200.0, radius=150.0, half_width=6.0):
    """Two long straights joined by half circles, anticlockwise, 2 m spacing."""
    pts = []
    for s in np.arange(0, straight, 2.0):
        pts.append((s, -radius))
    for a in np.arange(0, np.pi, 2.0 / radius):
        pts.append((straight + radius * np.sin(a), -radius * np.cos(a)))
    for s in np.arange(0, straight, 2.0):
        pts.append((straight - s, radius))
    for a in np.arange(0, np.pi, 2.0 / radius):
        pts.append((-radius * np.sin(a), radius * np.cos(a)))
    xy = np.array(pts)
    n = len(xy)
    return build_track("stadium", xy[:, 0], xy[:, 1], np.full(n, half_width), np.full(n, half_width))


@pytest.fixture(scope="module")
def oval():
    return stadium().to_engine()


def sim_at(track, car="gt3", s=10.0, d=0.0, speed_kmh=0.0, heading=0.0):
    sim = _engine.racing.CarSim(track, car)
    sim.place(s, d, speed_kmh * KMH, heading)
    return sim


def test_coasting_slows_and_never_reverses(oval):
    sim = sim_at(oval, speed_kmh=150)
    speeds = []
    for _ in range(30):
        sim.step(0.0, 0.0, 10)
        speeds.append(sim.state["speed"])
    assert all(b < a for a, b in zip(speeds, speeds[1:]))
    assert 110 * KMH < speeds[-1] < 145 * KMH  # drag and rolling resistance only, 3 s
    assert sim.state["signed_speed"] >= 0


@pytest.mark.parametrize("car, lo, hi", [("road", 240, 295), ("gt3", 265, 310), ("prototype", 305, 350)])
def test_top_speed_is_that_of_the_car_class(oval, car, lo, hi):
    sim = sim_at(oval, car, s=0.0, speed_kmh=200)
    # 40 s flat out, kept on the straight by placing it back at its current speed each 10 s.
    top = 0.0
    for _ in range(40):
        v = sim.state["speed"]
        sim.place(0.0, 0.0, v, 0.0)
        sim.step(1.0, 0.0, 1000)
        top = max(top, sim.state["speed"])
    assert lo * KMH < top < hi * KMH, top / KMH


@pytest.mark.parametrize("car, lo, hi", [("road", 95, 150), ("gt3", 65, 110), ("prototype", 50, 100)])
def test_braking_from_200_kmh_stops_in_a_plausible_distance(oval, car, lo, hi):
    sim = sim_at(oval, car, s=0.0, speed_kmh=200)
    start = sim.state["s"]
    steps = 0
    while sim.state["speed"] > 0.5 and steps < 2000:
        sim.step(-1.0, 0.0)
        steps += 1
    distance = sim.state["s"] - start
    assert lo < distance < hi, distance
    assert max(abs(r) for r in sim.state["slip_ratio"]) <= 1.0


def test_acceleration_from_standstill(oval):
    sim = sim_at(oval, "gt3", s=0.0)
    sim.step(1.0, 0.0, 400)
    v = sim.state["speed"] / KMH
    assert 100 < v < 190, v  # a GT3 reaches 100 km/h in about 3.5 s
    sim.step(1.0, 0.0, 600)
    assert sim.state["gear"] >= 3 and sim.state["speed"] / KMH > 180


def test_cornering_beyond_grip_leaves_the_track(oval):
    # The 150 m radius half circle at 250 km/h needs about 3.3 g; a GT3 has about 2.
    sim = sim_at(oval, s=1100.0, speed_kmh=250)
    out = False
    for _ in range(60):
        # Steer for the curve: the geometric angle of a 150 m radius.
        sim.step(0.0, float(np.clip(2.6 / 150 / 0.35, -1, 1)), 10)
        out |= sum(sim.state["tyre_out"]) >= 3
    assert out
    # At 140 km/h (1 g) the same steering holds the curve.
    sim = sim_at(oval, s=1250.0, speed_kmh=140)
    for _ in range(30):
        st = sim.state
        steer = 2.6 / 150 / 0.35 - 0.05 * st["d"] - 0.5 * st["heading_error"]
        sim.step(0.15, float(np.clip(steer, -1, 1)), 10)
        assert sum(sim.state["tyre_out"]) == 0


def test_reverse_only_from_standstill_and_only_when_allowed(oval):
    sim = sim_at(oval, speed_kmh=30)
    sim.step(-1.0, 0.0, 300, allow_reverse=True)
    st = sim.state
    assert st["in_reverse"] and st["signed_speed"] < -1.0  # stopped, then backed away
    sim = sim_at(oval, speed_kmh=30)
    sim.step(-1.0, 0.0, 300)
    assert not sim.state["in_reverse"] and sim.state["speed"] == 0.0
    moving = sim_at(oval, speed_kmh=30)
    moving.step(-0.3, 0.0, 5, allow_reverse=True)
    assert not moving.state["in_reverse"]  # still rolling forwards: braking, not reverse
    sim = sim_at(oval, speed_kmh=0)
    sim.step(-1.0, 0.0, 100, allow_reverse=True)
    sim.step(1.0, 0.0, 200, allow_reverse=True)  # throttle stops it, then leaves reverse
    assert not sim.state["in_reverse"] and sim.state["signed_speed"] > 0


@pytest.mark.parametrize("shift, tyres", [(-0.8, 1), (0.0, 2), (0.75, 3)])
def test_tyres_out_of_bounds_one_by_one(oval, shift, tyres):
    # Nose 0.3 rad to the left; the left edge plus kerb is at 6 + 1 m.
    edge = 6.0 + stadium().kerb_width
    sim = sim_at(oval, s=400.0, d=edge + shift, speed_kmh=0, heading=0.3)
    out = sim.state["tyre_out"]
    assert sum(out) == tyres
    assert out[0]  # the front left is always the furthest out


def test_wall_deflects_with_energy_loss(oval):
    sim = sim_at(oval, s=300.0, d=10.0, speed_kmh=120, heading=0.4)
    hit = None
    for _ in range(200):
        sim.step(0.0, 0.0)
        if sim.state["wall_contact"]:
            hit = sim.state
            break
    assert hit is not None and hit["wall_impact_speed"] > 5.0
    assert hit["speed"] < 120 * KMH
    assert hit["d"] < 6.0 + stadium().wall_distance  # kept inside the wall


def test_slipstream_cuts_drag(oval):
    free, towed = sim_at(oval, s=0.0, speed_kmh=250), sim_at(oval, s=0.0, speed_kmh=250)
    free.step(0.0, 0.0, 200)
    towed.step(0.0, 0.0, 200, drag_scale=0.65)
    assert towed.state["speed"] > free.state["speed"] + 1.0


def test_bad_inputs_name_the_argument(oval):
    sim = sim_at(oval)
    with pytest.raises(ValueError, match="throttle_brake"):
        sim.step(float("nan"), 0.0)
    with pytest.raises(ValueError, match="steer"):
        sim.step(0.0, 1.5)
    with pytest.raises(ValueError, match="unknown car 'f1'.*road, gt3, prototype"):
        _engine.racing.CarSim(oval, "f1")


def test_car_classes_are_documented():
    gt3 = car_params("gt3")
    assert 330 < gt3["peak_power_kw"] < 400 and 1200 < gt3["mass"] < 1400
    assert car_params("prototype")["peak_power_kw"] > gt3["peak_power_kw"] > car_params("road")["peak_power_kw"]
    doc = (Path(__file__).resolve().parents[2] / "docs" / "racing_cars.md").read_text()
    for name in ("road", "gt3", "prototype"):
        assert f"`{name}`" in doc


def test_reference_lap_on_every_shipped_track():
    for name in ("technical", "gt", "speedway"):
        lap = reference_lap_details(name, "gt3")
        assert lap["completed"], name
        assert lap["off_course_s"] < 2.0 and lap["wall_s"] < 1.0, (name, lap)


@pytest.mark.skipif(not (TUM / "Monza.csv").exists(), reason="TUM's tracks not installed")
def test_monza_reference_lap_is_a_real_gt3_lap():
    track = load_track(TUM / "Monza.csv")
    lap = reference_lap_details(track, "gt3", raceline=TUM / "racelines" / "Monza.csv")
    # Real GT3 race laps at Monza are about 1:47 (107 s); within 5%.
    assert lap["completed"]
    assert 101.7 < lap["lap_time_s"] < 112.4, lap
    assert 270 < lap["top_speed_kmh"] < 290, lap


@pytest.mark.skipif(not (TUM / "Oschersleben.csv").exists(), reason="TUM's tracks not installed")
@pytest.mark.parametrize("name", ["Oschersleben", "Nuerburgring", "Suzuka", "Austin", "Norisring", "YasMarina"])
def test_reference_lap_stays_on_shared_tracks_that_it_used_to_leave(name):
    # These laps used to leave the track (4.6, 1.0 and 6.9 s with three tyres out; Suzuka
    # spun in the Spoon curve; Austin, Norisring and Yas Marina 0.34, 0.19 and 0.22 s over
    # the inside kerb of hairpins that narrow, following TUM's line to the edge).
    track = load_track(TUM / f"{name}.csv", crossings="bridge" if name == "Suzuka" else "error")
    lap = reference_lap_details(track, "gt3", raceline=TUM / "racelines" / f"{name}.csv")
    assert lap["completed"], lap
    assert lap["off_course_s"] == 0.0 and lap["wall_s"] == 0.0, lap
    assert lap["min_speed_kmh"] > 40.0, lap  # no spin: their slowest corners are taken at 55 km/h or more


@pytest.mark.skipif(not (TUM / "Sepang.csv").exists(), reason="TUM's tracks not installed")
@pytest.mark.parametrize("car, name", [("prototype", "YasMarina"), ("prototype", "Austin"), ("road", "Sepang")])
def test_other_classes_reference_laps_stay_on_without_spinning(car, name):
    # prototype left Yas Marina for 1.07 s and Austin for 0.85 s; road spun in Sepang's
    # long right-hander (one tyre on the grass while braking), slowest point 28 km/h.
    track = load_track(TUM / f"{name}.csv")
    lap = reference_lap_details(track, car, raceline=TUM / "racelines" / f"{name}.csv")
    assert lap["completed"], lap
    assert lap["off_course_s"] == 0.0 and lap["wall_s"] == 0.0, lap
    assert lap["min_speed_kmh"] > 40.0, lap
