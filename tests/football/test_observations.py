"""Observation layouts (GRF's simple115v2, SMM and raw), checked against each other on
identical states: two envs with the same seed and actions are in the same state."""
from __future__ import annotations

import numpy as np
import pytest

import trackfield

SCENARIOS = ["academy_empty_goal_close", "academy_3_vs_1_with_keeper", "academy_corner",
             "academy_counterattack_hard", "academy_run_to_score_with_keeper"]
ROLES = dict(GK=0, CB=1, LB=2, RB=3, DM=4, CM=5, LM=6, RM=7, AM=8, CF=9)


def paired(name, representations, seed, steps, stacked=(), **config):
    """Yields per step a dict representation -> observation for envs driven identically.

    Episodes that end are reset (unseeded) in every env, so the states stay equal.
    """
    envs = {}
    for rep in representations:
        envs[rep] = trackfield.make(name, representation=rep, **config)
    for rep in stacked:
        envs[rep + "_stacked"] = trackfield.make(name, representation=rep, stacked=True, **config)
    obs = {k: e.reset(seed=seed)[0] for k, e in envs.items()}
    yield obs, "reset"
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        a = int(rng.integers(0, 19))
        results = {k: e.step(a) for k, e in envs.items()}
        yield {k: r[0] for k, r in results.items()}, "step"
        done = {r[2] or r[3] for r in results.values()}
        assert len(done) == 1, "identical envs disagree on the episode end"
        if done.pop():
            yield {k: e.reset()[0] for k, e in envs.items()}, "reset"


def expected_simple115(raw):
    """GRF's simple115v2 built by hand from a raw observation."""
    out = []
    for key in ("left_team", "left_team_direction", "right_team", "right_team_direction"):
        block = -np.ones(22, dtype=np.float32)
        values = raw[key].reshape(-1)
        block[:values.size] = values
        out.append(block)
    out.append(raw["ball"])
    out.append(raw["ball_direction"])
    owned = np.zeros(3, dtype=np.float32)
    owned[int(raw["ball_owned_team"]) + 1] = 1
    out.append(owned)
    active = np.zeros(11, dtype=np.float32)
    if raw["active"] >= 0:
        active[int(raw["active"])] = 1
    out.append(active)
    mode = np.zeros(7, dtype=np.float32)
    mode[int(raw["game_mode"])] = 1
    out.append(mode)
    return np.concatenate(out)


@pytest.mark.parametrize("name", SCENARIOS)
def test_simple115v2_layout_matches_raw(name):
    seen_owned, seen_modes = set(), set()
    for obs, _ in paired(name, ("raw", "simple115v2"), seed=3, steps=400):
        raw, vec = obs["raw"], obs["simple115v2"]
        assert vec.shape == (115,) and vec.dtype == np.float32
        n_left, n_right = len(raw["left_team"]), len(raw["right_team"])
        # 0-21 left positions, -1 padding for missing players
        assert np.array_equal(vec[0:2 * n_left], raw["left_team"].reshape(-1))
        assert np.all(vec[2 * n_left:22] == -1)
        assert np.array_equal(vec[22:22 + 2 * n_left], raw["left_team_direction"].reshape(-1))
        assert np.all(vec[22 + 2 * n_left:44] == -1)
        assert np.array_equal(vec[44:44 + 2 * n_right], raw["right_team"].reshape(-1))
        assert np.all(vec[44 + 2 * n_right:66] == -1)
        assert np.array_equal(vec[66:66 + 2 * n_right], raw["right_team_direction"].reshape(-1))
        assert np.all(vec[66 + 2 * n_right:88] == -1)
        # 88-90 ball, 91-93 ball direction
        assert np.array_equal(vec[88:91], raw["ball"])
        assert np.array_equal(vec[91:94], raw["ball_direction"])
        # 94-96 ownership one-hot [nobody, left, right]
        owned = vec[94:97]
        assert owned.sum() == 1 and owned[int(raw["ball_owned_team"]) + 1] == 1
        seen_owned.add(int(raw["ball_owned_team"]))
        # 97-107 active player one-hot
        assert vec[97:108].sum() == 1 and vec[97 + int(raw["active"])] == 1
        # 108-114 game mode one-hot
        assert vec[108:115].sum() == 1 and vec[108 + int(raw["game_mode"])] == 1
        seen_modes.add(int(raw["game_mode"]))
        assert np.array_equal(vec, expected_simple115(raw))
    assert len(seen_owned) >= 2  # the ball was loose and owned at some point


