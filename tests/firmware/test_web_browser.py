"""The table page in a real browser: Debian's Chromium, headless, driven by Playwright.

A seeded game is played through the runtime while the page is open: the
prompt and board must follow each action within a second; two tables that
differ only in what no one may see must give the same DOM, network responses
and event stream; the page must say when the table is gone and catch up when
it is back; at the end it must become the report, with the right scores and
its charts drawn.
"""

from __future__ import annotations

import os
import random
import re
import shutil

import pytest

pytest.importorskip("aiohttp", reason="the table page needs the web extra (pip install 'courtier[web]')")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need Playwright (the dev extra)")

from engine.match import Match  # noqa: E402
from engine.rng import Rng  # noqa: E402
from firmware.bots import RandomBot  # noqa: E402
from firmware.public import PublicTable  # noqa: E402
from firmware.public.boards import board  # noqa: E402
from firmware.public.web import TablePage  # noqa: E402
from firmware.table.runtime import Runtime  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# How long the page may take to show an action before it counts as never shown: a bound on
# "never arrives" on a busy machine, not a measure of speed.
FOLLOW_MS = 30_000

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason="no Chromium installed (Debian: apt-get install -y chromium)")


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    """One headless Chromium with a fresh profile for the module."""
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")), executable_path=CHROMIUM, headless=True,
            args=FLAGS, viewport={"width": 390, "height": 844})
        yield context
        context.close()


def _table(game: str, players: int, seed: int) -> tuple[Runtime, TablePage]:
    runtime = Runtime(Match.new(game, players, seed=seed), [None] * players)
    public = PublicTable().attach(runtime)
    page = TablePage(public, runtime, "127.0.0.1", 0)
    page.start()
    return runtime, page


def _twin(runtime: Runtime, page: TablePage, rng: random.Random) -> TablePage:
    """A table that differs from `runtime`'s only in what no one may see, with the same public log."""
    match = runtime.match
    seat = rng.randrange(match.header.players)
    state = match.game.redeal(match.state, seat, Rng.seeded(rng.randrange(1 << 30)))
    twin = Runtime(Match(match.game, match.header, state, list(match.actions)), [None] * match.header.players)
    latest = page.public.latest()
    public = PublicTable(log_size=len(latest.log))
    public.attach(twin)
    for _ in range(latest.noted - len(latest.log)):
        public.note("an event that has left the log")  # the count of events ever noted is public, and the page carries it
    for line in latest.log:
        public.note(line)
    twin.refresh()
    twin_page = TablePage(public, twin, "127.0.0.1", 0)
    twin_page.start()
    return twin_page


def _seen(tab) -> dict[str, str]:
    """What a browser holds of the page: its DOM, the page as fetched, its JSON and its first event."""
    dom = tab.inner_html("#table")
    fetched = tab.request.get(tab.url).text()
    data = tab.request.get(tab.url + "snapshot.json").json()
    data.pop("serial")
    event = tab.evaluate("""() => new Promise(resolve => {
        const source = new EventSource('/events');
        source.addEventListener('snapshot', e => { source.close(); const d = JSON.parse(e.data); delete d.serial;
                                                   resolve(JSON.stringify(d)); });
    })""")
    return {"dom": re.sub(r"\s+", " ", re.sub(r">\s+<", "><", dom)).strip(),
            "fetched": re.sub(r'data-serial="\d+"', "", fetched), "json": repr(sorted(data.items())), "event": event}


def _wait_followed(tab, runtime: Runtime) -> None:
    match = runtime.match
    public = match.public_view()
    first_row = board(match.game.name, public, match.names)[0].rows[0].cells
    tab.wait_for_function(
        """([line, header, cells]) => {
            const row = document.querySelector('#board tbody tr');
            return document.getElementById('line')?.textContent === line
                && document.querySelector('.header')?.textContent === header
                && row && Array.from(row.cells).map(c => c.textContent).join('|') === cells.join('|');
        }""", arg=[match.prompt().line, match.game.header(public, match.names), list(first_row)], timeout=FOLLOW_MS)


