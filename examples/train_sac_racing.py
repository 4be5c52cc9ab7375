"""Train Stable-Baselines3 SAC to drive a clean lap, as GT Sophy's time trials began.

    python examples/train_sac_racing.py --steps 200000 --track technical

SAC (GT Sophy's algorithm family: off-policy, maximum entropy) on ``race_time_trial``
with the ``time_trial`` reward preset and the ``features`` observation. Eight worlds
step in one C++ call through the SB3 adapter; SAC takes two gradient steps (batches of
128 on 64-64 networks) per eight transitions, which keeps the updates, not the
simulation, the cost on a laptop CPU. Training episodes are 30 s from a rolling launch
at a random point of the lap (many launches, so the whole lap is seen early) and end
after 1 s off course (a car stuck in the gravel teaches nothing; ending at the first
tenth off course made the policy learn to stop before hard corners). At the end the
greedy policy drives from three of the scenario's launches for up to 150 s each, and the
script prints for each whether it completed a clean lap (a lap's length with no time off
course under the three-tyre rule), how long it took and its off-course time. Needs the
[train] extra.

The policy sees 203 of the 655 features (POLICY_FIELDS below): the first layer over the
whole vector was most of SAC's update cost on a CPU.

``--check-every 20000 --check-from 60000`` checks the three launches every 20k steps from
60k on and stops at the first clean lap, as tests/racing/test_racing_learnability.py does
(budget 240k). Measured: seed 0 drives its first clean lap at 100k steps (403 s of CPU,
checks included); seeds 1 and 2 at 160k, from all three launches. ``--reward`` takes a
racing preset or a reward file (``trackfield.reward_design.preset("gt7_baseline")``).
"""
from __future__ import annotations

import argparse
import time

import numpy as np


# The parts of the 655 ``features`` the policy sees: the car's own motion, tyres and
# controls, its place on the track, and every second point of the three track lines in
# the horizontal plane (180 of their 540 numbers). The first layer over the full vector
# was most of SAC's update cost on a CPU.
POLICY_FIELDS = {
    "velocity": None, "angular_velocity": None, "tyre_slip_angle": None, "tyre_slip_ratio": None,
    "heading_error": None, "centre_offset": None, "signed_speed": None, "last_controls": None, "flags": None,
    "left_edge": (slice(None, None, 2), [0, 1]), "centre_line": (slice(None, None, 2), [0, 1]),
    "right_edge": (slice(None, None, 2), [0, 1]),
}


def policy_index():
    from trackfield.racing import feature_index

    return feature_index(POLICY_FIELDS)


def keep_policy_fields(venv):
    """An SB3 VecEnv whose observations (terminal ones included) are POLICY_FIELDS only."""
    import gymnasium
    from stable_baselines3.common.vec_env import VecEnvWrapper

    index = policy_index()

    class KeepFields(VecEnvWrapper):
        def __init__(self):
            space = gymnasium.spaces.Box(-np.inf, np.inf, (len(index),), np.float32)
            super().__init__(venv, observation_space=space)

        def reset(self):
            return self.venv.reset()[:, index]

        def step_wait(self):
            obs, rewards, dones, infos = self.venv.step_wait()
            for info in infos:
                if "terminal_observation" in info:
                    info["terminal_observation"] = info["terminal_observation"][index]
            return obs[:, index], rewards, dones, infos

    return KeepFields()


