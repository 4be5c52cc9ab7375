"""GRF's ``gfootball.env`` module for scripts written against it: only the import changes.

    import trackfield.football.gfootball_env as football_env   # was: import gfootball.env as football_env
    env = football_env.create_environment(env_name="11_vs_11_easy_stochastic", representation="simple115v2")
    obs = env.reset()
    obs, reward, done, info = env.step(env.action_space.sample())

``create_environment`` here is ``trackfield.football.create_environment`` with GRF's old gym
API (``gym_api=True``): ``reset()`` returns the observation and ``step()`` a 4-tuple.
"""
from trackfield.football.grf_api import create_environment as _create_environment


def create_environment(env_name="", stacked=False, representation="extracted", rewards="scoring",
                       write_goal_dumps=False, write_full_episode_dumps=False, render=False,
                       write_video=False, dump_frequency=1, logdir="", extra_players=None,
                       number_of_left_players_agent_controls=1, number_of_right_players_agent_controls=0,
                       channel_dimensions=(96, 72), other_config_options={}):
    """GRF 2.10.2's ``create_environment``, returning an env with GRF's gym API."""
    return _create_environment(env_name, stacked, representation, rewards, write_goal_dumps,
                               write_full_episode_dumps, render, write_video, dump_frequency, logdir,
                               extra_players, number_of_left_players_agent_controls,
                               number_of_right_players_agent_controls, channel_dimensions,
                               other_config_options, gym_api=True)


__all__ = ["create_environment"]
