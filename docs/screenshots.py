"""Take the README's pictures of the table page from a real run (`make screenshots`).

A seeded Tennō game is played by bots through the runtime while Debian's
Chromium (headless, driven by Playwright) has the page open: one picture of
the live page on a phone held upright mid-game, one of the report the page
turns into at the end.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from engine.match import Match
from firmware.bots import RandomBot
from firmware.public import PublicTable
from firmware.public.web import TablePage
from firmware.table.runtime import Runtime

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LIVE_AT = 24  # actions into the game: a fight is on the table


def main(out: Path, game: str = "tenno", players: int = 3, seed: int = 21) -> None:
    runtime = Runtime(Match.new(game, players, seed=seed), [None] * players)
    public = PublicTable().attach(runtime)
    bots = [RandomBot(seed * 10 + seat) for seat in range(players)]
    match = runtime.match

    def step() -> None:
        seat = match.pending()[0]
        runtime.submit(bots[seat].choose(match.legal_actions(seat), match.game.free_actions))

    with TablePage(public, runtime, "127.0.0.1", 0) as page, sync_playwright() as playwright, \
            tempfile.TemporaryDirectory() as profile:
        browser = playwright.chromium.launch_persistent_context(
            profile, executable_path="/usr/bin/chromium", headless=True, args=FLAGS,
            viewport={"width": 412, "height": 915}, device_scale_factor=1)
        tab = browser.new_page()
        tab.goto(page.urls[0])
        while len(match.actions) < LIVE_AT:
            step()
        tab.wait_for_function("serial => document.body.dataset.serial === serial", arg=str(public.latest().serial))
        tab.screenshot(path=str(out / "table-page.png"))
        while not match.is_over:
            step()
        tab.wait_for_function("document.body.dataset.view === 'report'", timeout=60_000)
        tab.set_viewport_size({"width": 1100, "height": 1500})
        tab.wait_for_timeout(300)  # the charts resize to the new width
        tab.screenshot(path=str(out / "table-report.png"))
        browser.close()
    print(f"wrote {out / 'table-page.png'} and {out / 'table-report.png'}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs"))
