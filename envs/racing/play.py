"""Drive yourself: ``python -m trackfield.racing.play --scenario race_1v3 --track technical``.

A pygame window with the chase view at 10 control steps per second. The keyboard gives
analogue-like inputs the way racing games do: holding a key ramps the pedal or the
steering towards its end, releasing it lets the steering return to centre.

| key | input |
|---|---|
| Up (hold) | throttle, ramping to full in 0.3 s |
| Down (hold) | brake (with `--reverse`, held at a standstill: reverse) |
| Left / Right (hold) | steer, ramping to full lock in 0.5 s, back to centre when released |
| R | restart the race |
| Esc or closing the window | quit |

A gamepad, where pygame finds one, works too: the left stick steers, the right trigger
(axis 5) or button 0 accelerates, the left trigger (axis 4) or button 1 brakes.
"""
from __future__ import annotations

import argparse

import numpy as np

from trackfield.core.play_window import PlayWindow, import_pygame

PEDAL_RATE = 1.0 / 0.3   # per second
STEER_RATE = 1.0 / 0.5
STEER_RETURN = 1.0 / 0.2


class Controls:
    """Held keys -> a [throttle/brake, steering] action, ramped at 10 Hz."""

    def __init__(self, hz: float = 10.0):
        self.dt = 1.0 / hz
        self.pedal = 0.0
        self.steer = 0.0

    def action(self, accelerate: bool, brake: bool, left: bool, right: bool) -> np.ndarray:
        want = (1.0 if accelerate else 0.0) - (1.0 if brake else 0.0)
        self.pedal += float(np.clip(want - self.pedal, -PEDAL_RATE * self.dt * 2, PEDAL_RATE * self.dt))
        if want == 0.0:
            self.pedal = 0.0  # lifting is instant
        side = (1.0 if left else 0.0) - (1.0 if right else 0.0)
        if side == 0.0:
            self.steer -= float(np.clip(self.steer, -STEER_RETURN * self.dt, STEER_RETURN * self.dt))
        else:
            self.steer = float(np.clip(self.steer + side * STEER_RATE * self.dt, -1.0, 1.0))
        return np.array([np.clip(self.pedal, -1, 1), self.steer], dtype=np.float32)


def read_inputs(pygame, joystick):
    keys = pygame.key.get_pressed()
    accelerate, brake = bool(keys[pygame.K_UP]), bool(keys[pygame.K_DOWN])
    left, right = bool(keys[pygame.K_LEFT]), bool(keys[pygame.K_RIGHT])
    if joystick is not None:
        axes, buttons = joystick.get_numaxes(), joystick.get_numbuttons()
        ax = joystick.get_axis(0) if axes > 0 else 0.0
        left, right = left or ax < -0.3, right or ax > 0.3
        accelerate = accelerate or (axes > 5 and joystick.get_axis(5) > 0.0) or (buttons > 0 and joystick.get_button(0))
        brake = brake or (axes > 4 and joystick.get_axis(4) > 0.0) or (buttons > 1 and joystick.get_button(1))
    return accelerate, brake, left, right


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m trackfield.racing.play", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scenario", default="race_1v3", help="racing scenario to drive")
    parser.add_argument("--track", default=None, help="a shipped circuit or a track file (default: the scenario's)")
    parser.add_argument("--car", default="gt3", choices=["road", "gt3", "prototype"], help="the car you drive")
    parser.add_argument("--reverse", action="store_true", help="allow reverse (brake held at a standstill)")
    parser.add_argument("--width", type=int, default=960, help="window width in pixels")
    parser.add_argument("--frames", type=int, default=0, help="stop after this many steps (0: drive until closed)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the launch (default: random)")
    args = parser.parse_args(argv)
    pygame = import_pygame("driving")
    import trackfield

    config = {"car": args.car, "allow_reverse": args.reverse, "render_mode": "rgb_array", "render_width": args.width}
    if args.track:
        config["track"] = args.track
    env = trackfield.make(args.scenario, **config)
    env.reset(seed=args.seed)
    window = PlayWindow(pygame, env.render(), f"trackfield: {args.scenario} on {env.unwrapped.track.name}")
    controls = Controls()
    frames, races = 0, 0
    while window.open:
        restart = any(e.type == pygame.KEYDOWN and e.key == pygame.K_r for e in window.events())
        obs, reward, terminated, truncated, info = env.step(controls.action(*read_inputs(pygame, window.joystick)))
        window.show(env.render())
        if terminated or truncated or restart:
            races += 1
            best = f", best lap {info['best_lap_s']:.2f} s" if info["best_lap_s"] > 0 else ""
            print(f"race {races}: place {info['place'] + 1}/{env.unwrapped.num_cars}, {info['progress_m']:.0f} m"
                  f"{best}, off course {info['off_course_s']:.1f} s, contact {info['contact_s']:.1f} s", flush=True)
            env.reset()
            controls = Controls()
        frames += 1
        if args.frames and frames >= args.frames:
            break
    window.close()


if __name__ == "__main__":
    main()