def test_simple115v2_covers_stoppages():
    # Academy flags off: the game goes through set pieces, whose mode must be one-hot too.
    # Played until a stoppage has been seen (random play reaches one within a few episodes).
    modes = set()
    for step, (obs, _) in enumerate(paired("academy_3_vs_1_with_keeper", ("raw", "simple115v2"), seed=0,
                                           steps=4000, end_episode_on_out_of_play=False,
                                           end_episode_on_possession_change=False, end_episode_on_score=False)):
        assert np.array_equal(obs["simple115v2"], expected_simple115(obs["raw"]))
        modes.add(int(obs["raw"]["game_mode"]))
        if len(modes) >= 2 and step >= 600:
            break
    assert len(modes) >= 2


@pytest.mark.parametrize("name", ["academy_3_vs_1_with_keeper", "academy_corner"])
def test_raw_observation_fields(name):
    env = trackfield.make(name, representation="raw")
    scenario = env.unwrapped.scenario.config
    obs, _ = env.reset(seed=0)
    n_left, n_right = scenario.num_players(0), scenario.num_players(1)
    assert obs["left_team"].shape == (n_left, 2) and obs["right_team"].shape == (n_right, 2)
    assert obs["left_team_roles"].tolist() == [p[2] for p in scenario.players(0)]
    assert obs["right_team_roles"].tolist() == [p[2] for p in scenario.players(1)]
    # starting positions as GRF observes them: its engine places a player at x times
    # pitchHalfW (55 m) and y times 2.36 x pitchHalfH (36 m), the ball at the scenario's
    # coordinates times 54.4 / 83.6 m, and observes metres / 54.4 and / 83.6; the right
    # team mirrored into the left team's frame
    player_scale = np.array([55.0 / 54.4, 2.36 * 36.0 / 83.6])
    ball_scale = np.array([1.0, 1.0])
    left = np.array([p[:2] for p in scenario.players(0)]) * player_scale
    right = -np.array([p[:2] for p in scenario.players(1)]) * player_scale
    assert np.allclose(obs["left_team"], left, atol=1e-6)
    assert np.allclose(obs["right_team"], right, atol=1e-6)
    assert np.allclose(obs["ball"][:2], np.array([scenario.ball_x, scenario.ball_y]) * ball_scale, atol=1e-6)
    assert obs["left_team_active"].all() and obs["right_team_active"].all()
    assert obs["left_team_active"].dtype == np.bool_
    assert not obs["left_team_tired_factor"].any() and not obs["left_team_yellow_card"].any()
    assert obs["score"].tolist() == [0, 0]
    assert obs["steps_left"] == scenario.game_duration + 1  # GRF: step() calls left
    assert obs["left_team_yellow_card"].dtype == np.bool_ and obs["sticky_actions"].dtype == np.uint8
    assert obs["game_mode"] == 0
    assert obs["designated"] == obs["active"]
    assert 0 <= obs["active"] < n_left
    assert not obs["ball_rotation"].any()


def test_raw_positions_stay_on_grf_pitch():
    env = trackfield.make("academy_counterattack_easy", representation="raw",
                          end_episode_on_out_of_play=False, end_episode_on_possession_change=False)
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(500):
        obs, _, terminated, truncated, _ = env.step(int(rng.integers(0, 19)))
        # players may run 2.5 m past the lines (GRF's lines at 1.011 / 0.4306 in these
        # units; its players were seen up to 1.046 / 0.446 under the random protocol)
        for key in ("left_team", "right_team"):
            assert np.all(np.abs(obs[key][:, 0]) <= 55.0 / 52.5 * 55.0 / 54.4 + 1e-4)
            assert np.all(np.abs(obs[key][:, 1]) <= 36.5 / 34.0 * 36.0 / 83.6 + 1e-4)
        if terminated or truncated:
            env.reset()


