"""Smoke test of the table page's bench: it plays, the page's clients receive, the figures exist."""

from __future__ import annotations

import pytest

pytest.importorskip("aiohttp", reason="the table page needs the web extra (pip install 'courtier[web]')")

from bench.web import BARE, CLIENTS, PAGE, play_with_page  # noqa: E402


def test_both_tables_see_the_same_presses_and_every_client_hears_the_table():
    run = play_with_page("tenno", 3, seed=2, max_events=40, warmup=2)
    assert len(run.wall_ns[PAGE]) == len(run.wall_ns[BARE]) == len(run.cpu_ns[PAGE]) > 0
    assert run.actions > 0 and len(run.events) == CLIENTS
    assert all(0 < got <= run.snapshots + 1 for got in run.events)
    assert run.last == [run.snapshots] * CLIENTS  # the counts are taken once every client read the last one
