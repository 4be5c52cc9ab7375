"""The reward-design loop of "Automated Reward Design for Gran Turismo" on trackfield.

    python examples/reward_design_loop.py --base-url http://localhost:8000/v1 --model my-model
    python examples/reward_design_loop.py --dry-run     # TEST DOUBLES, no model, no network

Each of K iterations: a generator model writes M reward files from the typed state API
(``api_source()``); each is checked with ``check_runnable`` and regenerated with the
error until it runs; the N with the best trajectory alignment (TAC) with stored
preferences are trained (``train(reward_path, steps)``, by default SB3 SAC on
``race_time_trial``); each trained policy drives a recorded race; a judge compares all
pairs of agents on side-by-side clips; Bradley-Terry ranks them; the best agent's
diagnostics and a human's feedback seed the next iteration's improvement prompts.

Nothing model-related ships with trackfield: ``--base-url``/``--model`` name any
OpenAI-compatible endpoint (key from ``--api-key-env``); ``--dry-run`` uses the
``trackfield.reward_design.testing`` doubles (canned files, a judge preferring the car
that got further) and a stand-in trainer, to show the plumbing.
"""
from __future__ import annotations

import argparse
import os
import zlib

import numpy as np

import trackfield
from trackfield.reward_design import (PreferenceSet, TrajectoryRecorder, Window, all_pairs,
                                      bradley_terry, check_runnable, export_clips, load_reward, preset, prompts,
                                      rescore, top_n)

GOAL = "Win races against the built-in AI cleanly: make progress, stay on course, avoid walls and contact."


