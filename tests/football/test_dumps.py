"""Episode dumps (GRF's write_full_episode_dumps) and bit-identical replays."""
from __future__ import annotations

import json
import os
import zipfile

import numpy as np
import pytest

import trackfield
from trackfield.core.dumps import Dump, DumpError


def play_and_dump(tmp_path, name="academy_3_vs_1_with_keeper", seed=3, **config):
    env = trackfield.make(name, write_full_episode_dumps=True, logdir=str(tmp_path), **config)
    obs, _ = env.reset(seed=seed)
    seen = [obs]
    rng = np.random.default_rng(seed)
    while True:
        obs, _, terminated, truncated, _ = env.step(int(rng.integers(0, 19)))
        seen.append(obs)
        if terminated or truncated:
            break
    (path,) = env.dump_paths
    return path, seen


def test_dump_and_replay_are_identical(tmp_path):
    path, seen = play_and_dump(tmp_path)
    result = trackfield.replay(path, observations=True)
    assert result.steps == len(seen) - 1
    for a, b in zip(seen, result.observations):
        assert np.array_equal(a, b)


def test_dump_of_a_scenario_file_replays_without_the_file(tmp_path, scenario_file):
    scenario = scenario_file((0.5, 0.0), [(-1.0, 0.0, "GK"), (0.45, 0.0, "CF")], [(-1.0, 0.0, "GK")],
                             game_duration=30, end_episode_on_score=True)
    path, seen = play_and_dump(tmp_path / "dumps", scenario, representation="raw")
    os.remove(scenario)
    result = trackfield.replay(path, observations=True)
    for a, b in zip(seen, result.observations):
        assert all(np.array_equal(a[k], b[k]) for k in a)


def test_replay_writes_a_video_with_one_frame_per_step(tmp_path):
    pytest.importorskip("imageio_ffmpeg")
    import imageio_ffmpeg

    path, seen = play_and_dump(tmp_path, game_duration=25)
    video = str(tmp_path / "episode.mp4")
    result = trackfield.replay(path, video=video, width=320)
    frames, _ = imageio_ffmpeg.count_frames_and_secs(video)
    assert result.frames == len(seen) == frames


def test_each_episode_is_its_own_file_and_unfinished_ones_are_kept(tmp_path):
    env = trackfield.make("academy_empty_goal_close", write_full_episode_dumps=True, logdir=str(tmp_path))
    for seed in range(3):
        env.reset(seed=seed)
        for _ in range(3):
            env.step(0)
    env.close()
    assert len(env.dump_paths) == 3 and len(set(env.dump_paths)) == 3
    assert not Dump(env.dump_paths[-1]).header["finished"]


def _rewrite(path, out, **changes):
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    header = json.loads(arrays["header"].tobytes())
    for key, value in changes.items():
        if key in arrays and key != "header":
            arrays[key] = value
        elif value is None:
            del header[key]
        else:
            header[key] = value
    arrays["header"] = np.frombuffer(json.dumps(header).encode(), np.uint8)
    np.savez_compressed(out, **arrays)
    return str(out)


def test_bad_dumps_raise_naming_file_and_field(tmp_path):
    path, _ = play_and_dump(tmp_path / "d")
    data = open(path, "rb").read()
    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(DumpError, match="truncated.npz: not a readable trackfield dump"):
        trackfield.replay(str(truncated))
    garbage = tmp_path / "garbage.npz"
    garbage.write_bytes(b"PK\x03\x04" + bytes(100))
    with pytest.raises(DumpError, match="garbage.npz"):
        trackfield.replay(str(garbage))
    with pytest.raises(DumpError, match=r"dump format version 99; this trackfield \(.*\) reads version 1"):
        trackfield.replay(_rewrite(path, tmp_path / "v99.npz", version=99))
    with pytest.raises(DumpError, match="field 'header.config' is missing"):
        trackfield.replay(_rewrite(path, tmp_path / "noconfig.npz", config=None))
    with pytest.raises(DumpError, match="field 'rewards' holds"):
        trackfield.replay(_rewrite(path, tmp_path / "short.npz", rewards=np.zeros((1, 1), np.float32)))
    with pytest.raises(DumpError, match="initial_state"):
        trackfield.replay(_rewrite(path, tmp_path / "state.npz", initial_state=np.zeros(40, np.uint8)))
    with np.load(path) as d:
        actions = d["actions"].copy()
    actions[0] = (actions[0] + 9) % 19
    actions[1:] = (actions[1:] + 5) % 19
    with pytest.raises(DumpError, match="replay diverged at step"):
        trackfield.replay(_rewrite(path, tmp_path / "edited.npz", actions=actions))
    with pytest.raises(FileNotFoundError, match="no such dump"):
        trackfield.replay(str(tmp_path / "missing.npz"))
    with zipfile.ZipFile(tmp_path / "empty.npz", "w"):
        pass
    with pytest.raises(DumpError, match="field 'header' is missing"):
        trackfield.replay(str(tmp_path / "empty.npz"))


@pytest.mark.parametrize("bad", [dict(write_full_episode_dumps=1), dict(logdir=3)])
def test_bad_dump_config(bad):
    with pytest.raises(TypeError):
        trackfield.make("academy_empty_goal_close", **bad)
