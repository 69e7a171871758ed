"""The neutral event a seat's buttons produce.

The firmware turns these into menu moves; nothing here knows what a move is.
"""

from dataclasses import dataclass

BUTTONS = ("prev", "next", "ok")
GESTURES = ("press", "hold")


@dataclass(frozen=True)
class InputEvent:
    """One gesture on one button of one seat.

    Attributes:
        seat: Index of the seat in the table, counting from 0.
        button: ``"prev"``, ``"next"`` or ``"ok"``.
        gesture: ``"press"`` (pressed and let go, or pressed for prev/next) or
            ``"hold"`` (ok kept down for the table's hold time: "back").
    """

    seat: int
    button: str
    gesture: str

    def __post_init__(self) -> None:
        if self.button not in BUTTONS:
            raise ValueError(f"button must be one of {BUTTONS}, not {self.button!r}")
        if self.gesture not in GESTURES:
            raise ValueError(f"gesture must be one of {GESTURES}, not {self.gesture!r}")
