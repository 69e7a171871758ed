"""The Quo Vadis board and laurel set as data, checked when they load.

The shipped board is an assumption (no source gives the real edge list), so
any board file can replace it; `parse_board` refuses one that breaks a rule
the sources do state, naming the rule.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import BadData, read_toml

_HERE = Path(__file__).parent


@dataclass(frozen=True)
class Committee:
    id: str
    seats: int
    name: str
    entry: bool = False
    senate: bool = False

    @property
    def need(self) -> int:
        """Votes needed to leave: a majority of the seats (not of the senators present)."""
        return self.seats // 2 + 1


@dataclass(frozen=True)
class Path_:
    id: str
    source: str
    dest: str
    diamond: bool


@dataclass(frozen=True)
class Board:
    committees: dict[str, Committee]
    paths: dict[str, Path_]
    caesar_start: str
    assumption: bool = False

    def exits(self, committee: str) -> list[Path_]:
        return self._exits.get(committee, [])

    @functools.cached_property
    def _exits(self) -> dict[str, list[Path_]]:
        exits: dict[str, list[Path_]] = {}
        for path in self.paths.values():
            exits.setdefault(path.source, []).append(path)
        return exits

    @functools.cached_property
    def diamonds(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.paths.values() if p.diamond)

    @functools.cached_property
    def entries(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.committees.values() if c.entry)

    @functools.cached_property
    def senate(self) -> Committee:
        return next(c for c in self.committees.values() if c.senate)


@dataclass(frozen=True)
class Laurel:
    name: str
    value: int
    count: int
    caesar: bool = False


@dataclass(frozen=True)
class LaurelSet:
    kinds: dict[str, Laurel]
    limited_supply: dict[int, int]

    @property
    def reward(self) -> str:
        """The open-supply token paid to supporters: the one worth 1."""
        return next(k.name for k in self.kinds.values() if k.value == 1 and not k.caesar)

    def bag(self) -> list[str]:
        """Every token that starts in the bag (all but the reward tokens), in a fixed order."""
        return [k.name for k in self.kinds.values() if k.name != self.reward for _ in range(k.count)]

    @property
    def total(self) -> int:
        return sum(k.count for k in self.kinds.values())


def load_board(path: Path = _HERE / "board.toml") -> Board:
    return parse_board(read_toml(path), path.name)


def parse_board(data: dict[str, Any], source: str = "board") -> Board:
    """Build a board and check the rules the sources state; raise BadData naming the first broken one."""
    def bad(rule: str) -> BadData:
        return BadData(f"{source}: {rule}")

    committees = {}
    for cid, raw in data.get("committees", {}).items():
        try:
            committees[cid] = Committee(id=cid, **raw)
        except TypeError as err:
            raise bad(f"committee {cid}: {err}") from err
        if committees[cid].seats not in (1, 3, 5):
            raise bad(f"committee {cid} has {committees[cid].seats} seats; committees have 1, 3 or 5")
    senates = [c for c in committees.values() if c.senate]
    if len(senates) != 1 or senates[0].seats != 5:
        raise bad("there must be exactly one Senate, with 5 seats")
    ordinary = [c for c in committees.values() if not c.senate]
    sizes = {n: sum(1 for c in ordinary if c.seats == n) for n in (1, 3, 5)}
    if sizes != {1: 7, 3: 5, 5: 2}:
        raise bad(f"committees by size must be 7/5/2 of 1/3/5 seats, not {sizes[1]}/{sizes[3]}/{sizes[5]}")
    if sum(1 for c in ordinary if c.entry) != 4:
        raise bad(f"there must be 4 entry committees, not {sum(1 for c in ordinary if c.entry)}")

    paths = {}
    for pid, raw in data.get("paths", {}).items():
        if not (isinstance(raw, list) and len(raw) == 3 and isinstance(raw[2], bool)):
            raise bad(f"path {pid} must be [from, to, diamond]")
        src, dst, diamond = raw
        if src not in committees or dst not in committees:
            raise bad(f"path {pid} joins an unknown committee ({src} -> {dst})")
        if committees[src].senate:
            raise bad(f"path {pid} leaves the Senate; nothing leaves the Senate")
        paths[pid] = Path_(pid, src, dst, diamond)
    board = Board(committees, paths, str(data.get("caesar_start", "")), bool(data.get("assumption", False)))

    if len(board.diamonds) != 10:
        raise bad(f"there must be 10 laurel diamonds, not {len(board.diamonds)}")
    for p in paths.values():
        multi = committees[p.source].seats > 1
        if p.diamond != multi:
            raise bad(f"path {p.id}: a diamond lies exactly on the paths leaving 3- and 5-seat committees")
    _check_acyclic_and_reaching(board, bad)
    for c in ordinary:
        if not 1 <= len(board.exits(c.id)) <= 2:
            raise bad(f"committee {c.id} has {len(board.exits(c.id))} upward paths; each has one or two")
    start = paths.get(board.caesar_start)
    if start is None or not start.diamond or not committees[start.dest].senate:
        raise bad("Caesar must start on the diamond of a path into the Senate")
    return board


def _check_acyclic_and_reaching(board: Board, bad: Any) -> None:
    state: dict[str, int] = {}  # 1 = on the current walk, 2 = done

    def walk(node: str, trail: list[str]) -> None:
        if state.get(node) == 2:
            return
        if state.get(node) == 1:
            raise bad(f"the paths form a cycle: {' -> '.join(trail + [node])}")
        state[node] = 1
        for p in board.exits(node):
            walk(p.dest, trail + [node])
        state[node] = 2

    for node in board.committees:
        walk(node, [])
    senate = board.senate.id
    reach = {senate}
    changed = True
    while changed:
        changed = False
        for p in board.paths.values():
            if p.dest in reach and p.source not in reach:
                reach.add(p.source)
                changed = True
    stuck = sorted(set(board.committees) - reach)
    if stuck:
        raise bad(f"committee {stuck[0]} cannot reach the Senate; every committee must")


def load_laurels(path: Path = _HERE / "laurels.toml") -> LaurelSet:
    data = read_toml(path)
    kinds = {}
    for name, raw in data.get("laurels", {}).items():
        try:
            kinds[name] = Laurel(name=name, **raw)
        except TypeError as err:
            raise BadData(f"{path.name}: laurel {name}: {err}") from err
    laurels = LaurelSet(kinds, {int(k): int(v) for k, v in data.get("limited_supply", {}).items()})
    if laurels.total != 62:
        raise BadData(f"{path.name}: there are 62 laurels, this file has {laurels.total}")
    if sum(1 for k in kinds.values() if k.value == 1 and not k.caesar) != 1:
        raise BadData(f"{path.name}: exactly one kind of token worth 1 serves as the reward supply")
    return laurels


BOARD = load_board()
LAURELS = load_laurels()