def test_first_observation_is_grfs():
    # GRF 2.10.2's first raw observation of academy_3_vs_1_with_keeper (seed 0), measured:
    # the players where its engine places them in its observation units, the ball at the
    # file's numbers, 401 step() calls left.
    obs, _ = trackfield.make("academy_3_vs_1_with_keeper", representation="raw").reset(seed=0)
    assert np.allclose(obs["ball"], [0.62, 0.0, 0.1106], atol=1e-3)
    assert np.allclose(obs["left_team"], [[-1.011, 0.0], [0.6066, 0.0], [0.7077, 0.2033], [0.7077, -0.2033]],
                       atol=1e-3)
    assert np.allclose(obs["right_team"], [[1.011, 0.0], [0.7583, 0.0]], atol=1e-3)
    assert obs["steps_left"] == 401 and obs["ball_owned_team"] == -1


def test_ball_height_is_its_centre_as_grf_reports_it():
    # GRF's raw and simple115v2 ball z is the ball's centre: 0.11 m while it lies on the
    # grass (measured on GRF 2.10.2 at every academy reset), more in flight, never less
    # than the ball being squashed on a bounce would give.
    env = trackfield.make("academy_empty_goal_close", representation="raw")
    obs, _ = env.reset(seed=0)
    assert obs["ball"][2] == pytest.approx(0.11)
    simple = trackfield.make("academy_empty_goal_close", representation="simple115v2")
    flat, _ = simple.reset(seed=0)
    assert flat[90] == pytest.approx(0.11)
    heights = []
    for _ in range(60):
        obs, _, terminated, truncated, _ = env.step(10)  # high pass: the ball leaves the grass
        heights.append(obs["ball"][2])
        if terminated or truncated:
            break
    assert min(heights) >= 0.11 - 1e-6 and max(heights) > 1.0


def smm_pixel(x, y):
    """GRF's SMM pixel of a point: col = int((x + 1) / 2 * 96), row = int((y + 0.42) / 0.84 * 72)."""
    f = np.float32
    col = int((f(x) + f(1.0)) * f(0.5) * f(96))
    row = int((f(y) + f(0.42)) / f(0.84) * f(72))
    return min(max(row, 0), 71), min(max(col, 0), 95)


def expected_smm_marks(raw):
    own = {smm_pixel(*p) for p, on in zip(raw["left_team"], raw["left_team_active"]) if on}
    opp = {smm_pixel(*p) for p, on in zip(raw["right_team"], raw["right_team_active"]) if on}
    ball = {smm_pixel(*raw["ball"][:2])}
    active = {smm_pixel(*raw["left_team"][int(raw["active"])])} if raw["active"] >= 0 else set()
    return [own, opp, ball, active]


@pytest.mark.parametrize("name", SCENARIOS)
def test_smm_planes_mark_each_entity(name):
    for obs, _ in paired(name, ("raw", "smm"), seed=5, steps=300):
        smm = obs["smm"]
        assert smm.shape == (72, 96, 4) and smm.dtype == np.uint8
        assert set(np.unique(smm)) <= {0, 255}
        for channel, expected in enumerate(expected_smm_marks(obs["raw"])):
            marked = {tuple(rc) for rc in np.argwhere(smm[:, :, channel] == 255)}
            assert marked == expected, f"channel {channel}"


def test_smm_pixel_convention_on_constructed_positions(scenario_file):
    # Players at known spots: corners of the pitch and the centre.
    path = scenario_file((0.0, 0.0), [(-1.0, 0.0, "GK"), (1.0, 0.42, "CF"), (0.5, -0.21, "CM")],
                         [(-1.0, -0.42, "GK"), (0.25, 0.1, "CB")], game_duration=10)
    env = trackfield.make(path, representation="smm")
    smm, _ = env.reset(seed=0)
    own = {tuple(rc) for rc in np.argwhere(smm[:, :, 0])}
    assert own == {(36, 0), (71, 95), (18, 72)}
    opp = {tuple(rc) for rc in np.argwhere(smm[:, :, 1])}
    # right team mirrored: (-1, -0.42) own frame is (1, 0.42); (0.25, 0.1) is (-0.25, -0.1)
    assert opp == {(71, 95), (27, 36)}
    assert {tuple(rc) for rc in np.argwhere(smm[:, :, 2])} == {(36, 48)}


