"""Power cuts: a real `courtier` process on the mock table, killed with SIGKILL again and again.

Each game is played twice by the same deterministic bots: once straight
through, once killed at random points (at least `COURTIER_CHAOS_KILLS` times,
50 by default) and restarted from its journal each time, sometimes with a
torn half-line left at the end as a power cut mid-write would. The final
states must be identical, and no action the process had acknowledged (saved
and fsynced, then printed as "ack N") may ever be missing from the journal.
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.codec import to_data
from engine.errors import BadJournal
from engine.games import all_games
from engine.match import Match
from firmware.table import journal as journals
from firmware.testing import journal_end

ROOT = Path(__file__).resolve().parents[1]
KILLS = int(os.environ.get("COURTIER_CHAOS_KILLS", "50"))
GAMES = [(g.name, min(g.max_players, g.min_players + 1)) for g in all_games()]

pytestmark = pytest.mark.chaos


def _command(game, players, state, *extra, python=(sys.executable,)):
    """`courtier play` of a seeded game by seeded bots on the mock table (also `test_faults.py`'s table)."""
    return [*python, "-m", "firmware", "play", game, "--players", str(players), "--seed", "11",
            "--ui", "bots", "--bot-seed", "5", "--state-dir", str(state), *extra]


def _env(**extra):
    return {**os.environ, "PYTHONPATH": str(ROOT), "COURTIER_HARDWARE": "mock", **extra}


def _final(state: Path) -> Match:
    loaded = journals.load(state / "current.jsonl")
    return Match.replay(loaded.header, loaded.actions)


def _until_first_ack(process: subprocess.Popen, seconds: float) -> str:
    """Read the process's output for up to `seconds`, stopping early once it has acknowledged an action."""
    deadline, output, fd = time.monotonic() + seconds, b"", process.stdout.fileno()
    while not any(line.startswith(b"ack ") for line in output.split(b"\n")):
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            break
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        output += chunk
    return output.decode("utf-8", "replace")


@pytest.mark.parametrize("game, players", GAMES)
def test_a_table_killed_at_random_points_finishes_the_same_game_and_loses_no_saved_action(game, players, tmp_path):
    straight = tmp_path / "straight"
    subprocess.run(_command(game, players, straight), env=_env(), check=True, capture_output=True, timeout=300)
    # How long a warm start takes to its first saved action (the first run also compiled the code).
    started = time.monotonic()
    process = subprocess.Popen(_command(game, players, tmp_path / "timing"), env=_env(), stdout=subprocess.PIPE,
                               text=True)
    startup = next((time.monotonic() - started for line in process.stdout if line.startswith("ack ")), 1.0)
    process.stdout.read()
    process.stdout.close()
    assert process.wait(timeout=300) == 0
    reference = _final(straight)
    assert reference.is_over
    length = len(reference.actions)

    rng = random.Random(f"{game}-chaos")
    per_kill = max(1.0, length / (KILLS * 1.5))  # acks to let through between kills, on average
    state = tmp_path / "chaos"
    kills = torn = 0
    warned = False
    saved: list = []
    for _ in range(KILLS * 10):
        process = subprocess.Popen(_command(game, players, state), env=_env(), stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True)
        finished = kills >= KILLS
        lines: list[str] = []
        # The bots play faster than this test reads, so a kill after some acks may land many actions
        # later; while the kills still to come outnumber a third of the actions left, kill at start.
        short = length - len(saved) < 3 * (KILLS - kills)
        if not finished and (short or rng.random() < 0.5):
            # Pull the plug at a random moment of the start: while Python loads, while the journal
            # is read and replayed, or as the first action is being saved; at the latest as soon as
            # the first action is acknowledged, so a start quicker than any seen before (the
            # machine's load fell) never lets the game run to its end.
            lines.append(_until_first_ack(process, rng.uniform(0.0, startup * 0.6)))
            process.send_signal(signal.SIGKILL)
        else:
            seen, kill_after = 0, rng.randint(0, int(2 * per_kill))  # acks to let through
            launched = time.monotonic()
            for line in process.stdout:
                lines.append(line)
                if line.startswith("ack ") and not seen:
                    startup = min(startup, time.monotonic() - launched)  # the quickest start seen
                seen += line.startswith("ack ")
                if not finished and seen > kill_after:
                    process.send_signal(signal.SIGKILL)
                    break
        lines = "".join([*lines, process.stdout.read()]).splitlines()
        process.stdout.close()
        code = process.wait(timeout=60)
        warned |= any("cut off" in line for line in lines)
        acked = max((int(line.split()[1]) for line in lines if line.startswith("ack ")), default=0)
        if code == 0:
            break
        assert code == -signal.SIGKILL, f"the table failed by itself (exit {code}): {lines[-5:]}"
        kills += 1
        try:
            saved = journals.load(state / "current.jsonl").actions
        except (BadJournal, journals.Unreadable):
            saved = []  # killed before the journal's header was written: a new game starts
        assert len(saved) >= acked, f"kill {kills}: action {acked} was acknowledged but is not in the journal"
        if saved and rng.random() < 0.1:  # a power cut in the middle of writing a line
            # The line goes where the next record would: over the zeros laid after the records.
            with open(state / "current.jsonl", "r+b") as journal:
                journal.seek(journal_end(state / "current.jsonl"))
                journal.write(b'{"type":"action","n":')
            torn += 1
    else:
        pytest.fail("the game never finished")
    assert kills >= KILLS
    assert torn == 0 or warned, "a torn last line was reported on restart"
    final = _final(state)
    assert final.is_over
    assert to_data(final.state) == to_data(reference.state)
    assert final.result() == reference.result()
    print(f"\n{game}: {kills} kills survived, {torn} torn lines, {length} actions, 0 acknowledged actions lost")
