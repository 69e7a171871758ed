"""Recordings of the emulated table: an animated GIF or PNG frames, through luma.emulator."""

from __future__ import annotations

import atexit
import logging
import os
from pathlib import Path
from typing import Any, Callable

from PIL import Image

from ..public import PublicDisplay, PublicTable
from .loop import luma_emulator, picture_args
from .picture import compose

_log = logging.getLogger(__name__)


class Recorder:
    """Records a picture of the table after every change, with luma.emulator.

    ``kind="gif"``: luma's ``gifanim`` collects the frames and writes one
    animated GIF at ``path`` on `close`. ``kind="png"``: luma's ``capture``
    writes ``table_000001.png``, ... into the directory ``path`` at once, and
    beside each the public screen alone (``public_000001.png``, its own pixels
    at ``scale``) when the table has one.

    Args:
        path: The GIF file, or the directory for PNG frames.
        kind: "gif" or "png".
        scale: Output pixels per picture pixel.
        duration: Seconds each GIF frame shows.
        max_frames: Stop adding frames after this many (luma's own limit
            would end the program), or None for no limit.
        log: Public lines to show, when `record` composes the picture itself.
        poll: Seconds `poll_once` waits for a button event.
        public: Draws the table's public screen, shown under the seats, or None.
    """

    def __init__(self, path: str | os.PathLike[str], kind: str = "gif", *, scale: int = 2,
                 duration: float = 0.6, max_frames: int | None = None, log: PublicTable | None = None,
                 poll: float = 0.05, public: PublicDisplay | None = None) -> None:
        if kind not in ("gif", "png"):
            raise ValueError(f"kind must be 'gif' or 'png', not {kind!r}")
        self.path = Path(path)
        self.kind = kind
        self.scale = scale
        self.duration = duration
        self.max_frames = max_frames
        self.log = log
        self.poll = poll
        self.public = public
        self.frames = 0
        self.device: Any = None
        self._version: tuple[int, int] | None = None  # (runtime.version, public frames) last recorded

    def record(self, runtime: Any, picture: Image.Image | None = None) -> bool:
        """Add a frame if ``runtime.version`` changed since the last one; return whether one was added.

        Args:
            runtime: The running table; its screens give the seat pixels.
            picture: The picture to record, when a window already composed it.
        """
        public = None
        if self.public is not None:
            self.public.update()
            public = self.public.screen.image
        version = (runtime.version, self.public.frames if self.public is not None else 0)
        if version == self._version:
            return False
        self._version = version
        if picture is None:
            picture = compose(**picture_args(runtime, runtime.screens, self.log, public))
        added = self.add(picture)
        if added and self.kind == "png" and public is not None:
            size = (public.width * self.scale, public.height * self.scale)
            public.convert("RGB").resize(size, Image.Resampling.NEAREST).save(
                self.path / f"public_{self.frames:06}.png")
        return added

    def add(self, picture: Image.Image) -> bool:
        """Record one picture; False once ``max_frames`` is reached."""
        if self.max_frames is not None and self.frames >= self.max_frames:
            return False
        if self.device is None:
            self.device = self._open(picture.size)
        if picture.size != self.device.size:
            raise ValueError(f"picture size {picture.size} differs from the recording's {self.device.size}")
        self.device.display(picture)
        self.frames += 1
        return True

    def poll_once(self, runtime: Any) -> bool:
        """Wait briefly for a button event, handle what came, record a change; always True."""
        runtime.step(timeout=self.poll)
        runtime.drain()
        self.record(runtime)
        return True

    def run(self, runtime: Any, stop: Callable[[], bool] = lambda: False) -> None:
        """Record until ``stop()`` says so."""
        while not stop() and self.poll_once(runtime):
            pass

    def _open(self, size: tuple[int, int]) -> Any:
        devices = luma_emulator()
        width, height = size
        common = {"width": width, "height": height, "mode": "RGB", "scale": self.scale,
                  "transform": "identity" if self.scale > 1 else "none"}
        if self.kind == "gif":
            self.path.parent.mkdir(parents=True, exist_ok=True)
            device = devices.gifanim(filename=str(self.path), duration=self.duration, loop=0, **common)
            # gifanim writes at interpreter exit; `close` writes now instead, once.
            atexit.unregister(device.write_animation)
            return device
        self.path.mkdir(parents=True, exist_ok=True)
        return devices.capture(file_template=str(self.path / "table_{0:06}.png"), **common)

    def close(self) -> None:
        """Write the GIF (PNG frames are already written); safe to repeat."""
        device, self.device = self.device, None
        if device is not None and self.kind == "gif":
            device.write_animation()
            _log.info("wrote %d frames to %s", self.frames, self.path)

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