def test_smm_right_agent_sees_its_team_in_channel_0():
    env = trackfield.make("academy_3_vs_1_with_keeper", representation="smm",
                          number_of_left_players_agent_controls=1, number_of_right_players_agent_controls=1)
    obs, _ = env.reset(seed=0)
    assert obs.shape == (2, 72, 96, 4)
    assert np.count_nonzero(obs[0, :, :, 0]) == 4 and np.count_nonzero(obs[0, :, :, 1]) == 2
    assert np.count_nonzero(obs[1, :, :, 0]) == 2 and np.count_nonzero(obs[1, :, :, 1]) == 4
    # 180-degree rotation: agent 1's own-team plane is agent 0's opponent plane turned around
    # (up to the one-pixel shift of integer binning)
    rows, cols = np.nonzero(obs[0, :, :, 1])
    for r, c in zip(rows, cols):
        window = obs[1, max(0, 71 - r - 1):72 - r + 1, max(0, 95 - c - 1):96 - c + 1, 0]
        assert window.any()


@pytest.mark.parametrize("name", ["academy_3_vs_1_with_keeper", "academy_corner"])
def test_stacked_smm(name):
    prev = None
    for obs, kind in paired(name, ("smm",), seed=2, steps=150, stacked=("smm",)):
        single, stacked = obs["smm"], obs["smm_stacked"]
        assert stacked.shape == (72, 96, 16) and stacked.dtype == np.uint8
        # channels grouped by frame, oldest first: the newest frame is the last 4 channels
        assert np.array_equal(stacked[..., 12:16], single)
        if kind == "reset":
            for t in range(3):
                assert np.array_equal(stacked[..., 4 * t:4 * t + 4], single)
        else:
            assert np.array_equal(stacked[..., 0:12], prev[..., 4:16])
        prev = stacked


@pytest.mark.parametrize("name", ["academy_3_vs_1_with_keeper", "academy_corner"])
def test_stacked_simple115v2(name):
    history = []
    for obs, kind in paired(name, ("simple115v2",), seed=4, steps=150, stacked=("simple115v2",)):
        single, stacked = obs["simple115v2"], obs["simple115v2_stacked"]
        assert stacked.shape == (460,) and stacked.dtype == np.float32
        assert np.array_equal(stacked[345:460], single)
        if kind == "reset":
            history = [single] * 4
            assert np.array_equal(stacked[0:115], single)
        else:
            history = history[1:] + [single]
        assert np.array_equal(stacked, np.concatenate(history))


def test_stacked_vector_env_replicates_frames_at_autoreset():
    envs = trackfield.vector.make("academy_empty_goal_close", num_envs=4, num_threads=1, stacked=True)
    obs, _ = envs.reset(seed=0)
    assert obs.shape == (4, 460)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(400):
        obs, _, terminated, truncated, info = envs.step(rng.integers(0, 19, 4))
        for i in np.flatnonzero(terminated | truncated):
            frames = obs[i].reshape(4, 115)
            assert all(np.array_equal(frames[0], f) for f in frames[1:])
            final = info["final_obs"][i].reshape(4, 115)
            assert not np.array_equal(final[3], frames[3])
            ended += 1
    assert ended > 0


def test_two_left_agents_control_different_players():
    env = trackfield.make("academy_3_vs_1_with_keeper", number_of_left_players_agent_controls=2)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(300):
        a0, a1 = np.argmax(obs[0, 97:108]), np.argmax(obs[1, 97:108])
        assert obs[0, 97:108].sum() == 1 and obs[1, 97:108].sum() == 1
        assert a0 != a1
        # everything but the active one-hot is shared
        assert np.array_equal(obs[0, :97], obs[1, :97]) and np.array_equal(obs[0, 108:], obs[1, 108:])
        obs, _, terminated, truncated, _ = env.step(rng.integers(0, 19, 2))
        if terminated or truncated:
            obs, _ = env.reset()
