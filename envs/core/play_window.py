"""The pygame window the keyboard players (``trackfield.football.play``,
``trackfield.racing.play``) draw into: one frame per env step at 10 per second
(unthrottled with ``TRACKFIELD_PLAY_UNTHROTTLED=1``, as the headless tests run), the
first gamepad pygame finds, and quit on Esc or closing the window."""
from __future__ import annotations

import os


def import_pygame(what: str):
    try:
        import pygame
    except ImportError as error:
        raise SystemExit(f"{what} needs pygame: pip install 'trackfield[render]'") from error
    return pygame


class PlayWindow:
    def __init__(self, pygame, frame, caption: str, fps: int = 10):
        self.pygame = pygame
        pygame.init()
        pygame.joystick.init()
        self.joystick = pygame.joystick.Joystick(0) if pygame.joystick.get_count() > 0 else None
        self.screen = pygame.display.set_mode((frame.shape[1], frame.shape[0]))
        pygame.display.set_caption(caption)
        self.clock = pygame.time.Clock()
        self.fps = 0 if os.environ.get("TRACKFIELD_PLAY_UNTHROTTLED") else fps
        self.open = True

    def events(self) -> list:
        """This frame's pygame events; Esc or closing the window marks the window closed."""
        events = self.pygame.event.get()
        for event in events:
            if event.type == self.pygame.QUIT or (event.type == self.pygame.KEYDOWN
                                                  and event.key == self.pygame.K_ESCAPE):
                self.open = False
        return events

    def show(self, frame) -> None:
        """Draws an (H, W, 3) frame and waits for the next tick."""
        self.screen.blit(self.pygame.surfarray.make_surface(frame.swapaxes(0, 1)), (0, 0))
        self.pygame.display.flip()
        self.clock.tick(self.fps)

    def close(self) -> None:
        self.pygame.quit()
