"""The engine as it was when its speed targets were set, timed in the same run as today's.

The engine targets (Quo Vadis 5p >= 100 whole random games a second, Shadow
4p >= 60, Tennō 7p >= 300) were set beside that day's figures on this machine,
about 30, 30 and 150-165 (``THEN``). This shared machine's speed moves about
twofold from hour to hour (the bench's n-body check), so a figure of today
against a figure of that day mixes the code's change with the machine's. The
engine of that day is ``TARGETS_SET``, the commit before the first engine
change made for the targets (d93f252): ``git archive`` lays its ``engine/``
out in a temporary directory, and a child process started there plays the
same seeded uniform-random games with ``bench.throughput.measure_engine``,
whose ``engine`` imports then find that engine before today's (the child
says which it imported, and it is checked). The two engines play in short
parts taken in turn, so a change of the machine's speed falls on both; their
ratio is what the target asked for: 100 over 30 is x3.33.

A checkout without that history (a tarball, a shallow clone) measures
nothing here and says why (``NoBaseline``).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .throughput import EngineFigures, measure_engine

ROOT = Path(__file__).resolve().parents[1]
TARGETS_SET = "418977cad54fce12e142f6bdb6b7350893925eee"
THEN = {"quovadis": 30.0, "shadow": 30.0, "tenno": 157.5}  # games/s the targets were set beside (Tennō: 150-165)


class NoBaseline(RuntimeError):
    """The engine of `TARGETS_SET` cannot be laid out or played here; the message says why."""


@contextlib.contextmanager
def engine_then(commit: str = TARGETS_SET, root: Path = ROOT) -> Iterator[Path]:
    """A temporary directory holding `commit`'s ``engine/`` package, from the checkout's history."""
    try:
        archive = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", commit, "engine"],
                                 capture_output=True, check=False)
    except FileNotFoundError as exc:
        raise NoBaseline("git is not installed, so the engine of that day cannot be read") from exc
    if archive.returncode:
        why = archive.stderr.decode(errors="replace").strip().splitlines()
        raise NoBaseline(f"this checkout does not hold commit {commit[:7]}: {why[0] if why else 'git failed'}")
    with tempfile.TemporaryDirectory(prefix="courtier-engine-then-") as place:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
            tar.extractall(place, **safe)
        yield Path(place)


def measure_in_turn(tree: Path, game: str, players: int, *, budget: float, min_games: int,
                    turns: int = 20) -> tuple[EngineFigures, EngineFigures]:
    """Today's engine and the one laid out in `tree`, each given `budget` CPU seconds of seeded games in
    `turns` parts taken in turn on one core, so that the machine's changes of speed fall on both alike.

    Each engine plays seeds 0, 1, 2, ... across its parts, as ``measure_engine`` does in one go;
    the older one plays in a child process started in `tree` (see the module's docstring).
    Returns (today's figures, the older engine's).
    """
    path = os.pathsep.join([str(tree), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    errors = tempfile.TemporaryFile("w+")  # a file, not a pipe: the child's warnings can never fill it and stall it
    child = subprocess.Popen([sys.executable, "-m", "bench.throughput", game, str(players)], cwd=tree,
                             env={**os.environ, "PYTHONPATH": path}, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=errors, text=True)
    pinned = None
    now = [0, 0, 0.0]
    then = [0, 0, 0.0]
    part = budget / turns
    try:
        pinned = _same_core(child.pid)
        # Each engine first plays one game untimed: the game's own modules and data load in it, which today's
        # engine has done already when it played the game's smaller table.
        measure_engine(game, players, budget=0, min_games=1)
        _ask(child, errors, game, 0, 1, 0, tree)
        for turn in range(turns):
            least = min_games if turn == 0 else 0  # at least `min_games` games each, in the first part
            mine = measure_engine(game, players, budget=part, min_games=least, first=now[0])
            now = [now[0] + mine.games, now[1] + mine.actions, now[2] + mine.seconds]
            theirs = _ask(child, errors, game, part, least, then[0], tree)
            then = [then[0] + theirs["games"], then[1] + theirs["actions"], then[2] + theirs["seconds"]]
    finally:
        if child.stdin is not None:
            child.stdin.close()
        child.wait()
        errors.close()
        if pinned is not None:
            os.sched_setaffinity(0, pinned)
    return EngineFigures(game, players, *now), EngineFigures(game, players, *then)  # type: ignore[arg-type]


def _same_core(child: int) -> set[int] | None:
    """Run this process and `child` on one core for the measurement; return this process's cores before.

    The two cores of a shared machine run at speeds of their own from moment to moment: today's
    engine timed against itself this way reads x0.98-1.01, on whichever cores the system picks
    x0.82-1.39. None where the system cannot pin a process (not Linux).
    """
    if not hasattr(os, "sched_setaffinity"):
        return None
    before = os.sched_getaffinity(0)
    core = {min(before)}
    os.sched_setaffinity(0, core)
    os.sched_setaffinity(child, core)
    return before


def _ask(child: subprocess.Popen[str], errors: IO[str], game: str, budget: float, min_games: int, first: int,
         tree: Path) -> dict[str, Any]:
    """One part of the older engine's run: its games, actions and CPU seconds."""
    assert child.stdin is not None and child.stdout is not None
    try:
        child.stdin.write(f"{budget} {min_games} {first}\n")
        child.stdin.flush()
    except BrokenPipeError:
        pass  # the child has ended: its reason is read below
    line = child.stdout.readline()
    if not line:
        child.wait()
        errors.seek(0)
        lines = errors.read().strip().splitlines()
        raise NoBaseline(f"the engine of that day did not play {game}: {lines[-1] if lines else 'it ended'}")
    figures = json.loads(line)
    engine = Path(figures["engine"]).resolve()
    if not engine.is_relative_to(tree.resolve()):
        raise NoBaseline(f"the child imported the engine at {engine}, not the one laid out in {tree}")
    return figures
