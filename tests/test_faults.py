"""Faults of a real Pi, injected into a real `courtier play` process on the mock table.

Beside power cuts (`test_chaos.py`), a table meets a card that refuses writes
(full, or over a file-size limit), a second `courtier play` on its state
directory, a journal whose last newline was lost, lines nested past a
parser's recursion limit on its serial links and in its journal, a journal it
may not read for a while, and a saved game for more seats than its table
file has. Each test here plays whole games with the same deterministic bots
as `test_chaos.py`, injects one fault class at random points
(`COURTIER_CHAOS_FAULTS` times, 3 by default, each class on one game; `make chaos`
injects more, into every game), and
ends with the game finished and equal to an uninterrupted run, or with a
clear refusal and nothing lost. Every action the process acknowledged
("ack N", printed once it is fsynced) must be in the journal after every
fault, and nothing the process refused may be.
"""

from __future__ import annotations

import errno
import functools
import json
import os
import random
import resource
import select
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

from engine.codec import to_data
from engine.errors import BadJournal
from engine.match import Match
from firmware.exits import CONFIG, TEMPFAIL
from firmware.table import journal as journals
from firmware.testing import PtyPort, journal_end, unprivileged, unprivileged_python

from .test_chaos import GAMES, ROOT, _command, _env, _final

FAULTS = int(os.environ.get("COURTIER_CHAOS_FAULTS", "3"))
LONG = "COURTIER_CHAOS_FAULTS" in os.environ  # make chaos: every fault class on every game


def _games(turn: int) -> list[tuple[str, int]]:
    """The games a fault class is tried on: all of them in a long run, one (a different one per class) in a quick one."""
    return GAMES if LONG else [GAMES[turn % len(GAMES)]]
WAIT = 120.0  # seconds a step of a game may take on a loaded machine before the test gives up

pytestmark = pytest.mark.chaos


class Table:
    """A running `courtier play --ui bots`, read line by line without blocking past `WAIT`."""

    def __init__(self, argv, **popen):
        self.process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        env=popen.pop("env", _env()), **popen)
        self.pid = self.process.pid
        self.lines: list[str] = []
        self.acked = 0
        self._buffer = b""

    def until(self, wanted) -> str | None:
        """Read lines until one makes `wanted(line)` true; return it, or None at the end of output."""
        while True:
            while b"\n" in self._buffer:
                raw, self._buffer = self._buffer.split(b"\n", 1)
                line = raw.decode("utf-8", "replace")
                self.lines.append(line)
                if line.startswith("ack "):
                    self.acked = int(line.split()[1])
                if wanted(line):
                    return line
            ready, _, _ = select.select([self.process.stdout], [], [], WAIT)
            assert ready, f"the table said nothing for {WAIT} s: {self.lines[-5:]}"
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                return None
            self._buffer += chunk

    def acks(self, count: int) -> bool:
        """Wait for `count` more acknowledged actions; False if the game ended first."""
        goal = self.acked + count
        return self.until(lambda line: self.acked >= goal) is not None

    def finish(self) -> int:
        self.until(lambda line: False)
        code = self.process.wait(timeout=WAIT)
        self.stderr = self.process.stderr.read().decode("utf-8", "replace")
        self.process.stdout.close()
        self.process.stderr.close()
        return code

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        assert self.finish() == -signal.SIGKILL


@functools.cache
def _reference(game: str, players: int, *extra: str) -> tuple:
    """The final state, result and length of an uninterrupted run."""
    with tempfile.TemporaryDirectory() as state:
        subprocess.run(_command(game, players, state, *extra), env=_env(), check=True, capture_output=True,
                       timeout=600)
        final = _final(Path(state))
    assert final.is_over
    return to_data(final.state), final.result(), len(final.actions)


def _saved(state: Path) -> list:
    return journals.load(state / "current.jsonl").actions


