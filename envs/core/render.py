"""The pygame window behind render_mode="human" (pygame is the [render] extra)."""
from __future__ import annotations

import time


def show_frame(window, frame, fps: int):
    try:
        import pygame
    except ImportError as e:
        raise ImportError("render_mode='human' needs pygame: pip install 'trackfield[render]'") from e
    h, w = frame.shape[:2]
    if window is None:
        pygame.init()
        pygame.display.set_caption("trackfield")
        window = {"screen": pygame.display.set_mode((w, h)), "clock": pygame.time.Clock()}
    surface = pygame.surfarray.make_surface(frame.swapaxes(0, 1))
    window["screen"].blit(surface, (0, 0))
    pygame.event.pump()
    pygame.display.flip()
    window["clock"].tick(fps)
    return window


def close_window(window):
    import pygame

    pygame.display.quit()
    time.sleep(0)
