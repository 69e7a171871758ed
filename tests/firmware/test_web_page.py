"""The table page over HTTP (no browser): what it serves, that it follows the table, never blocks it,
changes nothing, says nothing hidden, and turns into the report at the end."""

from __future__ import annotations

import json
import random
import socket
import urllib.error
import urllib.request
from dataclasses import replace

import pytest

pytest.importorskip("aiohttp", reason="the table page needs the web extra (pip install 'courtier[web]')")

from engine.games import all_games, get_game  # noqa: E402
from engine.match import Match  # noqa: E402
from engine.rng import Rng  # noqa: E402
from engine.testing import reachable_matches  # noqa: E402
from firmware.bots import RandomBot  # noqa: E402
from firmware.public import PublicTable, qr  # noqa: E402
from firmware.public.boards import board  # noqa: E402
from firmware.public.web import TablePage, WebError, _offer, parse_listen, qr_text, resolve_hosts  # noqa: E402
from firmware.table.runtime import Runtime  # noqa: E402
from hardware.errors import TableConfigError  # noqa: E402
from hardware.table import parse_table  # noqa: E402


def _bot_step(runtime: Runtime, bots: list[RandomBot]) -> None:
    match = runtime.match
    seat = match.pending()[0]
    assert runtime.submit(bots[seat].choose(match.legal_actions(seat), match.game.free_actions))


@pytest.fixture
def table():
    """A three-seat Tennō runtime with its page on a free loopback port."""
    runtime = Runtime(Match.new("tenno", 3, seed=11), [None] * 3)
    public = PublicTable().attach(runtime)
    page = TablePage(public, runtime, "127.0.0.1", 0)
    page.start()
    yield runtime, page
    page.close()