def sac_train(reward_path: str, steps: int, seed: int = 0):
    """SB3 SAC on race_time_trial with the reward file (the [train] extra)."""
    from stable_baselines3 import SAC

    from trackfield.core.sb3 import to_sb3

    venv = to_sb3(trackfield.vector.make("race_time_trial", num_envs=8, num_threads=1, reward=reward_path,
                                         max_time_s=30.0, max_off_course_s=1.0))
    venv.seed(seed)
    model = SAC("MlpPolicy", venv, learning_rate=1e-3, batch_size=128, gamma=0.98, tau=0.02, gradient_steps=2,
                seed=seed, policy_kwargs={"net_arch": [64, 64]}, learning_starts=min(2000, steps // 2))
    model.learn(steps)
    return model


def stand_in_train(reward_path: str, steps: int, seed: int = 0):
    """TEST DOUBLE for training: the built-in AI at a pace set by the file's bytes
    (deterministic), so different files drive differently without any learning."""
    pace = 0.4 + 0.6 * (zlib.crc32(open(reward_path, "rb").read()) % 1000) / 1000

    def policy(obs, env):
        action = np.asarray(env.unwrapped.ai_action(), np.float32).copy()
        action[0] = min(action[0], pace)
        return action

    return policy


def drive(policy, scenario: str, steps: int, seed: int):
    """A recorded race of ``policy`` (obs -> action, or (obs, env) -> action)."""
    env = TrajectoryRecorder(trackfield.make(scenario, race_state=True))
    obs, _ = env.reset(seed=seed)
    for _ in range(steps):
        if hasattr(policy, "predict"):
            action, _ = policy.predict(obs, deterministic=True)
        else:
            try:
                action = policy(obs, env)
            except TypeError:
                action = policy(obs)
        obs, _, term, trunc, _ = env.step(action)
        if term or trunc:
            break
    return env.trajectory()


def ai_preferences(scenario: str = "race_1v7", steps: int = 150, pairs: int = 100, window: int = 30, seed: int = 0):
    """Preferences from a race of AI drivers of varied skill, labelled by who advanced
    more in the window (a stand-in for human labels)."""
    env = TrajectoryRecorder(trackfield.make(scenario, agents=0, race_state=True))
    env.reset(seed=seed)
    for _ in range(steps):
        env.step(np.zeros((0, 2), np.float32))
    traj = env.trajectory()
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(pairs):
        a, b = rng.choice(traj.cars, 2, replace=False)
        sa, sb = rng.integers(0, traj.steps - window, 2)
        ga = traj.state(sa + window).progress[a] - traj.state(sa).progress[a]
        gb = traj.state(sb + window).progress[b] - traj.state(sb).progress[b]
        out.append((Window("ai", int(a), int(sa), window), Window("ai", int(b), int(sb), window), 0 if ga > gb else 1))
    return PreferenceSet({"ai": traj}, out)


def generate_valid(generator, prompt, goal, out_path, retries=3, log=print):
    """A reward file from ``generator`` that passes check_runnable (regenerating with the
    error up to ``retries`` times), written to ``out_path``; None if none ran."""
    reply = generator(prompt)
    for attempt in range(retries + 1):
        code = prompts.extract_code(reply)
        result = check_runnable(code)
        if result.ok:
            with open(out_path, "w", encoding="utf-8") as f:
                f.write(code)
            return out_path
        log(f"  {os.path.basename(out_path)}: check failed (attempt {attempt + 1}): {result.message.splitlines()[-1]}")
        reply = generator(prompts.regeneration(goal, code, result.message))
    return None


def run_loop(generator, judge, feedback, out_dir, train=stand_in_train, prefs=None, goal=GOAL, m=10, n=5, k=4,
             train_steps=50_000, race_steps=300, scenario="race_1v3", clip_s=15.0, clip_size=(640, 360), seed=0,
             log=print):
    """Runs the loop; returns the history: per iteration the files kept, their TAC, the
    Bradley-Terry scores and the chosen file."""
    os.makedirs(out_dir, exist_ok=True)
    prefs = prefs if prefs is not None else ai_preferences(seed=seed)
    history, best_code, diagnostics, notes = [], None, "", ""
    for it in range(k):
        paths = []
        for j in range(m):
            prompt = (prompts.generation(goal) if best_code is None
                      else prompts.improvement(goal, best_code, diagnostics, notes))
            path = generate_valid(generator, prompt, goal, os.path.join(out_dir, f"it{it}_reward{j}.py"), log=log)
            if path:
                paths.append(path)
        if not paths:
            raise RuntimeError(f"iteration {it}: no generated reward file passed check_runnable")
        programs = [load_reward(p) for p in paths]
        kept, scores = top_n(programs, prefs, min(n, len(programs)))
        log(f"iteration {it}: {len(paths)} runnable, TAC {np.round(scores, 3).tolist()}, keeping {len(kept)}")
        policies = [train(p.path, train_steps) for p in kept]
        trajs = [drive(pol, scenario, race_steps, seed) for pol in policies]
        outcomes = []
        for a, b in all_pairs(len(kept)):
            comparison = export_clips(trajs[a], trajs[b], os.path.join(out_dir, f"it{it}_{a}v{b}"), clip_s=clip_s,
                                      size=clip_size, goal=goal)
            outcomes.append((a, b) if judge(comparison) == "A" else (b, a))
        ranking = bradley_terry(len(kept), outcomes)
        best = kept[ranking.best]
        diagnostics = race_diagnostics(best, trajs[ranking.best])
        best_code = best.source
        notes = feedback(f"Iteration {it}: the best agent used {os.path.basename(best.path)}.\n{diagnostics}\n"
                         "Feedback on its driving (empty to skip): ")
        history.append({"files": [p.path for p in kept], "tac": scores.tolist(), "scores": ranking.scores.tolist(),
                        "best": best.path})
        log(f"iteration {it}: best {os.path.basename(best.path)} (Bradley-Terry {np.round(ranking.scores, 2).tolist()})")
    return history


def race_diagnostics(program, traj) -> str:
    """Each component's weighted total over the agent's recorded race, re-scored (no simulation)."""
    totals, parts = rescore(traj, program)
    car = int(np.flatnonzero(traj.state(0).controlled)[0])
    lines = [f"return: {totals[:, car].sum():.2f} over {traj.steps} steps"]
    lines += [f"{name}: {parts[:, car, k].sum():.2f}" for k, name in enumerate(program.names)]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", help="an OpenAI-compatible endpoint, e.g. http://localhost:8000/v1")
    parser.add_argument("--model", help="the model name at that endpoint (generator and judge)")
    parser.add_argument("--api-key-env", default="OPENAI_API_KEY",
                        help="environment variable holding the endpoint's key")
    parser.add_argument("--dry-run", action="store_true", help="test doubles instead of models; stand-in training")
    parser.add_argument("--out", default="reward_design_runs", help="folder for reward files, clips and history")
    parser.add_argument("--m", type=int, default=10, help="reward files generated per iteration")
    parser.add_argument("--n", type=int, default=5, help="of those, how many (best alignment) are trained")
    parser.add_argument("--k", type=int, default=4, help="iterations")
    parser.add_argument("--train-steps", type=int, default=50_000, help="training steps per reward file")
    parser.add_argument("--seed", type=int, default=0, help="seed of training and the recorded races")
    args = parser.parse_args(argv)
    if args.dry_run:
        from trackfield.reward_design.testing import ScriptedGenerator, ScriptedJudge

        canned = [open(preset("gt7_baseline")).read(), open(preset("gt_sophy")).read()]
        generator, judge, feedback, train = ScriptedGenerator(canned), ScriptedJudge(), (lambda prompt: ""), stand_in_train
        kw = dict(race_steps=160, clip_size=(320, 180))
    else:
        if not (args.base_url and args.model):
            parser.error("give --base-url and --model, or --dry-run")
        from trackfield.reward_design import OpenAICompatible, two_stage

        model = OpenAICompatible(args.base_url, args.model, args.api_key_env)
        generator, judge = model, two_stage(lambda p, images: model(p, images), model)
        feedback, train, kw = input, sac_train, {}
    history = run_loop(generator, judge, feedback, args.out, train=train, m=args.m, n=args.n, k=args.k,
                       train_steps=args.train_steps, seed=args.seed, **kw)
    print("chosen:", history[-1]["best"])


if __name__ == "__main__":
    main()