def _same_as_reference(state: Path, game: str, players: int, *extra: str) -> int:
    """Check the game in `state` finished exactly as an uninterrupted run; return its length."""
    loaded = journals.load(state / "current.jsonl")
    assert loaded.warnings == [], loaded.warnings
    final = Match.replay(loaded.header, loaded.actions)
    state_data, result, length = _reference(game, players, *extra)
    assert final.is_over and to_data(final.state) == state_data and final.result() == result
    return length


def _advance(table: Table, rng: random.Random, length: int) -> None:
    """Let a random few actions through (at most half the game over all faults), so every fault lands mid-game."""
    if not table.acks(rng.randint(1, max(1, length // (2 * FAULTS)))):
        pytest.fail("the game ended before every fault was injected")


def _report(name: str, game: str, faults: int, length: int) -> None:
    print(f"\n{name} {game}: {faults} faults, {length} actions, 0 acknowledged actions lost")


# --- a card that refuses writes --------------------------------------------------------

@pytest.mark.parametrize("game, players", _games(0))
def test_writes_refused_at_random_points_leave_no_trace_and_the_game_finishes_the_same(game, players, tmp_path):
    """The file-size limit of the running process is lowered (as `prlimit --fsize` does) to a random
    few bytes past the journal's end, so a record is cut anywhere in its line; the seats are told,
    nothing counts, and the limit is lifted again (or the process is killed while refusing)."""
    state = tmp_path / "state"
    length = _reference(game, players)[2]
    rng = random.Random(f"{game}-refused")
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    table = Table(_command(game, players, state))
    faults = killed = 0
    while faults < FAULTS:
        _advance(table, rng, length)
        size = journal_end(state / "current.jsonl")  # its records: the zeros laid after them are written over
        resource.prlimit(table.pid, resource.RLIMIT_FSIZE, (size + rng.randint(0, 120), hard))
        refused = table.until(lambda line: line.startswith("refused "))
        assert refused is not None and "Not saved (File too large)" in refused
        faults += 1
        saved = journals.load(state / "current.jsonl").actions
        assert len(saved) == table.acked, f"{table.acked} acknowledged, {len(saved)} in the journal"
        if rng.random() < 0.3:  # the power goes while the card refuses: the restart resumes
            table.kill()
            killed += 1
            table = Table(_command(game, players, state))
        else:
            resource.prlimit(table.pid, resource.RLIMIT_FSIZE, (soft, hard))
    assert table.finish() == 0, table.stderr
    length = _same_as_reference(state, game, players)
    _report("refused writes (RLIMIT_FSIZE)", game, faults, length)


def _hold(table: Table, state: Path) -> None:
    """Hold a running game still: its journal may not grow, so every action is refused until killed."""
    _, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.prlimit(table.pid, resource.RLIMIT_FSIZE, (journal_end(state / "current.jsonl"), hard))
    assert table.until(lambda line: line.startswith("refused ")) is not None


def _tmpfs_holder(mount: Path) -> subprocess.Popen:
    """A process that holds a 1 MiB tmpfs on `mount` in its own user and mount namespaces.

    No root needed (an unprivileged user namespace); the tmpfs is reached from
    outside through /proc/PID/root, and vanishes with the process.
    """
    mount.mkdir()
    script = 'mount -t tmpfs -o size=1m tmpfs "$0" && echo ready && exec cat'
    holder = subprocess.Popen(["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script, str(mount)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if holder.stdout.readline().strip() != "ready":
        holder.stdin.close()
        holder.wait(timeout=10)
        pytest.skip(f"cannot mount a small tmpfs in a user namespace here: {holder.stderr.read().strip()}")
    return holder


def _fill(disk: Path, leave_pages: int = 0) -> None:
    """Fill the tmpfs up (ENOSPC), then give `leave_pages` pages of it back."""
    page = os.sysconf("SC_PAGE_SIZE")
    with open(disk / "filler", "wb", buffering=0) as filler:
        try:
            while filler.write(bytes(page)):
                pass
        except OSError as full:
            assert full.errno == errno.ENOSPC
        filler.truncate(max(0, filler.tell() - leave_pages * page))


@pytest.mark.parametrize("game, players", _games(1))
def test_a_full_file_system_refuses_writes_and_the_game_goes_on_once_space_is_freed(game, players, tmp_path):
    """ENOSPC for real: the state directory is on a 1 MiB tmpfs, filled up, then freed.

    A card that fills up while a game plays still saves it into the zeros
    its journal laid ahead, so each game begins on a card filled up to a
    few pages: no zeros can be laid, each record grows the file, and tmpfs
    gives space a page (4 KiB) at a time, so the record that crosses into
    the first page there is no room for is refused, cut where the page
    ends. The space is given back; the game goes on and lays its zeros.
    Then the card is filled again: the next actions are saved into them.
    Games are played again, each in a fresh directory, until every fault is in.
    """
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed: no tmpfs without root")
    holder = _tmpfs_holder(tmp_path / "disk")
    rng = random.Random(f"{game}-enospc")
    faults = games = into_zeros = 0
    try:
        disk = Path(f"/proc/{holder.pid}/root") / (tmp_path / "disk").relative_to("/")
        while faults < FAULTS:
            games += 1
            state = disk / f"state-{games}"
            _fill(disk, leave_pages=rng.randint(2, 3))  # room for the lock, the header and a few records
            table = Table(_command(game, players, state))
            refused = table.until(lambda line: line.startswith("refused "))
            if refused is not None:
                assert "No space left on device" in refused
                faults += 1
                assert len(journals.load(state / "current.jsonl").actions) == table.acked
            (disk / "filler").unlink()  # space comes back
            if table.acks(3):  # the zeros are laid once an action is saved and drawn
                _fill(disk)
                saved = table.acked
                if table.acks(3):
                    into_zeros += table.acked - saved
                assert not any(line.startswith("refused ") for line in table.lines[-4:]), table.lines[-4:]
                (disk / "filler").unlink()
            assert table.finish() == 0, table.stderr
            length = _same_as_reference(state, game, players)
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)
    assert into_zeros > 0
    _report(f"a full file system (ENOSPC), {games} games; {into_zeros} actions saved into laid zeros on a full card",
            game, faults, length)


# --- two tables on one state directory, and a stale lock --------------------------------

@pytest.mark.parametrize("game, players", _games(2))
def test_a_second_table_on_the_directory_exits_at_once_and_a_killed_ones_lock_never_blocks(game, players, tmp_path):
    state = tmp_path / "state"
    length = _reference(game, players)[2]
    rng = random.Random(f"{game}-lock")
    table = Table(_command(game, players, state))
    faults = 0
    while faults < FAULTS:
        _advance(table, rng, length)
        _hold(table, state)  # so the game cannot end while the second process starts
        second = subprocess.run(_command(game, players, state), env=_env(), capture_output=True, text=True,
                                timeout=WAIT)
        assert second.returncode == TEMPFAIL
        assert f"another courtier is running the table in {state} (pid {table.pid}: " in second.stderr
        assert "ack" not in second.stdout
        faults += 1
        table.kill()  # its lock dies with it: the restart is not blocked
        assert len(_saved(state)) >= table.acked
        table = Table(_command(game, players, state))
    assert table.finish() == 0, table.stderr
    length = _same_as_reference(state, game, players)
    _report("a second process on the state directory", game, faults, length)


# --- a last record whose newline is missing ----------------------------------------------

@pytest.mark.parametrize("game, players", _games(3))
def test_a_last_record_without_its_newline_is_mended_before_the_game_goes_on(game, players, tmp_path):
    state = tmp_path / "state"
    length = _reference(game, players)[2]
    rng = random.Random(f"{game}-newline")
    faults = 0
    table = Table(_command(game, players, state))
    while faults < FAULTS:
        _advance(table, rng, length)
        table.kill()
        path = state / "current.jsonl"
        data = journals.records_of(path.read_bytes())
        assert len(journals.load(path).actions) >= table.acked
        if data.endswith(b"\n"):
            path.write_bytes(data[:-1])  # a cut exactly before the last byte
            faults += 1
        table = Table(_command(game, players, state))
    assert table.finish() == 0, table.stderr
    length = _same_as_reference(state, game, players)
    _report("a last record without its newline", game, faults, length)


# --- lines nested past the parsers' recursion limit ----------------------------------------

NESTED = [b"[" * 3000, b'{"a":' * 800, b"[" * 1500 + b"]" * 1500, b'{"v":1,"type":"hello","pod":' + b"[" * 2000]


class Listener:
    """Reads what the Pi sends on some ptys, on its own thread, so the Pi's writes never block.

    `wait(port, wanted, what)` waits until `wanted(messages)` holds for that port's messages.
    """

    def __init__(self, ports: list[PtyPort]) -> None:
        self.ports = ports
        self.messages: dict[int, list[dict]] = {port.master: [] for port in ports}
        self._changed = threading.Condition()
        self._stop = False
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        buffers = {port.master: b"" for port in self.ports}
        while not self._stop:
            ready, _, _ = select.select(list(buffers), [], [], 0.1)
            with self._changed:
                self._changed.notify_all()  # a waiter may also watch a file: let it look again
            for fd in ready:
                try:
                    buffers[fd] += os.read(fd, 65536)
                except OSError:
                    continue
                *lines, buffers[fd] = buffers[fd].split(b"\n")
                with self._changed:
                    self.messages[fd] += [json.loads(line) for line in lines if line.strip()]
                    self._changed.notify_all()

    def wait(self, port: PtyPort, wanted, what: str, timeout: float | None = None) -> list[dict]:
        """The port's messages once `wanted` holds; with a `timeout`, [] if it did not hold in time."""
        with self._changed:
            seen = self._changed.wait_for(lambda: wanted(self.messages[port.master]), timeout or WAIT)
            if timeout is not None and not seen:
                return []
            assert seen, f"never saw {what}; got {self.messages[port.master][-3:]}"
            return list(self.messages[port.master])

    def close(self) -> None:
        self._stop = True
        self._thread.join()


TABLE = """
[table]
backend = "mock"
[[seat]]
name = "Red"
buttons = {{ prev = 5, next = 6, ok = 13 }}
screen = {{ driver = "ssd1306", bus = "i2c", port = 1, address = 0x3C }}
[[seat]]
name = "Blue"
{blue}
[[seat]]
name = "Green"
buttons = {{ prev = 19, next = 26, ok = 12 }}
screen = {{ driver = "ssd1306", bus = "i2c", port = 1, address = 0x3D }}
"""
# The mock backend plugs a device path into loop://; pyserial's alt:// URL opens the pty itself.
POD_SEAT = 'serial = {{ port = "alt://{port}" }}'
WIRED_SEAT = ('buttons = { prev = 20, next = 21, ok = 16 }\n'
              'screen = { driver = "ssd1306", bus = "i2c", port = 2, address = 0x3C }')


def test_lines_nested_too_deeply_on_each_serial_link_are_answered_and_good_lines_beside_them_count(tmp_path):
    """A pod's link and the host console's each get nested lines and a good hello in one write, again
    and again: the bad lines are answered with errors (as fast as the rate limit lets them), every
    hello is answered, and the game plays on the same."""
    pod, console = PtyPort(str(tmp_path / "pod")), PtyPort(str(tmp_path / "console"))
    table_file, reference_file = tmp_path / "table.toml", tmp_path / "reference.toml"
    table_file.write_text(TABLE.format(blue=POD_SEAT.format(port=pod.path)))
    # The same seats, the pod unplugged: the uninterrupted run to compare with.
    reference_file.write_text(TABLE.format(blue=POD_SEAT.format(port=tmp_path / "absent")))
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    _reference("tenno", 3, "--table", str(reference_file))
    state = tmp_path / "state"
    listener = Listener([pod, console])
    table = Table(_command("tenno", 3, state, "--table", str(table_file), "--console", console.path))
    faults = 0
    try:
        assert table.acks(1)
        _hold(table, state)  # a full card: the game cannot end while the links are tried
        for port, hello, answer in ((pod, b'{"v":1,"type":"hello","pod":"pod/1"}', "face"),
                                    (console, b'{"v":1,"type":"hello","pod":"courtier-console/1"}', "table")):
            def count(kind, messages):
                return sum(m.get("type") == kind for m in messages)

            for _round in range(FAULTS):
                before = count(answer, listener.wait(port, lambda m: count(answer, m) > 0, f"the first {answer}"))
                port.write(b"\n".join(NESTED) + b"\n" + hello + b"\n")
                faults += len(NESTED)
                got = listener.wait(port, lambda m: count(answer, m) > before, f"the {answer} answering hello")
            # Error lines are answered up to ERRORS_PER_SECOND a second: the first round's all are.
            errors = [m["message"] for m in got if m.get("type") == "error"]
            assert len(errors) >= len(NESTED) and sum("nested too deeply" in e for e in errors) >= 2, errors
        resource.prlimit(table.pid, resource.RLIMIT_FSIZE, (soft, hard))
        assert table.finish() == 0, table.stderr
    finally:
        listener.close()
        pod.close()
        console.close()
    length = _same_as_reference(state, "tenno", 3, "--table", str(reference_file))
    _report("nested JSON on a pod link and the console link", "tenno", faults, length)


@pytest.mark.parametrize("game, players", GAMES[:1])
def test_a_journal_line_nested_too_deeply_is_kept_aside_and_the_table_starts(game, players, tmp_path):
    """A damaged journal never crash-loops the table: it is kept aside byte for byte and a new game starts."""
    state = tmp_path / "state"
    table = Table(_command(game, players, state))
    assert table.acks(5)
    table.kill()
    path = state / "current.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines.insert(3, b"[" * 100_000)
    damaged = b"\n".join(lines)
    path.write_bytes(damaged)
    again = Table(_command(game, players, state))
    assert again.finish() == 0, again.stderr
    kept = state / "current.unreadable-1.jsonl"
    assert kept.read_bytes() == damaged
    assert any(f"line 4 is nested too deeply to be a journal record). It is kept as {kept}" in line
               for line in again.lines)
    _same_as_reference(state, game, players)
    _report("a journal line nested too deeply", game, 1, 0)


# --- a journal unreadable for a while ------------------------------------------------------

def _make_unusable(path: Path, how: str) -> tuple[str, str]:
    """Make the journal unusable for a passing reason; return words its refusal must hold."""
    if how == "unreadable":
        os.chmod(path, 0)
    elif how == "read-only":  # a file left owned by another user: readable, not writable
        os.chmod(path, 0o444)
    else:  # an I/O error: reading /proc/self/mem at offset 0 fails with EIO in whoever reads it
        os.replace(path, path.with_name("held.jsonl"))
        os.symlink("/proc/self/mem", path)
        return "Input/output error", "check the card"
    return "Permission denied", "chown -R courtier:"


def _make_usable(path: Path) -> None:
    held = path.with_name("held.jsonl")
    if held.exists():
        os.replace(held, path)
    os.chmod(path, 0o644)


@pytest.mark.parametrize("game, players", _games(4))
def test_a_journal_unreadable_for_a_while_stops_the_table_with_the_reason_and_loses_nothing(game, players):
    """Permission denied or an I/O error is not damage: the table refuses to start (exit 78, one
    line saying why and what to do), the file stays where it is, and once it can be used again the
    game resumes. The journal is made unreadable, readable but not writable (a file left owned by
    another user), or a read of it fails with EIO, in turn."""
    try:
        python, extra_env = unprivileged_python(str(ROOT))
    except RuntimeError as why:
        pytest.skip(f"cannot drop root's privileges for this test: {why}")
    home = Path(tempfile.mkdtemp(prefix="courtier-faults-"))
    try:
        os.chmod(home, 0o777)
        state = home / "state"
        env = _env(**dict(extra_env))
        run = dict(env=env, cwd=home, **unprivileged())
        length = _reference(game, players)[2]
        rng = random.Random(f"{game}-unreadable")
        table = Table(_command(game, players, state, python=python), **run)
        faults = 0
        while faults < FAULTS:
            _advance(table, rng, length)
            table.kill()
            path = state / "current.jsonl"
            before = path.read_bytes()
            reason, what_to_do = _make_unusable(path, ("unreadable", "read-only", "eio")[faults % 3])
            refused = subprocess.run(_command(game, players, state, python=python), capture_output=True,
                                     text=True, timeout=WAIT, **run)
            assert refused.returncode == CONFIG, refused.stderr
            message = refused.stderr.strip()
            assert len(message.splitlines()) == 1 and reason in message, message
            assert "it is left as it is" in message and what_to_do in message, message
            assert sorted(p.name for p in state.glob("current*")) == [path.name]  # nothing moved aside
            _make_usable(path)
            assert path.read_bytes() == before
            faults += 1
            table = Table(_command(game, players, state, python=python), **run)
        assert table.finish() == 0, table.stderr
        length = _same_as_reference(state, game, players)
    finally:
        shutil.rmtree(home)
    _report("a journal unreadable for a while (permission denied, I/O error)", game, faults, length)


# --- a saved game for more seats than the table has --------------------------------------

def test_a_saved_game_for_more_seats_than_the_table_is_kept_and_a_new_game_starts(tmp_path):
    """The table file lost a seat since the game was saved: the game is kept, a game for three starts."""
    state = tmp_path / "state"
    table = Table(_command("tenno", 4, state))
    assert table.acks(6)
    table.kill()
    saved = (state / "current.jsonl").read_bytes()
    three = tmp_path / "table.toml"
    three.write_text(TABLE.format(blue=WIRED_SEAT))
    again = Table(_command("tenno", 3, state, "--table", str(three)))
    assert again.finish() == 0, again.stderr
    kept = list((state / "games").glob("tenno-unfinished-*.jsonl"))
    assert len(kept) == 1 and kept[0].read_bytes() == saved
    assert "The saved game of Tennō is for 4 players, but this table has 3 seats." in again.lines
    assert f"The previous game is kept as {kept[0]}." in again.lines
    assert _final(state).is_over and _final(state).header.players == 3
    _report("a saved game for more seats than the table", "tenno", 1, 0)


# --- the console's undo and new game on a card that refuses writes --------------------------

def _replies(messages: list[dict]) -> list[str]:
    return [m["message"] for m in messages if m.get("type") == "reply"]


def _kept(state: Path) -> list[bytes]:
    """The games kept under games/, oldest first."""
    games = sorted((state / "games").glob("*"), key=lambda p: p.stat().st_mtime_ns)
    return [journals.records_of(game.read_bytes()) for game in games]


def test_the_consoles_undo_and_new_game_refused_by_the_disk_change_nothing_and_work_once_it_saves(tmp_path):
    """A headless table (`--ui none`), two bot seats and one person's seat, run from the host console.

    The bots play until the person must choose. With the file-size limit
    below the journal's size, the console's undo (which the bots agree to)
    and its new game are refused, say why, and leave every file as it was;
    sometimes the power goes then. Once writes pass again, the undo takes
    the last action back and the new game starts, the old one kept under
    games/ byte for byte.
    """
    console = PtyPort(str(tmp_path / "console"))
    state = tmp_path / "state"
    argv = _command("tenno", 3, state, "--console", console.path, "--bot", "1=random", "--bot", "2=random")
    argv[argv.index("bots")] = "none"  # the bots of --bot seats, a person's seat that never moves
    person = 2
    listener = Listener([console])
    rng = random.Random("console-refused")
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    kept: list[bytes] = []
    faults = killed = 0

    def start() -> Table:
        """Start the table and wait until it listens on the console (pyserial drops what came before)."""
        table = Table(argv)
        ping = json.dumps({"v": 1, "type": "command", "name": "ping", "args": {}}).encode() + b"\n"
        for _attempt in range(int(WAIT)):
            before = len(_replies(listener.messages[console.master]))
            console.write(ping)
            if listener.wait(console, lambda m: len(_replies(m)) > before, "", timeout=1.0):
                assert _replies(listener.messages[console.master])[-1].startswith("Unknown command 'ping'")
                return table
        pytest.fail("the table never answered on the console")

    def settled() -> bool:
        """The bots have played up to the person's choice (the journal says so)."""
        try:
            match = _final(state)
        except (journals.Unreadable, BadJournal):
            return False  # not written yet, or a record half written as we read
        return match.pending() == [person]

    def command(name: str, wanted) -> str:
        before = len(_replies(listener.messages[console.master]))
        console.write(json.dumps({"v": 1, "type": "command", "name": name, "args": {}}).encode() + b"\n")
        got = listener.wait(console, lambda m: len(_replies(m)) > before, f"the reply to {name}")
        reply = _replies(got)[-1]
        assert wanted(reply), reply
        return reply

    table = start()
    try:
        while faults < 2 * FAULTS:
            listener.wait(console, lambda m: settled(), "the bots playing up to the person's turn")
            path = state / "current.jsonl"
            before = journals.records_of(path.read_bytes())
            resource.prlimit(table.pid, resource.RLIMIT_FSIZE, (rng.randint(1, 100), hard))
            command("undo", lambda r: r == "Not saved (File too large): nothing was taken back")
            command("new_game", lambda r: r.startswith("new_game failed:") and "File too large" in r)
            faults += 2
            assert journals.records_of(path.read_bytes()) == before
            assert {p.name for p in state.iterdir()} - {"games"} == {"current.jsonl", "table.lock"}
            assert _kept(state) == kept  # nothing half moved, no new game's journal left behind
            if rng.random() < 0.3:  # the power goes while the card refuses: the restart resumes
                table.kill()
                killed += 1
                table = start()
                listener.wait(console, lambda m: settled(), "the resumed game")
                assert journals.records_of(path.read_bytes()) == before
            else:
                resource.prlimit(table.pid, resource.RLIMIT_FSIZE, (soft, hard))
            saved = len(_saved(state))
            # The last action is a bot's (the person never moves): it agrees at once, as the other bot does.
            command("undo", lambda r: r.startswith(("Taken back: Red's ", "Taken back: Blue's ")))
            undo = json.dumps({"type": "undo", "undoes": saved}, separators=(",", ":")).encode()
            assert journals.records_of(path.read_bytes()).startswith(before + undo), \
                "the undo is the next record after the refusals"
            listener.wait(console, lambda m: settled(), "the bots playing again after the undo")
            kept.append(journals.records_of(path.read_bytes()))
            command("new_game", lambda r: r == "A new game of Tennō begins")
            assert _kept(state) == kept
        table.kill()
    finally:
        listener.close()
        console.close()
        if table.process.poll() is None:
            table.kill()
    assert sorted(p.name for p in state.glob("current*")) == ["current.jsonl"]
    for game in (state / "games").iterdir():
        assert journals.load(game).warnings == []
    played = sum(len(journals.load(game).actions) for game in (state / "games").iterdir())
    _report(f"the console's undo and new game refused by the disk ({len(kept)} games, {killed} power cuts)",
            "tenno", faults, played)
