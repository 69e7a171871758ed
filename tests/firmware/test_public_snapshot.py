"""The public channel's snapshot: what every public device is fed, built on the runtime's thread."""

from __future__ import annotations

import random

from engine.match import Match
from engine.rng import Rng
from firmware.bots import RandomBot
from firmware.public import PublicTable
from firmware.table.runtime import Runtime


def _play(runtime: Runtime, steps: int, seed: int = 0) -> None:
    match = runtime.match
    bots = [RandomBot(seed + seat) for seat in range(match.header.players)]
    for _ in range(steps):
        if match.is_over:
            return
        seat = match.pending()[0]
        runtime.submit(bots[seat].choose(match.legal_actions(seat), match.game.free_actions))


def test_a_snapshot_holds_the_prompt_the_pending_seats_and_the_public_events_in_words():
    runtime = Runtime(Match.new("tenno", 3, seed=5), [None] * 3)
    public = PublicTable().attach(runtime)
    said: list[str] = []
    runtime.listeners.append(lambda m, a, events: said.extend(m.game.describe_event(e, m.names) for e in events))
    _play(runtime, 6)
    snap = public.latest()
    match = runtime.match
    assert snap.game == "tenno" and snap.names == match.names
    assert (snap.line, snap.steps) == (match.prompt().line, match.prompt().steps)
    assert snap.pending == tuple(match.pending())
    assert snap.public == match.public_view()
    assert said and list(snap.log) == said
    assert snap.result is None and not snap.over


def test_a_new_snapshot_only_when_the_match_or_the_log_moved_and_subscribers_get_each():
    runtime = Runtime(Match.new("quovadis", 3, seed=2), [None] * 3)
    public = PublicTable().attach(runtime)
    got = []
    public.subscribe(got.append)
    first = public.latest()
    runtime.refresh()  # nothing moved
    assert public.latest() is first and got == []
    _play(runtime, 1)
    assert len(got) == 1 and got[0] is public.latest() and got[0].serial > first.serial
    public.note("A line of the table's own")
    runtime.refresh()
    assert public.latest().log[-1] == "A line of the table's own"


def test_a_failing_subscriber_neither_stops_the_table_nor_the_other_subscribers():
    runtime = Runtime(Match.new("tenno", 2, seed=1), [None] * 2)
    public = PublicTable().attach(runtime)
    got = []

    def broken(snapshot):
        raise RuntimeError("a channel fault")

    public.subscribe(broken)
    public.subscribe(got.append)
    _play(runtime, 2)
    assert got and got[-1] is public.latest()


def test_undo_is_told_and_a_new_game_starts_a_new_story():
    runtime = Runtime(Match.new("tenno", 3, seed=3), [None] * 3)
    public = PublicTable().attach(runtime)
    _play(runtime, 4)
    assert runtime.undo()
    assert public.latest().log[-1] == "The last action was taken back"
    runtime.replace_match(Match.new("shadow", 3, seed=4), None)
    snap = public.latest()
    assert snap.game == "shadow" and snap.log == ()


def test_the_snapshot_does_not_change_when_what_no_seat_may_know_is_redealt():
    """Public means public: re-dealing every seat's hidden parts leaves the snapshot's content as it was."""
    rng = random.Random(7)
    for game, players in (("tenno", 4), ("quovadis", 4), ("shadow", 3)):
        runtime = Runtime(Match.new(game, players, seed=8), [None] * players)
        public = PublicTable().attach(runtime)
        match = runtime.match
        for _ in range(12):
            before = public.build()
            original = match.state
            for seat in range(players):
                match.state = match.game.redeal(original, seat, Rng.seeded(rng.randrange(1 << 30)))
                after = public.build()
                assert (after.public, after.line, after.steps, after.header, after.log) == \
                       (before.public, before.line, before.steps, before.header, before.log), (game, seat)
            match.state = original
            _play(runtime, 1, seed=len(match.actions))
