"""Football self-play with Ray RLlib: one policy plays both sides, against a league of its
frozen past versions and the built-in AI.

    python examples/rllib_self_play.py --scenario 5_vs_5 --iterations 20

Each episode the league env (``LeagueFootballEnv`` below, over
``trackfield.rllib.TrackfieldMultiAgentEnv``) draws an opponent: with probability
``--builtin-ai-share`` the right side is the built-in AI (the scenario with
``number_of_right_players_agent_controls=0`` at one of the ``--ai-levels``
difficulties); otherwise the right side's agents play and the policy mapping gives
them the learning policy ``main`` itself or one of ``--league-size`` frozen past
versions (``past_0`` ..). The left side is always ``main``; right agents see the pitch
mirrored, so ``main`` plays either side with the same weights. Every
``--snapshot-every`` iterations ``main``'s weights are copied into the oldest past
version. Every ``--eval-every`` iterations the script prints ``main``'s goal
difference (greedy, left side) against the built-in AI at each level. Needs the
[dist] extra (ray[rllib]).
"""
from __future__ import annotations

import argparse
import time
import zlib

import numpy as np

LEAGUE_ENV = "trackfield_football_league"
AI_LEVELS = (0.05, 0.6, 0.95)


def league_env_creator(env_config):
    """The league env from an RLlib env config: trackfield's keywords (scenario,
    players per side) plus ``builtin_ai_share`` and ``ai_levels``."""
    from ray.rllib.env.multi_agent_env import MultiAgentEnv

    import trackfield.rllib as tfr

    class LeagueFootballEnv(MultiAgentEnv):
        """Both sides controlled (self-play and past versions) or the right side left to
        the built-in AI, drawn per episode."""

        def __init__(self, config):
            config = {k: v for k, v in dict(config).items() if k not in tfr.RLLIB_KEYS}
            self.ai_share = float(config.pop("builtin_ai_share", 0.25))
            levels = config.pop("ai_levels", AI_LEVELS)
            self.rng = np.random.default_rng()  # RLlib reseeds each sub-env through reset(seed=...)
            self.both_sides = tfr.make_multi_agent_env(config)
            versus_ai = dict(config, number_of_right_players_agent_controls=0)
            self.versus_ai = [tfr.make_multi_agent_env(dict(versus_ai, right_team_difficulty=float(level)))
                              for level in levels]
            self.current = self.both_sides
            self.possible_agents = list(self.both_sides.possible_agents)
            self.agents = []
            self.observation_spaces = dict(self.both_sides.observation_spaces)
            self.action_spaces = dict(self.both_sides.action_spaces)
            super().__init__()
            self.observation_space, self.action_space = self.both_sides.observation_space, self.both_sides.action_space

        def reset(self, *, seed=None, options=None):
            if seed is not None:
                self.rng = np.random.default_rng(seed)
            if self.versus_ai and self.rng.random() < self.ai_share:
                self.current = self.versus_ai[self.rng.integers(len(self.versus_ai))]
            else:
                self.current = self.both_sides
            result = self.current.reset(seed=int(self.rng.integers(2**62)), options=options)
            self.agents = list(self.current.agents)
            return result

        def step(self, action_dict):
            result = self.current.step(action_dict)
            self.agents = list(self.current.agents)
            return result

    return LeagueFootballEnv(env_config)


def past_versions(league_size: int) -> list:
    return [f"past_{k}" for k in range(league_size)]


def league_mapping(league_size: int):
    """Left agents: ``main``. Right agents: per episode (the same for all of them),
    ``main`` itself or one of the past versions."""
    right_choices = ["main"] + past_versions(league_size)

    def mapping(agent_id, episode, **kwargs):
        if str(agent_id).startswith("left_"):
            return "main"
        return right_choices[zlib.crc32(str(episode.id_).encode()) % len(right_choices)]

    return mapping


def make_config(scenario="5_vs_5", players=1, game_duration=400, league_size=3, builtin_ai_share=0.25,
                num_env_runners=1, envs_per_runner=4, rollout_length=128, seed=0, minibatch_size=512, num_epochs=4):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.tune.registry import register_env

    import trackfield.rllib as tfr

    env_config = {"scenario": scenario, "number_of_left_players_agent_controls": players,
                  "number_of_right_players_agent_controls": players, "game_duration": game_duration,
                  "builtin_ai_share": builtin_ai_share}
    tfr.split_env_config({k: v for k, v in env_config.items() if k != "builtin_ai_share"})  # fail early, here
    register_env(LEAGUE_ENV, league_env_creator)
    batch = max(1, num_env_runners) * envs_per_runner * rollout_length
    return (PPOConfig()
            .environment(LEAGUE_ENV, env_config=env_config)
            .env_runners(num_env_runners=num_env_runners, num_envs_per_env_runner=envs_per_runner,
                         rollout_fragment_length=rollout_length)
            .multi_agent(policies={"main", *past_versions(league_size)}, policy_mapping_fn=league_mapping(league_size),
                         policies_to_train=["main"])
            .rl_module(model_config={"fcnet_hiddens": [128, 128]})
            .training(train_batch_size_per_learner=batch, minibatch_size=min(minibatch_size, batch),
                      num_epochs=num_epochs, lr=3e-4, gamma=0.993, lambda_=0.95, entropy_coeff=0.01)
            .debugging(seed=seed))