@pytest.mark.parametrize("game, players, seed", [("tenno", 3, 21), ("quovadis", 3, 4), ("shadow", 3, 8)])
def test_the_page_follows_the_game_hides_what_it_must_and_becomes_the_report(browser, game, players, seed):
    runtime, page = _table(game, players, seed)
    tab = browser.new_page()
    rng = random.Random(seed)
    try:
        tab.goto(page.urls[0])
        bots = [RandomBot(seed * 10 + s) for s in range(players)]
        match = runtime.match
        steps, compared = 0, 0
        while not match.is_over:
            seat = match.pending()[0]
            assert runtime.submit(bots[seat].choose(match.legal_actions(seat), match.game.free_actions))
            steps += 1
            if match.is_over:
                break
            _wait_followed(tab, runtime)
            if steps % 25 == 1 and compared < 4:
                twin = _twin(runtime, page, rng)
                other = browser.new_page()
                try:
                    other.goto(twin.urls[0])
                    assert _seen(tab) == _seen(other)
                finally:
                    other.close()
                    twin.close()
                compared += 1
        assert compared >= 2
        tab.wait_for_function("document.body.dataset.view === 'report'", timeout=30_000)
        result = match.result()
        rows = tab.eval_on_selector_all("#scores section:first-child tbody tr",
                                        "rows => rows.map(r => [r.cells[0].textContent, r.cells[1].textContent])")
        assert sorted(rows) == sorted([match.names[s], str(v)] for s, v in result.scores.items())
        assert tab.inner_text("#line") == "Winner: " + ", ".join(match.names[w] for w in result.winners)
        drawn = tab.evaluate("""() => Object.entries(window.courtierCharts).map(([id, chart]) => {
            const canvas = chart.canvas, pixels = canvas.getContext('2d')
                .getImageData(0, 0, canvas.width, canvas.height).data;
            let inked = 0;
            for (let i = 3; i < pixels.length; i += 4) if (pixels[i] > 0) inked++;
            return [id, chart.data.datasets.map(d => d.label), chart.data.labels.length, inked];
        })""")
        expected = {"tenno": {"prisoners", "fights"}, "quovadis": {"progress", "laurels"}, "shadow": {"vp", "thalers"}}
        assert expected[game] <= {chart[0] for chart in drawn}
        for chart_id, labels, points, inked in drawn:
            if chart_id != "fights":
                assert labels == list(match.names)
            assert points > 0 and inked > 500, chart_id
    finally:
        tab.close()
        page.close()


def test_the_page_says_when_the_table_is_gone_and_catches_up_when_it_is_back(browser):
    runtime, page = _table("tenno", 3, 5)
    port = int(page.urls[0].rsplit(":", 1)[1].strip("/"))
    tab = browser.new_page()
    back = None
    try:
        tab.goto(page.urls[0])
        assert tab.is_hidden("#offline")
        page.close()  # the Pi restarts
        tab.wait_for_selector("#offline", state="visible", timeout=5000)
        bots = [RandomBot(s) for s in range(3)]
        match = runtime.match
        for _ in range(4):  # the table moves on meanwhile
            seat = match.pending()[0]
            runtime.submit(bots[seat].choose(match.legal_actions(seat), match.game.free_actions))
        back = TablePage(page.public, runtime, "127.0.0.1", port)
        back.start()
        tab.wait_for_selector("#offline", state="hidden", timeout=10_000)
        _wait_followed(tab, runtime)
    finally:
        tab.close()
        if back is not None:
            back.close()


def test_each_seat_is_drawn_in_its_own_colour_on_the_page_and_in_the_reports_charts(browser, tmp_path):
    """Quo Vadis seats Red, Blue, Yellow, Green, Black: the third is yellow, on the page and in every chart."""
    from firmware.public.colours import COLOURS
    from firmware.public.report import build_report, report_html

    def rgb(hex_colour: str) -> str:
        return "rgb({}, {}, {})".format(*(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)))

    runtime, page = _table("quovadis", 5, 3)
    names = runtime.match.names
    assert names == ("Red", "Blue", "Yellow", "Green", "Black")
    expected = {name: rgb(COLOURS[name.lower()].page) for name in names}
    tab = browser.new_page()
    try:
        tab.goto(page.urls[0])
        rows = tab.evaluate("""() => Array.from(document.querySelectorAll('#board tr.seat')).map(
            r => [r.cells[0].textContent, getComputedStyle(r.cells[0]).borderLeftColor])""")
        chips = tab.evaluate("""() => Array.from(document.querySelectorAll('#pending .chip')).map(
            c => [c.textContent, getComputedStyle(c).backgroundColor])""")
        assert rows and chips
        assert all(colour == expected[name] for name, colour in rows + chips), rows + chips
        match, bots = Match.new("quovadis", 5, seed=3), [RandomBot(seat) for seat in range(5)]
        while not match.is_over:
            seat = match.pending()[0]
            match.apply(bots[seat].choose(match.legal_actions(seat), match.game.free_actions))
        report = tmp_path / "report.html"
        report.write_text(report_html(build_report(match.header, match.actions)), encoding="utf-8")
        tab.goto(report.as_uri())
        lines = tab.evaluate("""() => Object.values(window.courtierCharts).flatMap(
            chart => chart.data.datasets.map(d => [d.label, d.borderColor]))""")
        seat_lines = [(label, colour) for label, colour in lines if label in expected]
        assert len(seat_lines) >= 10
        assert all(rgb(colour) == expected[label] for label, colour in seat_lines), seat_lines
    finally:
        tab.close()
        page.close()
