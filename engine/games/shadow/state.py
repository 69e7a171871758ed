"""The state of a Shadow game: plain dataclasses that round-trip through JSON.

Places on the board are named by two strings: an area (an electorate id,
"throne" or "supply") and a spot inside it ("elector", "a2" for aristocrat
space 2, "k0" for castle 0, "c1" for city space 1, "" for the throne).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...rng import Rng

EMPIRE = -1  # the owner of an empire city


@dataclass
class Piece:
    """An aristocrat tile ("baron" or "couple", with its age) or a knight (age 0)."""

    kind: str
    owner: int
    age: int = 0

    @property
    def aristocrat(self) -> bool:
        return self.kind != "knight"


@dataclass
class Electorate:
    id: str
    elector: Piece | None
    spaces: list[Piece | None]  # aristocrat spaces: an aristocrat or a knight
    castles: list[Piece | None]  # knights only
    cities: list[int | None]  # a seat's city, EMPIRE, or empty
    used: bool = False  # its Phase IV privilege was used this round


@dataclass
class Player:
    thalers: int
    vp: int = 0
    vp_from: dict[str, int] = field(default_factory=dict)
    aristocrats: int = 0  # in supply
    knights: int = 0
    cities: int = 0
    cards: list[str] = field(default_factory=list)  # bought in the last Phase IV, face up in front
    copies: list[str] = field(default_factory=list)  # card effects used through Trier's privilege
    passed: bool = False
    chip: int = 0  # the coloured chip: thalers at the start of Phase IV (no rules effect)


@dataclass
class Task:
    """One pending decision: who decides, what kind, and its context."""

    kind: str
    seat: int
    area: str = ""
    spot: str = ""
    other: int = -1  # the proposer of a marriage, the old emperor, ...
    seats: list[int] = field(default_factory=list)  # tied seats
    piece: str = ""  # what a setup step places ("couple", "baron", "knight", "city", "elector")
    age: int = 0


@dataclass
class Pick:
    """A target chosen for a card used later: Gray eminence, Church influence, Excommunication."""

    kind: str
    seat: int
    area: str


@dataclass
class Contest:
    """Phase V's work on one electorate, kept while a seat decides."""

    area: str
    stage: str = "influence"  # influence -> winner -> displace -> done
    winner: int = -1
    scores: dict[int, int] = field(default_factory=dict)
    freed: str = ""  # the aristocrat space the new elector came from


@dataclass
class Election:
    """Phase VI: the candidates, everyone's votes, and the result once revealed."""

    emperor: int
    rival: int
    votes: dict[int, int] = field(default_factory=dict)
    revealed: dict[int, str] = field(default_factory=dict)  # voter -> "emperor" | "rival"
    emperor_total: int = 0
    rival_total: int = 0
    winner: int = -1


@dataclass
class ShadowState:
    phase: str
    players: int
    options: dict[str, Any]
    rng: Rng
    round: int
    emperor: int
    throne: Piece | None
    electorates: list[Electorate]
    seats: list[Player]
    stacks: dict[str, int]  # cards left in each stack this round
    empire_supply: int
    tasks: list[Task] = field(default_factory=list)
    cursor: int = 0  # the phase's next step
    index: int = 0  # the step's progress (a seat, an electorate, a setup placement)
    turn: int = -1  # Phase IV: the seat that took the last turn
    picks: list[Pick] = field(default_factory=list)
    contest: Contest | None = None
    limbo: Piece | None = None  # a tile between places (a displaced elector, the old emperor)
    ballots: dict[int, str] = field(default_factory=dict)  # secret until every voter is in
    election: Election | None = None
    news: list[dict[str, Any]] = field(default_factory=list)  # public events of the action in progress
    changes: list[dict[str, Any]] = field(default_factory=list)  # public events of the last action
    moves: list[dict[str, Any]] = field(default_factory=list)  # their physical steps, whole (engine.physical)
