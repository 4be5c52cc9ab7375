"""The driving envs' frames: ``render_view`` picks the whole-town view or the ego view
(``cpp_engine/driving/render.h``), and render_mode="human" for the driving vector and
parallel envs shows world 0's frame in the pygame window of ``trackfield.core.render``
(the core adapters of those two render only ``rgb_array``; the single env's own human
mode is the core one, with its frame from ``frame``)."""
from __future__ import annotations


def frame(engine, index: int, width: int, view: str):
    """World ``index``'s frame: the whole town (``view="town"``) or the ego view around
    its slot 0 (``view="ego"``; the first live controlled slot while slot 0 is empty)."""
    if view == "ego":
        return engine.batch.render_ego(index, width, 0)
    return engine.batch.render(index, width)


class HumanWindow:
    """Shows world 0 of an engine after every reset and step."""

    def __init__(self, engine, width: int, fps: int, view: str = "town"):
        self._engine, self._width, self._fps, self._view = engine, width, fps, view
        self._window = None

    def show(self) -> None:
        from trackfield.core.render import show_frame

        self._window = show_frame(self._window, frame(self._engine, 0, self._width, self._view), self._fps)

    def close(self) -> None:
        if self._window is not None:
            from trackfield.core.render import close_window

            close_window(self._window)
            self._window = None


class ShowsHumanWindow:
    """Mixin for the driving vector and parallel envs: with a ``HumanWindow`` in
    ``self._human``, shows world 0 after every reset and step and on render()."""

    _human = None
    _render_view = "town"

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
        if self.render_mode == "rgb_array" and self._render_view != "town":
            return self._ego_frames()
        return super().render()

    def close(self, **kwargs):
        if self._human is not None:
            self._human.close()
        return super().close(**kwargs)