def _get(url: str, method: str = "GET") -> tuple[int, bytes]:
    request = urllib.request.Request(url, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


class Events:
    """A plain HTTP reader of the page's event stream (what any client receives)."""

    def __init__(self, url: str) -> None:
        self.response = urllib.request.urlopen(url + "events", timeout=10)

    def next(self, kind: str = "snapshot") -> dict:
        event, data = None, None
        while True:
            line = self.response.readline().decode("utf-8").rstrip("\r\n")
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data = line[6:]
            elif line == "" and event is not None:
                if event == kind:
                    return json.loads(data)
                event, data = None, None

    def close(self) -> None:
        self.response.close()


def test_the_page_shows_the_table_prompt_steps_and_board(table):
    runtime, page = table
    status, body = _get(page.urls[0])
    html = body.decode("utf-8")
    assert status == 200
    prompt = runtime.match.prompt()
    assert prompt.line in html and all(step.replace("'", "&#39;") in html for step in prompt.steps)
    assert "<h3>Rows</h3>" in html and all(name in html for name in runtime.match.names)
    assert 'src="/static/page.js"' in html and "http://" not in html and "https://" not in html


def test_the_event_stream_follows_each_action_and_a_new_client_catches_up(table):
    runtime, page = table
    events = Events(page.urls[0])
    first = events.next()
    assert first["view"] == "live" and runtime.match.prompt().line in first["html"]
    bots = [RandomBot(seat) for seat in range(3)]
    for _ in range(5):
        _bot_step(runtime, bots)
        got = events.next()
        while got["serial"] != page.public.latest().serial:  # a skipped snapshot is allowed, not a stale one
            got = events.next()
        assert runtime.match.game.header(runtime.match.public_view(), runtime.match.names) in got["html"]
    events.close()
    late = Events(page.urls[0])
    assert late.next()["serial"] == page.public.latest().serial
    late.close()
    status, body = _get(page.urls[0] + "snapshot.json")
    data = json.loads(body)
    assert data["line"] == runtime.match.prompt().line and data["public"] == runtime.match.public_view()


def test_no_request_changes_the_game(table):
    runtime, page = table
    before = (list(runtime.match.actions), runtime.match.public_view())
    for path in ("", "events", "snapshot.json", "report", "static/page.js"):
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            status, _ = _get(page.urls[0] + path, method)
            assert status in (404, 405), (path, method, status)
    assert (list(runtime.match.actions), runtime.match.public_view()) == before


def test_a_client_that_never_reads_does_not_hold_up_the_table(table):
    runtime, page = table
    stalled = socket.create_connection(("127.0.0.1", int(page.urls[0].rsplit(":", 1)[1].strip("/"))))
    stalled.sendall(b"GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    bots = [RandomBot(seat) for seat in range(3)]
    while not runtime.match.is_over:  # a whole game while that client reads nothing
        _bot_step(runtime, bots)
    status, body = _get(page.urls[0] + "snapshot.json")
    assert json.loads(body)["result"] is not None
    stalled.close()


def test_a_queue_of_one_keeps_the_newest_snapshot():
    import asyncio

    queue: asyncio.Queue = asyncio.Queue(maxsize=1)
    for item in ("a", "b", "c"):
        _offer(queue, item)
    assert queue.qsize() == 1 and queue.get_nowait() == "c"


def test_the_page_turns_into_the_report_at_the_end(table):
    runtime, page = table
    status, _ = _get(page.urls[0] + "report")
    assert status == 404  # no report (and nothing hidden) before the end
    events = Events(page.urls[0])
    bots = [RandomBot(seat) for seat in range(3)]
    while not runtime.match.is_over:
        _bot_step(runtime, bots)
    got = events.next()
    while got["view"] != "report":
        got = events.next()
    events.close()
    status, body = _get(page.urls[0])
    html = body.decode("utf-8")
    result = runtime.match.result()
    assert status == 200 and 'data-view="report"' in html and "Final scores" in html
    for seat, score in result.scores.items():
        assert f"<td>{runtime.match.names[seat]}</td><td>{score}</td>" in html
    assert _get(page.urls[0] + "report")[1] == body
    assert page.builds == 1


def test_each_snapshot_is_laid_out_once_for_the_page_and_every_event(table, monkeypatch):
    """The board is laid out once per snapshot: not again for each visit, nor when the report is ready."""
    from firmware.public import web

    runtime, page = table
    laid: list[int] = []
    monkeypatch.setattr(web, "board", lambda game, public, names: laid.append(1) or board(game, public, names))
    first = page.public.latest().serial
    for _ in range(2):
        assert runtime.match.prompt().line in _get(page.urls[0])[1].decode("utf-8")
    assert laid == []  # the page reuses the snapshot's table
    events = Events(page.urls[0])
    bots = [RandomBot(seat) for seat in range(3)]
    while not runtime.match.is_over:
        _bot_step(runtime, bots)
    while events.next()["view"] != "report":
        pass
    events.close()
    assert len(laid) == page.public.latest().serial - first  # each new snapshot once, the last one too


def _page_bytes(page: TablePage) -> tuple[str, str, str]:
    """The page, its JSON and its event as served, with the snapshot's serial left out."""
    html = _get(page.urls[0])[1].decode("utf-8")
    data = json.loads(_get(page.urls[0] + "snapshot.json")[1])
    data.pop("serial")
    events = Events(page.urls[0])
    event = events.next()
    events.close()
    event.pop("serial")
    html = html.replace(f'data-serial="{page.public.latest().serial}"', "")
    return html, json.dumps(data, sort_keys=True), json.dumps(event, sort_keys=True)


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_nothing_hidden_reaches_the_page_its_json_or_its_events(game):
    """Two tables that differ only in what no one may see serve the same bytes until the end."""
    players = get_game(game).min_players + 1
    rng = random.Random(3)
    compared = 0
    every = max(5, get_game(game).max_actions // 60)
    for match in reachable_matches(game, players, seed=7, every=every):
        if match.is_over:
            continue
        pages = []
        for state in (match.state, match.game.redeal(match.state, rng.randrange(players),
                                                     Rng.seeded(rng.randrange(1 << 30)))):
            twin = Match(match.game, match.header, state, list(match.actions))
            runtime = Runtime(twin, [None] * players)
            public = PublicTable().attach(runtime)
            pages.append(TablePage(public, runtime, "127.0.0.1", 0))
        served = []
        for page in pages:
            with page:
                served.append(_page_bytes(page))
        assert served[0] == served[1]
        compared += 1
        if compared >= 6:
            break
    assert compared >= 3


def test_listen_addresses():
    assert parse_listen("8080") == ("lan", 8080)
    assert parse_listen("127.0.0.1:9000") == ("127.0.0.1", 9000)
    assert parse_listen("[::1]:9000") == ("::1", 9000)
    with pytest.raises(WebError, match="port must be a number"):
        parse_listen("localhost:http")
    with pytest.raises(WebError, match="0 to 65535"):
        parse_listen("70000")
    assert resolve_hosts("127.0.0.1") == ["127.0.0.1"]
    for host in resolve_hosts("lan"):  # this machine's LAN addresses, or loopback when it has none
        assert host == "127.0.0.1" or not host.startswith("127.")


def test_a_port_in_use_is_a_clear_error(table):
    runtime, page = table
    port = int(page.urls[0].rsplit(":", 1)[1].strip("/"))
    other = TablePage(page.public, runtime, "127.0.0.1", port)
    with pytest.raises(WebError, match=f"127.0.0.1:{port}"):
        other.start()


# segno's compact terminal code: each character is two modules, one above the other (True: dark).
HALF_BLOCKS = {" ": (True, True), "\u2580": (False, True), "\u2584": (True, False), "\u2588": (False, False)}


def test_the_qr_code_holds_the_address():
    url = "http://192.168.1.20:8080/"
    lines = qr_text(url).strip("\n").splitlines()
    rows = [[HALF_BLOCKS[c][half] for c in line] for line in lines for half in (0, 1)]
    rows = rows[:len(rows[0])]  # a square: an odd side leaves the last line's lower half unused
    modules = qr.matrix(url)
    border = (len(rows[0]) - len(modules)) // 2  # the light quiet zone on every side
    assert border > 0 and not any(rows[0]) and not any(row[0] for row in rows)
    assert tuple(tuple(row[border:-border]) for row in rows[border:border + len(modules)]) == modules


def test_the_table_file_web_block():
    base = '[[seat]]\nbuttons = { prev = 5, next = 6, ok = 13 }\nscreen = { driver = "ssd1306", bus = "i2c" }\n'
    assert parse_table(base).web is None  # off unless asked for
    config = parse_table(base + "[web]\nport = 8080\n")
    assert config.web is not None and config.web.listen == "lan:8080"
    assert parse_table(base + '[web]\nport = 80\nhost = "127.0.0.1"\n').web.listen == "127.0.0.1:80"
    with pytest.raises(TableConfigError, match=r"\[web\]: port: must be 1 to 65535"):
        parse_table(base + "[web]\nport = 0\n")
    with pytest.raises(TableConfigError, match=r"\[web\]: address: unknown key"):
        parse_table(base + "[web]\nport = 8080\naddress = 1\n")
    assert replace(config.web, host="10.0.0.2").listen == "10.0.0.2:8080"
