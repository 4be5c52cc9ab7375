"""render_mode="human" for the driving vector and parallel envs: world 0's frame in the
pygame window of ``trackfield.core.render`` (the core adapters of those two render only
``rgb_array``; the single env's own human mode is the core one)."""
from __future__ import annotations


class HumanWindow:
    """Shows world 0 of an engine after every reset and step."""

    def __init__(self, engine, width: int, fps: int):
        self._engine, self._width, self._fps = engine, width, fps
        self._window = None

    def show(self) -> None:
        from trackfield.core.render import show_frame

        self._window = show_frame(self._window, self._engine.batch.render(0, self._width), self._fps)

    def close(self) -> None:
        if self._window is not None:
            from trackfield.core.render import close_window

            close_window(self._window)
            self._window = None


class ShowsHumanWindow:
    """Mixin for the driving vector and parallel envs: with a ``HumanWindow`` in
    ``self._human``, shows world 0 after every reset and step and on render()."""

    _human = None

    def reset(self, *args, **kwargs):
        out = super().reset(*args, **kwargs)
        if self._human is not None:
            self._human.show()
        return out

    def step(self, actions):
        out = super().step(actions)
        if self._human is not None:
            self._human.show()
        return out

    def render(self):
        if self.render_mode == "human":
            self._human.show()
            return None
        return super().render()

    def close(self, **kwargs):
        if self._human is not None:
            self._human.close()
        return super().close(**kwargs)
