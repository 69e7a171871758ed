"""The emulated table in a pygame window, through luma.emulator's ``pygame`` device."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from PIL import Image

from ..public import PublicDisplay, PublicTable
from .loop import Frontend, luma_emulator, public_image, screen_images
from .picture import compose

if TYPE_CHECKING:
    from .recorder import Recorder

_log = logging.getLogger(__name__)


class WindowFrontend(Frontend):
    """The table in a pygame window, through luma.emulator's ``pygame`` device.

    luma's ``display()`` pumps pygame's events (which keeps key events queued)
    and then ends the program with ``sys.exit()`` if ESC is down or a QUIT
    event is queued. So each poll takes every event off the queue first and
    handles ESC and QUIT itself, before any ``display()`` can see them; a
    ``SystemExit`` that still comes out of ``display()`` (a close in between)
    is taken as a quit.

    Args:
        table: As for `Frontend`.
        scale: Window pixels per picture pixel.
        poll_ms: How long a poll waits for a key.
        columns: Seats per row; default from the seat count.
        title: The window's caption.
        log: As for `Frontend`.
        recorder: As for `Frontend`.
        public: As for `Frontend`.
    """

    def __init__(self, table: Any, *, scale: int = 2, poll_ms: int = 50, columns: int | None = None,
                 title: str = "courtier", log: PublicTable | None = None, recorder: Recorder | None = None,
                 seats: int | None = None, public: PublicDisplay | None = None) -> None:
        super().__init__(table, log=log, recorder=recorder, seats=seats, public=public)
        self.poll_ms = poll_ms
        self.columns = columns
        self.picture: Image.Image | None = None
        images = screen_images([seat.screen for seat in table.seats[: self.seats]])
        width, height = compose(images, [""] * len(images), columns=columns, public=public_image(table)).size
        devices = luma_emulator()
        import pygame

        self._pygame = pygame
        self.device = devices.pygame(width=width, height=height, mode="RGB", scale=scale,
                                     transform="identity" if scale > 1 else "none")
        pygame.display.set_caption(title)

    def read_keys(self) -> list[str]:
        pygame = self._pygame
        if self._quit:
            return []  # pygame may be shut down already
        events = []
        if self.poll_ms > 0:
            first = pygame.event.wait(self.poll_ms)
            if first.type != pygame.NOEVENT:
                events.append(first)
        events += pygame.event.get()
        keys = []
        for event in events:
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key == pygame.K_ESCAPE):
                self._quit = True
                break
            if event.type == pygame.KEYDOWN and event.unicode:
                keys.append(event.unicode)
            elif event.type in (pygame.VIDEOEXPOSE, pygame.WINDOWEXPOSED):
                self._shown = None
        return keys

    def draw(self, runtime: Any) -> None:
        self.picture = compose(columns=self.columns, **self.snapshot(runtime))
        try:
            self.device.display(self.picture)
        except SystemExit:
            _log.info("the window was closed")
            self._quit = True
            return
        if self.recorder is not None:
            self.recorder.record(runtime, self.picture)

    def close(self) -> None:
        super().close()
        self.device.cleanup()
        self._pygame.quit()
