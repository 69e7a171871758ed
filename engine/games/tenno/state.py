"""Tennō's state: plain dataclasses that round-trip through JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...rng import Rng


@dataclass
class Taken:
    """A card out of its owner's hands: in a prisoner pile or the discard."""

    owner: int
    card: int


@dataclass
class Peek:
    """What a seat saw when it looked at a card; `stale` once that slot may have changed."""

    target: int
    slot: int
    card: int
    turn: int
    stale: bool = False


@dataclass
class Player:
    row: list[int | None]
    hand: list[int]
    captives: list[Taken] = field(default_factory=list)
    arranged: bool = False
    # What everyone saw of each row slot (revealed in a fight or by a Monk) and still holds.
    known: list[int | None] = field(default_factory=list)
    peeks: list[Peek] = field(default_factory=list)


@dataclass
class Fight:
    attacker: int
    slot: int
    attack_card: int
    defender: int
    target_slot: int
    defend_card: int = -1  # hidden until the fight is resolved
    monk_slot: int = -1
    attack_strength: int = 0
    defend_strength: int = 0
    outcome: str = ""  # "" until resolved, then "attacker", "defender" or "tie"
    attacker_lost: bool = False
    defender_lost: bool = False
    captor: int = -1  # the seat whose prisoner pile took a card, or -1

    @property
    def resolved(self) -> bool:
        return self.outcome != ""


@dataclass
class Reward:
    kind: str  # "swap" or "peek"
    seat: int
    target: int = -1  # whose row a peek looks at
    fight: int = 0


@dataclass
class TennoState:
    phase: str
    players: int
    options: dict[str, Any]
    rng: Rng
    seats: list[Player]
    start: int
    active: int
    turn: int = 1
    fights: list[Fight] = field(default_factory=list)
    last_fights: list[Fight] = field(default_factory=list)
    rewards: list[Reward] = field(default_factory=list)
    ronin_declined: bool = False
    passed: bool = False
    discard: list[Taken] = field(default_factory=list)
    over: str = ""  # why the game ended; "" while it goes on
    ender: int = -1  # the seat that could not refill
    recent: list[dict[str, Any]] = field(default_factory=list)  # public events of the last action
    moves: list[dict[str, Any]] = field(default_factory=list)  # its physical steps, whole (engine.physical)