def snapshot_main(algo, slot: str) -> None:
    """Copies ``main``'s current weights into the frozen module ``slot``, on the learner
    and on every env runner (RLlib syncs only trained modules to the runners itself)."""
    main_state = algo.get_module("main").get_state(inference_only=False)

    def copy_into_slot(worker):
        worker.module[slot].set_state(main_state)

    algo.learner_group.foreach_learner(copy_into_slot)
    algo.env_runner_group.foreach_env_runner(copy_into_slot, local_env_runner=True)


def goal_difference_vs_ai(algo, scenario, level, episodes=2, players=1, game_duration=400, seed=5000):
    """Mean goals for minus against of ``main`` (greedy, left side) against the built-in
    AI at difficulty ``level``."""
    import torch

    import trackfield

    module = algo.get_module("main")
    env = trackfield.parallel_env(scenario, number_of_left_players_agent_controls=players,
                                  number_of_right_players_agent_controls=0, game_duration=game_duration,
                                  right_team_difficulty=float(level))
    total = 0
    for episode in range(episodes):
        observations, infos = env.reset(seed=seed + episode)
        while env.agents:
            agents = list(observations)
            with torch.no_grad():
                logits = module.forward_inference({"obs": torch.as_tensor(np.stack([observations[a] for a in agents]))})
            actions = logits["action_dist_inputs"].argmax(-1).numpy()
            observations, _, _, _, infos = env.step(dict(zip(agents, actions.tolist())))
        score = next(iter(infos.values()))["score"]
        total += score[0] - score[1]
    return total / episodes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", default="5_vs_5", help="football scenario both sides play")
    parser.add_argument("--players", type=int, default=1, help="agents per side")
    parser.add_argument("--game-duration", type=int, default=400, help="steps per game (shorter than 5_vs_5's 3,000)")
    parser.add_argument("--iterations", type=int, default=20, help="training iterations")
    parser.add_argument("--league-size", type=int, default=3, help="frozen past versions of main kept as opponents")
    parser.add_argument("--snapshot-every", type=int, default=3,
                        help="iterations between freezing main's weights into the league")
    parser.add_argument("--builtin-ai-share", type=float, default=0.25,
                        help="share of episodes whose right side is the built-in AI")
    parser.add_argument("--ai-levels", type=float, nargs="+", default=list(AI_LEVELS),
                        help="built-in AI difficulties to train and evaluate against")
    parser.add_argument("--eval-every", type=int, default=4,
                        help="iterations between evaluations against each AI level")
    parser.add_argument("--eval-episodes", type=int, default=2, help="games per AI level in an evaluation")
    parser.add_argument("--env-runners", type=int, default=1, help="Ray env runners (0: sample in this process)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the envs and the learner")
    parser.add_argument("--address", default=None, help="an existing Ray cluster (see rllib_ppo.py)")
    parser.add_argument("--tiny", action="store_true", help="a smoke test: two tiny iterations")
    args = parser.parse_args(argv)

    import ray

    import trackfield.rllib as tfr

    if args.tiny:
        args.iterations, args.game_duration, args.env_runners = 2, 40, 0
        args.snapshot_every, args.eval_every, args.eval_episodes = 1, 2, 1
    if args.address:
        tfr.connect(args.address)
    else:
        ray.init(address="local", num_cpus=max(1, args.env_runners), include_dashboard=False, log_to_driver=False)
    config = make_config(args.scenario, args.players, args.game_duration, args.league_size, args.builtin_ai_share,
                         args.env_runners, envs_per_runner=2 if args.tiny else 8,
                         rollout_length=32 if args.tiny else 128, seed=args.seed)
    config.env_config["ai_levels"] = tuple(args.ai_levels)
    if args.tiny:
        config = config.training(minibatch_size=64, num_epochs=1)
    algo = config.build_algo()
    start = time.time()
    try:
        for iteration in range(1, args.iterations + 1):
            result = algo.train()
            runners = result["env_runners"]
            main_return = runners.get("module_episode_returns_mean", {}).get("main")
            shown = "     -" if main_return is None or np.isnan(main_return) else f"{main_return:6.3f}"  # no game ended
            print(f"iter {iteration:3d}  env steps {int(result.get('num_env_steps_sampled_lifetime', 0)):8,d}  "
                  f"main return {shown}  {time.time() - start:5.0f} s")
            if iteration % args.snapshot_every == 0:
                slot = past_versions(args.league_size)[(iteration // args.snapshot_every - 1) % args.league_size]
                snapshot_main(algo, slot)
                print(f"  league: main's weights frozen as {slot}")
            if iteration % args.eval_every == 0 or iteration == args.iterations:
                diffs = [goal_difference_vs_ai(algo, args.scenario, level, args.eval_episodes, args.players,
                                               args.game_duration) for level in args.ai_levels]
                print("  goal difference vs built-in AI: " +
                      "  ".join(f"level {level:g}: {diff:+.2f}" for level, diff in zip(args.ai_levels, diffs)))
    finally:
        algo.stop()
        ray.shutdown()


if __name__ == "__main__":
    main()