def train(track="technical", steps=200_000, num_envs=8, seed=0, verbose=0, logdir=None, progress_bar=False,
          check_every=None, check_from=100_000, reward="time_trial", callbacks=()):
    """SAC on ``race_time_trial``. With ``check_every``, from ``check_from`` steps on, the
    greedy policy drives the three check launches every ``check_every`` steps and training
    stops at the first clean lap (``model.clean_lap_at`` holds that step, else None;
    ``model.checks`` every check's results)."""
    import torch
    from stable_baselines3 import SAC
    from stable_baselines3.common.callbacks import BaseCallback

    import trackfield
    from trackfield.core.sb3 import to_sb3

    torch.set_num_threads(1)
    venv = keep_policy_fields(to_sb3(trackfield.vector.make(
        "race_time_trial", num_envs=num_envs, num_threads=1, track=track, reward=reward, max_time_s=30.0,
        max_off_course_s=1.0)))
    venv.seed(seed)
    model = SAC("MlpPolicy", venv, learning_rate=1e-3, buffer_size=300_000, learning_starts=min(2_000, steps // 2),
                batch_size=128, gamma=0.98, tau=0.02, train_freq=1, gradient_steps=2, seed=seed, verbose=verbose,
                policy_kwargs={"net_arch": [64, 64]}, tensorboard_log=logdir)
    model.clean_lap_at, model.checks = None, []

    class StopAtCleanLap(BaseCallback):
        def __init__(self):
            super().__init__()
            self.next_check = check_from

        def _on_step(self):
            if check_every is None or self.num_timesteps < self.next_check:
                return True
            self.next_check += check_every
            laps = [clean_lap(self.model, track, seed=launch) for launch in CHECK_LAUNCHES]
            self.model.checks.append((self.num_timesteps, laps))
            if any(clean for clean, _, _ in laps):
                self.model.clean_lap_at = self.num_timesteps
                return False
            return True

    model.learn(total_timesteps=steps, progress_bar=progress_bar, tb_log_name="sac",
                callback=[StopAtCleanLap(), *callbacks])
    return model


CHECK_LAUNCHES = (1, 2, 3)  # reset seeds of the launches the greedy policy is checked from


def clean_lap(model, track="technical", seconds=150.0, seed=1):
    """Drives the greedy policy from the scenario's launch until it has covered one lap
    length; (clean lap done, seconds it took, off-course seconds)."""
    import trackfield

    env = trackfield.make("race_time_trial", track=track, max_time_s=seconds)
    obs, info = env.reset(seed=seed)
    length = env.unwrapped.track.length
    index = policy_index()
    while True:
        action, _ = model.predict(obs[index], deterministic=True)
        obs, reward, terminated, truncated, info = env.step(action)
        if info["progress_m"] >= length or terminated or truncated:
            break
    lap_done = info["progress_m"] >= length
    return lap_done and info["off_course_s"] == 0.0, info["time_s"] if lap_done else None, info["off_course_s"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--track", default="technical", help="a shipped circuit or a track file")
    parser.add_argument("--steps", type=int, default=200_000, help="env-step budget")
    parser.add_argument("--envs", type=int, default=8, help="worlds in the vector env")
    parser.add_argument("--seed", type=int, default=0, help="seed of the envs and the learner")
    parser.add_argument("--reward", default="time_trial",
                        help="a racing preset or a reward file, e.g. the path of trackfield.reward_design.preset('gt7_baseline')")
    parser.add_argument("--logdir", default=None, help="TensorBoard logs go here")
    parser.add_argument("--check-every", type=int, default=None,
                        help="from --check-from steps on, check the launches this often and stop at the first clean lap")
    parser.add_argument("--check-from", type=int, default=100_000, help="steps before the first lap check")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    model = train(args.track, args.steps, args.envs, args.seed, logdir=args.logdir, progress_bar=False,
                  check_every=args.check_every, check_from=args.check_from, reward=args.reward)
    if args.check_every:
        for at, laps in model.checks:
            print(f"check at {at}: " + ", ".join(f"{'clean' if c else 'not clean'} ({off:.1f} s off)" for c, _, off in laps))
        print(f"first clean lap at {model.clean_lap_at} steps" if model.clean_lap_at else "no clean lap")
    print(f"trained {args.steps} steps in {time.perf_counter() - start:.0f} s")
    laps = [clean_lap(model, args.track, seed=seed) for seed in CHECK_LAUNCHES]
    for seed, (clean, lap_s, off_s) in zip(CHECK_LAUNCHES, laps):
        print(f"  launch {seed}: clean lap: {clean}, lap time: {lap_s}, off course: {off_s:.1f} s")
    return any(clean for clean, _, _ in laps)


if __name__ == "__main__":
    main()
