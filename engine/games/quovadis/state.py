"""Quo Vadis state: plain dataclasses that round-trip through JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...rng import Rng


@dataclass
class Player:
    reserve: int  # senators not yet placed
    laurels: list[str] = field(default_factory=list)  # token names, face down: the owner's secret


@dataclass
class Vote:
    """A senator asking its committee to let it leave along a path."""

    mover: int
    committee: str
    path: str
    voters: list[int]  # the other owners with senators in the committee, each asked yes or no
    answers: dict[int, bool] = field(default_factory=dict)  # hidden until every voter has answered


@dataclass
class QuoVadisState:
    phase: str
    players: int
    options: dict[str, Any]
    rng: Rng
    seats: list[Player]
    committees: dict[str, list[int]]  # committee -> owners of the senators there (the Senate in arrival order)
    diamonds: dict[str, str]  # diamond path -> the face-up token on it ("" when empty)
    caesar: str  # the diamond path Caesar stands on
    bag: list[str]  # face-down tokens; the next drawn is the last
    supply: int  # "I" tokens left in the open reward supply
    unused: int  # "I" tokens left in the box (limited-supply variant)
    start: int
    active: int
    turn: int = 1
    played: int = 0  # turns played so far (the table's setup step shows before the first)
    vote: Vote | None = None
    payout: dict[int, int] = field(default_factory=dict)  # supporter -> senators still to be paid
    payout_left: int = 0  # reward tokens the mover still hands out
    bonus: bool = False  # a II-Caesar was collected: a Caesar move is offered at the end of the turn
    turn_done: bool = False
    recent: list[dict[str, Any]] = field(default_factory=list)  # public events of the last action
    moves: list[dict[str, Any]] = field(default_factory=list)  # its physical steps, whole (engine.physical)
    retry: bool = False  # the mover's vote just failed: the turn goes on
    revealed: list[dict[str, Any]] = field(default_factory=list)  # laurel totals shown by the reveal variant
    reveal_due: int = 0  # the n-th player just reached the Senate: a reveal may be demanded once the move is paid
    reveal_open: int = 0  # the n-th player reached the Senate: any player may demand the totals until the next move
    over: str = ""
