"""Play football yourself: ``python -m trackfield.football.play --scenario NAME``.

A pygame window at 10 game frames per second; you control the left team's active
player against the built-in AI, or against a saved Stable-Baselines3 policy
(``--opponent policy.zip``) that controls the right team's active player and sees the
pitch from its own side, as in self-play.

Keys (GRF's keyboard layout where it has one):

| key | action |
|---|---|
| arrows (two at once for diagonals) | run; release them all to stop |
| S | short pass |
| A | high pass |
| W | long pass |
| D | shot |
| X | sliding tackle |
| E (hold) | sprint |
| C (hold) | dribble |
| Esc or closing the window | quit |

A gamepad, where pygame finds one, works too: the left stick runs, buttons 0-3 are
short pass, high pass, long pass and shot, button 4 sprints (held), button 5 dribbles
(held), button 6 slides.
"""
from __future__ import annotations

import argparse

import numpy as np

from trackfield.core.play_window import PlayWindow, import_pygame
from trackfield.football.engine import ACTION_NAMES

ACTION = {name: i for i, name in enumerate(ACTION_NAMES)}
# (dx, dy) with y down the screen ("top" is negative y) -> direction action.
DIRECTIONS = {(-1, 0): "left", (-1, -1): "top_left", (0, -1): "top", (1, -1): "top_right", (1, 0): "right",
              (1, 1): "bottom_right", (0, 1): "bottom", (-1, 1): "bottom_left"}
KICK_KEYS = {"s": "short_pass", "a": "high_pass", "w": "long_pass", "d": "shot", "x": "sliding"}
GAMEPAD_KICKS = {0: "short_pass", 1: "high_pass", 2: "long_pass", 3: "shot", 6: "sliding"}


class Controls:
    """Turns what is held and what was just pressed into one GRF action per frame.

    GRF's movement, sprint and dribble are sticky, so an action is sent only when
    something changes: a kick just pressed wins, then sprint or dribble pressed or
    released, then a change of direction (or its release); otherwise idle, which keeps
    the sticky state.
    """

    def __init__(self):
        self.direction = (0, 0)
        self.sprint = False
        self.dribble = False

    def action(self, direction, sprint: bool, dribble: bool, kicks) -> int:
        for kick in kicks:
            return ACTION[kick]
        if sprint != self.sprint:
            self.sprint = sprint
            return ACTION["sprint" if sprint else "release_sprint"]
        if dribble != self.dribble:
            self.dribble = dribble
            return ACTION["dribble" if dribble else "release_dribble"]
        direction = (int(np.sign(direction[0])), int(np.sign(direction[1])))
        if direction != self.direction:
            self.direction = direction
            return ACTION[DIRECTIONS[direction]] if direction != (0, 0) else ACTION["release_direction"]
        return ACTION["idle"]


def read_inputs(pygame, joystick, just_pressed):
    """(direction, sprint held, dribble held, kicks pressed this frame) from keys and pad."""
    keys = pygame.key.get_pressed()
    dx = int(keys[pygame.K_RIGHT]) - int(keys[pygame.K_LEFT])
    dy = int(keys[pygame.K_DOWN]) - int(keys[pygame.K_UP])
    sprint, dribble = bool(keys[pygame.K_e]), bool(keys[pygame.K_c])
    kicks = [KICK_KEYS[k] for k in just_pressed if k in KICK_KEYS]
    if joystick is not None:
        ax, ay = joystick.get_axis(0), joystick.get_axis(1)
        dx = dx or (1 if ax > 0.4 else -1 if ax < -0.4 else 0)
        dy = dy or (1 if ay > 0.4 else -1 if ay < -0.4 else 0)
        buttons = joystick.get_numbuttons()
        sprint = sprint or (buttons > 4 and bool(joystick.get_button(4)))
        dribble = dribble or (buttons > 5 and bool(joystick.get_button(5)))
        kicks += [GAMEPAD_KICKS[b] for b in just_pressed if isinstance(b, int) and b in GAMEPAD_KICKS]
    return (dx, dy), sprint, dribble, kicks


def load_opponent(path: str):
    """A saved SB3 policy (PPO, A2C or DQN zip) as a function obs -> action."""
    try:
        from stable_baselines3 import A2C, DQN, PPO
    except ImportError as error:
        raise ImportError("--opponent needs stable-baselines3: pip install 'trackfield[train]'") from error
    errors = []
    for cls in (PPO, A2C, DQN):
        try:
            model = cls.load(path, device="cpu")
            return lambda obs: int(model.predict(obs, deterministic=True)[0])
        except Exception as error:  # noqa: BLE001 - try the next algorithm
            errors.append(f"{cls.__name__}: {error}")
    raise ValueError(f"--opponent {path}: not a PPO, A2C or DQN model ({'; '.join(errors)})")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m trackfield.football.play", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", default="academy_empty_goal_close", help="scenario name or file")
    parser.add_argument("--opponent", default=None, help="a saved SB3 policy (.zip) for the right team")
    parser.add_argument("--width", type=int, default=960, help="window width in pixels")
    parser.add_argument("--frames", type=int, default=0, help="stop after this many frames (0: play until closed)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the first episode (default: random)")
    args = parser.parse_args(argv)
    pygame = import_pygame("playing")
    import trackfield

    right = 1 if args.opponent else 0
    env = trackfield.parallel_env(args.scenario, render_mode="rgb_array", render_width=args.width,
                                  number_of_right_players_agent_controls=right)
    opponent = load_opponent(args.opponent) if args.opponent else None
    obs, _ = env.reset(seed=args.seed)
    window = PlayWindow(pygame, env.render(), f"trackfield: {args.scenario}")
    controls = Controls()
    frames, episodes = 0, 0
    key_names = {getattr(pygame, f"K_{k}"): k for k in KICK_KEYS}
    while window.open:
        just_pressed = []
        for event in window.events():
            if event.type == pygame.KEYDOWN and event.key in key_names:
                just_pressed.append(key_names[event.key])
            elif event.type == pygame.JOYBUTTONDOWN:
                just_pressed.append(event.button)
        actions = {"left_0": controls.action(*read_inputs(pygame, window.joystick, just_pressed))}
        if opponent is not None:
            actions["right_0"] = opponent(obs["right_0"])
        obs, rewards, terminated, truncated, infos = env.step(actions)
        window.show(env.render())
        if not env.agents:
            episodes += 1
            score = infos["left_0"]["score"]
            print(f"episode {episodes}: {score[0]} - {score[1]} after {infos['left_0']['steps']} steps", flush=True)
            obs, _ = env.reset()
            controls = Controls()
        frames += 1
        if args.frames and frames >= args.frames:
            break
    window.close()


if __name__ == "__main__":
    main()
