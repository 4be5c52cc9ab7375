"""render_view="ego": a readable view that follows the ego; the ego always visible in the
whole-town view."""
import numpy as np
import pytest

import trackfield

EGO = (255, 225, 0)
RED = (240, 40, 40)
WINDSCREEN = (230, 240, 250)
SIZE = 480


def ego_env(**kwargs):
    return trackfield.make("town_drive", render_mode="rgb_array", render_view="ego", **kwargs)


def mask(frame, colour):
    return (frame == colour).all(axis=2)


def test_ego_view_is_a_square_rgb_frame_of_render_width():
    env = ego_env()
    env.reset(seed=0)
    frame = env.render()
    assert frame.shape == (SIZE, SIZE, 3) and frame.dtype == np.uint8
    env = ego_env(render_width=200)
    env.reset(seed=0)
    assert env.render().shape == (200, 200, 3)


def test_the_ego_sits_at_the_centre_heading_up():
    env = ego_env()
    for seed in range(3):
        env.reset(seed=seed)
        frame = env.render()
        c = SIZE // 2
        assert mask(frame[c - 2:c + 2, c - 2:c + 2], EGO).any(), seed
        # The windscreen band is at the front of the ego's box: above the centre, not below.
        rows = np.nonzero(mask(frame[c - 40:c + 40, c - 20:c + 20], WINDSCREEN).any(axis=1))[0] + c - 40
        assert len(rows) and rows.max() < c, seed


def test_turning_the_ego_turns_the_world_in_the_frame():
    env = ego_env()
    env.reset(seed=1)
    batch = env.unwrapped._engine.batch
    x, y, h = batch.vehicles(0)[0, :3]
    frames = []
    for turn in (0.0, np.pi / 2):
        batch.place_vehicle(0, 0, x, y, h + turn, 0.0)
        frames.append(env.render().copy())
    keep = np.ones((SIZE, SIZE), bool)
    keep[:60, :] = keep[:, :60] = False  # the text box, whichever corner it lands in
    keep[200:280, 200:280] = False      # the ego itself
    keep &= np.rot90(keep, 1) & np.rot90(keep, -1)
    same = lambda a, b: (a == b).all(axis=2)[keep].mean()
    # Heading 90 degrees to the left: the world turns 90 degrees to the right in the frame.
    turned = np.rot90(frames[1], 1)
    assert same(turned, frames[0]) > 0.95
    assert same(frames[1], frames[0]) < same(turned, frames[0]) - 0.1


def test_a_red_light_ahead_shows_red_ahead_of_the_ego():
    env = ego_env()
    for seed in range(40):
        obs, _ = env.reset(seed=seed)
        for _ in range(60):
            light = obs[320:325]  # mask, distance (/100 m), green, yellow, red of the first light ahead
            if light[0] > 0 and light[4] > 0 and light[1] * 100 < 20:
                frame = env.render()
                red = mask(frame, RED)
                assert red[:SIZE // 2].sum() > 30  # ahead is up
                return
            obs, _, terminated, truncated, _ = env.step(env.ai_action())
            if terminated or truncated:
                break
    pytest.fail("no red light ahead within 20 m in 40 seeded episodes")


def test_bad_render_view_raises_naming_the_choices():
    with pytest.raises(ValueError, match=r"render_view must be one of \['town', 'ego'\], got 'birdseye'"):
        trackfield.make("town_drive", render_view="birdseye")


def test_the_ego_is_ringed_in_the_town_view_of_a_large_map():
    env = trackfield.make("town_drive", map="Town04", render_mode="rgb_array")
    env.reset(seed=0)
    batch = env.unwrapped._engine.batch
    x0, y0, ppm = batch.render_view(0, SIZE)
    assert ppm < 0.6  # a 4 m car is about 2 px long here
    x, y = batch.vehicles(0)[0, :2]
    col, row = int((x - x0) * ppm), int((y0 - y) * ppm)
    near = mask(env.render()[max(row - 12, 0):row + 13, max(col - 12, 0):col + 13], EGO)
    assert near.sum() >= 40


def test_vector_and_parallel_envs_render_the_ego_view():
    vec = trackfield.vector.make("town_self_play", num_envs=2, agents=3, render_mode="rgb_array",
                                 render_view="ego", render_width=128)
    vec.reset(seed=0)
    frames = vec.render()
    assert len(frames) == 2 and all(f.shape == (128, 128, 3) for f in frames)
    assert all(mask(f[60:68, 60:68], EGO).any() for f in frames)
    par = trackfield.parallel_env("town_self_play", agents=3, render_mode="rgb_array", render_view="ego",
                                  render_width=128)
    par.reset(seed=0)
    assert mask(par.render()[60:68, 60:68], EGO).any()


def test_render_ego_centres_on_the_slot_it_is_given():
    env = trackfield.vector.make("town_self_play", num_envs=1, agents=3)
    env.reset(seed=0)
    batch = env._engine.batch
    for slot in (0, 1, 2):
        frame = batch.render_ego(0, SIZE, slot)
        assert mask(frame[236:244, 236:244], EGO).any(), slot
    with pytest.raises(ValueError, match="slot"):
        batch.render_ego(0, SIZE, 150)


def test_human_mode_shows_the_ego_view(monkeypatch):
    pygame = pytest.importorskip("pygame")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    for env in (trackfield.make("town_drive", render_mode="human", render_view="ego", render_width=96),
                trackfield.vector.make("town_self_play", num_envs=1, agents=2, render_mode="human",
                                       render_view="ego", render_width=96),
                trackfield.parallel_env("town_self_play", agents=2, render_mode="human", render_view="ego",
                                        render_width=96)):
        env.reset(seed=0)
        assert env.render() is None
        shown = pygame.surfarray.array3d(pygame.display.get_surface()).swapaxes(0, 1)
        assert mask(shown[44:52, 44:52], EGO).any()  # the ego at the window's centre
        env.close()


GOAL = (230, 60, 220)
ROUTE = (70, 200, 255)


def test_route_and_goal_are_drawn_and_a_far_goal_is_pointed_at():
    near = ego_env(goal_distance=(15.0, 25.0), waypoints=0)
    near.reset(seed=0)
    frame = near.render()
    assert mask(frame, GOAL).sum() > 200  # a 2 m disc at 8 px/m
    assert mask(frame, ROUTE).sum() > 50
    far = ego_env(waypoints=0)
    for seed in range(10):
        far.reset(seed=seed)
        batch = far.unwrapped._engine.batch
        x, y = batch.vehicles(0)[0, :2]
        goals, current = batch.goals(0, 0)
        gx, gy = goals[current][2:4]
        if np.hypot(gx - x, gy - y) < 60:
            continue
        goal = mask(far.render(), GOAL)
        assert 20 < goal.sum() < 400, seed  # the arrowhead ...
        assert not goal[40:-40, 40:-40].any(), seed  # ... at the frame's edge
        return
    pytest.fail("no episode with a goal 60 m away in 10 seeds")
