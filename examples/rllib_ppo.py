"""Train Ray RLlib PPO on a Football Academy scenario, on this machine or on a Ray cluster.

    python examples/rllib_ppo.py --scenario academy_empty_goal_close
    python examples/rllib_ppo.py --address head-node:6379 --env-runners 32   # an existing cluster

Each RLlib env runner steps its ``--envs-per-runner`` worlds in one trackfield batch
(``trackfield.rllib.single_agent``: one C++ call per step for all of the runner's
worlds). Without ``--address`` Ray starts on this machine; with it the script joins
the cluster there (``trackfield.rllib.connect``: fails within ``--connect-timeout``
seconds if the address cannot be reached) and Ray places the env runners on its nodes.
Training stops at ``--steps`` env steps or once the mean episode return of the sampled
(exploring) episodes reaches ``--target``. It prints one line per iteration, the nodes
the env runners ran on, and the greedy policy's mean score (goals for minus against)
over 100 episodes. Needs the [dist] extra (ray[rllib]).
"""
from __future__ import annotations

import argparse
import time

import numpy as np

DEFAULT_STEPS = 400_000


def make_config(scenario="academy_empty_goal_close", num_env_runners=2, envs_per_runner=16, rollout_length=64,
                seed=0, representation="simple115v2", rewards="scoring", minibatch_size=512, num_epochs=4):
    """PPO settings close to ``train_ppo.py``'s (GRF's academy baselines), one trackfield
    batch of ``envs_per_runner`` worlds per env runner."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    import trackfield.rllib as tfr

    config = tfr.single_agent(PPOConfig(), scenario, num_envs_per_env_runner=envs_per_runner,
                              representation=representation, rewards=rewards)
    batch = max(1, num_env_runners) * envs_per_runner * rollout_length
    return (config
            .env_runners(num_env_runners=num_env_runners, num_cpus_per_env_runner=1,
                         rollout_fragment_length=rollout_length)
            .training(train_batch_size_per_learner=batch, minibatch_size=min(minibatch_size, batch),
                      num_epochs=num_epochs, lr=3e-4, gamma=0.993, lambda_=0.95, entropy_coeff=0.01,
                      clip_param=0.2, vf_loss_coeff=0.5)
            .rl_module(rl_module_spec=RLModuleSpec(model_config={"fcnet_hiddens": [128, 128]}))
            .debugging(seed=seed))


def runner_node_ids(algo) -> list:
    """The Ray node id of every remote env runner (the local one when there are none)."""
    import ray

    def node_id(_runner):
        return ray.get_runtime_context().get_node_id()

    if algo.config.num_env_runners == 0:
        return [ray.get_runtime_context().get_node_id()]
    return algo.env_runner_group.foreach_env_runner(node_id, local_env_runner=False)


def train(algo, steps, target=0.9, log=print):
    """Trains until ``steps`` env steps or a mean sampled episode return >= ``target``;
    returns the last iteration's (env steps, mean episode return)."""
    start, sampled, mean_return = time.time(), 0, float("nan")
    while sampled < steps:
        result = algo.train()
        runners = result["env_runners"]
        sampled = int(result.get("num_env_steps_sampled_lifetime", runners.get("num_env_steps_sampled_lifetime", 0)))
        mean_return = float(runners.get("episode_return_mean", float("nan")))
        log(f"iter {algo.iteration:3d}  env steps {sampled:8,d}  mean episode return {mean_return:6.3f}  "
            f"{sampled / (time.time() - start):8,.0f} steps/s")
        if mean_return >= target:
            break
    return sampled, mean_return


def greedy_score(algo, scenario="academy_empty_goal_close", episodes=100, seed=1000, representation="simple115v2"):
    """Mean goal difference of the greedy policy over ``episodes`` episodes (one per world
    of a trackfield batch, all stepped together)."""
    import torch

    import trackfield

    module = algo.get_module()
    envs = trackfield.vector.make(scenario, num_envs=episodes, num_threads=1, representation=representation)
    obs, _ = envs.reset(seed=seed)
    scores, finished = np.zeros(episodes), np.zeros(episodes, np.bool_)
    while not finished.all():
        with torch.no_grad():
            logits = module.forward_inference({"obs": torch.as_tensor(obs)})["action_dist_inputs"]
        obs, _, terminated, truncated, info = envs.step(logits.argmax(-1).numpy().astype(np.int32))
        ended = (terminated | truncated) & ~finished
        for i in np.flatnonzero(ended):
            score = info["final_info"]["score"][i]
            scores[i] = score[0] - score[1]
        finished |= ended
    return float(scores.mean())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", default="academy_empty_goal_close", help="football scenario to learn")
    parser.add_argument("--steps", type=int, default=DEFAULT_STEPS, help="env-step budget")
    parser.add_argument("--target", type=float, default=0.9, help="stop at this mean episode return")
    parser.add_argument("--env-runners", type=int, default=2, help="0: sample in this process")
    parser.add_argument("--envs-per-runner", type=int, default=16, help="worlds each env runner steps as one batch")
    parser.add_argument("--seed", type=int, default=0, help="seed of the envs and the learner")
    parser.add_argument("--address", default=None, help="an existing Ray cluster: host:6379, ray://host:10001, auto")
    parser.add_argument("--connect-timeout", type=float, default=30.0,
                        help="seconds to wait for --address before giving up")
    parser.add_argument("--tiny", action="store_true", help="a smoke test: two tiny iterations, no remote runners")
    args = parser.parse_args(argv)

    import ray

    import trackfield.rllib as tfr

    if args.tiny:
        args.steps, args.env_runners, args.envs_per_runner = 256, 0, 4
    if args.address:
        tfr.connect(args.address, timeout_s=args.connect_timeout)
    else:
        ray.init(address="local", num_cpus=max(1, args.env_runners), include_dashboard=False, log_to_driver=False)
    config = make_config(args.scenario, args.env_runners, args.envs_per_runner, seed=args.seed,
                         rollout_length=32 if args.tiny else 64)
    if args.tiny:
        config = config.training(minibatch_size=64, num_epochs=1)
    algo = config.build_algo()
    try:
        start = time.time()
        steps, mean_return = train(algo, args.steps, args.target)
        print(f"trained {steps:,} env steps in {time.time() - start:.0f} s; mean episode return {mean_return:.3f}")
        print(f"env runners ran on nodes: {sorted(set(runner_node_ids(algo)))}")
        episodes = 10 if args.tiny else 100
        print(f"greedy mean score over {episodes} episodes: {greedy_score(algo, args.scenario, episodes):.3f}")
    finally:
        algo.stop()
        ray.shutdown()


if __name__ == "__main__":
    main()
