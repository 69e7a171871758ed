"""The table on any phone: the public table served live on the local network, then its report.

`TablePage` serves the public snapshot (`PublicTable`) with aiohttp on a
thread of its own with its own event loop, beside the table's loop. Each new
snapshot is handed over with `loop.call_soon_threadsafe` and nothing else
runs on the table's thread, so a slow page never slows a button. Every
client has a queue of one: a client that cannot keep up skips to the newest
snapshot, and a client that vanished is dropped; neither blocks the table
nor the other clients.

Routes (all read-only; nothing a browser sends changes the game):

- ``/``: the live table, or the report once the game is over;
- ``/events``: server-sent events, ``snapshot`` (JSON with the rendered
  table) on each change and on connecting, ``alive`` every few seconds so a
  page notices a table that went away;
- ``/snapshot.json``: the public snapshot as JSON;
- ``/report``: the report (only once the game is over; 404 before);
- ``/static/...``: the page's own scripts and styles (nothing comes from the internet).

Once the game is over, the report is built from the journal's content (the
header and accepted actions, taken on the table's thread) on a worker
thread, and the page turns into it.
"""

from __future__ import annotations

import asyncio
import fcntl
import ipaddress
import json
import logging
import socket
import struct
import threading
from dataclasses import asdict
from typing import Any, Callable

from engine.i18n import _

from .boards import board
from .pages import STATIC, render
from .snapshot import PublicTable, Snapshot

_log = logging.getLogger(__name__)

LAN = "lan"  # the host that means "this machine's local-network addresses"
ALIVE_SECONDS = 4.0  # how often an idle event stream says it is still there
SEND_TIMEOUT = 10.0  # a client that takes longer to accept one event is dropped


class WebError(OSError):
    """The page could not be served (a bad address, a port in use)."""


def parse_listen(text: str) -> tuple[str, int]:
    """`[HOST:]PORT` to (host, port); no host means this machine's LAN addresses."""
    host, sep, port = text.rpartition(":")
    host = host.strip("[]") if sep else LAN
    try:
        number = int(port)
    except ValueError:
        raise WebError(_("--web {text!r}: the port must be a number, as in 8080 or 127.0.0.1:8080").format(
            text=text)) from None
    if not 0 <= number <= 65535:
        raise WebError(_("--web {text!r}: the port must be 0 to 65535").format(text=text))
    return host or LAN, number


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on a local network (private or link-local; never loopback).

    Read from each network interface (Linux `SIOCGIFADDR`), so nothing is
    sent anywhere to learn them.
    """
    found: list[str] = []
    try:
        interfaces = socket.if_nameindex()
    except OSError:
        return found
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _index, name in interfaces:
            try:
                packed = fcntl.ioctl(probe.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))  # SIOCGIFADDR
            except OSError:
                continue  # no IPv4 address on this interface
            address = ipaddress.ip_address(socket.inet_ntoa(packed[20:24]))
            if (address.is_private or address.is_link_local) and not address.is_loopback:
                found.append(str(address))
    return sorted(set(found))


def resolve_hosts(host: str) -> list[str]:
    """The addresses to bind: `lan` is every LAN address (loopback when there is none)."""
    if host != LAN:
        return [host]
    found = lan_addresses()
    if not found:
        _log.warning("no local-network address found: the table page is served on this machine only")
        return ["127.0.0.1"]
    return found


class TablePage:
    """The LAN page of one table.

    Args:
        public: The table's public channel (attached to its runtime).
        runtime: The table's runtime; read only on its own thread, for the journal's content once over.
        host: An address to bind, or ``"lan"``.
        port: The port (0 picks a free one, for tests).
    """

    def __init__(self, public: PublicTable, runtime: Any, host: str = LAN, port: int = 8080) -> None:
        self.public = public
        self.runtime = runtime
        self.host = host
        self.port = port
        self.urls: list[str] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failed: BaseException | None = None
        self._runner: Any = None
        self._clients: set[asyncio.Queue[str | None]] = set()
        self._latest: Snapshot | None = None
        self._live = ""  # the newest snapshot's table, rendered once for the page and every event
        self._event = ""  # the newest snapshot, as an event's JSON
        self._tasks: set[asyncio.Task[None]] = set()  # the heartbeat and any report being built
        self._report_key: Any = None
        self._report_html: str | None = None
        self._source: tuple[Any, list[dict[str, Any]]] | None = None
        self.builds = 0  # reports built (for tests)

    # --- life -----------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> list[str]:
        """Start serving on a thread of its own; return the page's addresses. Raises WebError."""
        self._thread = threading.Thread(target=self._run, name="table-page", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise WebError(_("the table page did not start in time"))
        if self._failed is not None:
            raise WebError(_("cannot serve the table page on {host}:{port}: {error}").format(
                host=self.host, port=self.port, error=self._failed))
        self.public.subscribe(self._take)
        return self.urls

    def close(self) -> None:
        """Stop serving: end every event stream, close the sockets, end the thread."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        if loop.is_running():
            asyncio.run_coroutine_threadsafe(self._stop(), loop)
        thread.join(10)
        self._loop = None

    def __enter__(self) -> "TablePage":
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as err:  # a port in use, an address not on this machine
            self._failed = err
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    async def _serve(self) -> None:
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/", self._index)
        app.router.add_get("/events", self._events)
        app.router.add_get("/snapshot.json", self._snapshot_json)
        app.router.add_get("/report", self._report)
        app.router.add_static("/static/", STATIC, append_version=False)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        latest = self.public.latest()
        self._set_latest(latest)
        for host in resolve_hosts(self.host):
            site = web.TCPSite(self._runner, host, self.port, reuse_address=True)
            await site.start()
        for address in self._runner.addresses:
            host, port = address[0], address[1]
            self.urls.append(f"http://{f'[{host}]' if ':' in host else host}:{port}/")
        self._task(self._heartbeat())

    def _task(self, work: Any) -> None:
        """Run `work` on the page's loop as one of its own tasks, which `_stop` cancels."""
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)  # held until done: the loop keeps only a weak reference
        task.add_done_callback(self._tasks.discard)

    async def _stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for queue in list(self._clients):
            _offer(queue, None)  # ends its stream
        if self._runner is not None:
            await self._runner.cleanup()
        asyncio.get_running_loop().stop()

    # --- from the table's thread ------------------------------------------------
    def _take(self, snapshot: Snapshot) -> None:
        """Public subscriber (the table's thread): hand the snapshot to the page's loop, nothing more."""
        source = None
        if snapshot.over:
            match = self.runtime.match  # still, on this thread: the journal's content, for the report
            source = (match.header, list(match.actions))
        loop = self._loop
        if loop is None:
            return
        try:
            loop.call_soon_threadsafe(self._publish, snapshot, source)
        except RuntimeError:  # the page has stopped
            pass

    # --- on the page's loop -------------------------------------------------------
    def _set_latest(self, snapshot: Snapshot) -> None:
        if snapshot is not self._latest or not self._live:  # a report built later keeps the table it had
            self._live = render("live.html", snapshot=snapshot, tables=self._tables(snapshot))
        self._latest = snapshot
        view = "report" if snapshot.over and self._report_html is not None else "live"
        self._event = json.dumps({"serial": snapshot.serial, "view": view, "title": snapshot.title,
                                  "html": self._live}, ensure_ascii=False)

    def _publish(self, snapshot: Snapshot, source: tuple[Any, list[dict[str, Any]]] | None) -> None:
        if not snapshot.over:
            self._report_html, self._report_key = None, None
        self._set_latest(snapshot)
        self._broadcast()
        if source is not None:
            key = (source[0], len(source[1]))
            if key != self._report_key:
                self._report_key = key
                self._task(self._build_report(key, source))

    def _broadcast(self) -> None:
        for queue in list(self._clients):
            _offer(queue, self._event)

    async def _build_report(self, key: Any, source: tuple[Any, list[dict[str, Any]]]) -> None:
        from .report import build_report, report_html

        def build() -> str:
            return report_html(build_report(*source), standalone=False, live=True)

        try:
            html = await asyncio.get_running_loop().run_in_executor(None, build)
        except Exception:  # a report that cannot be built must not stop the page
            _log.exception("the report could not be built")
            return
        if key != self._report_key:
            return  # the table moved on (undo, a new game) while it was built
        self.builds += 1
        self._report_html = html
        if self._latest is not None:
            self._set_latest(self._latest)
            self._broadcast()

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(ALIVE_SECONDS)
            for queue in list(self._clients):
                if queue.empty():
                    _offer(queue, "")

    @staticmethod
    def _tables(snapshot: Snapshot) -> list[Any]:
        try:
            return board(snapshot.game, snapshot.public, snapshot.names)
        except Exception:  # a game's board in words must not stop the page
            _log.exception("cannot lay out the board of %s", snapshot.game)
            return []

    # --- handlers -----------------------------------------------------------------
    async def _index(self, request: Any) -> Any:
        from aiohttp import web

        if self._report_html is not None:
            return web.Response(text=self._report_html, content_type="text/html", charset="utf-8")
        from markupsafe import Markup

        snapshot = self._latest
        assert snapshot is not None
        html = render("page.html", snapshot=snapshot, live=Markup(self._live))  # rendered and escaped once
        return web.Response(text=html, content_type="text/html", charset="utf-8",
                            headers={"Cache-Control": "no-store"})

    async def _report(self, request: Any) -> Any:
        from aiohttp import web

        if self._report_html is None:
            raise web.HTTPNotFound(text=_("The game is not over yet: the report comes at its end."))
        return web.Response(text=self._report_html, content_type="text/html", charset="utf-8")

    async def _snapshot_json(self, request: Any) -> Any:
        from aiohttp import web

        assert self._latest is not None
        return web.json_response(asdict(self._latest), dumps=lambda data: json.dumps(data, ensure_ascii=False),
                                 headers={"Cache-Control": "no-store"})

    async def _events(self, request: Any) -> Any:
        from aiohttp import web
        from aiohttp_sse import sse_response

        queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=1)
        _offer(queue, self._event)  # a page that (re)connects catches up at once
        self._clients.add(queue)
        response = None
        try:
            async with sse_response(request, send_timeout=SEND_TIMEOUT, ping_interval=3600,
                                    headers={"Cache-Control": "no-store"}) as stream:
                response = stream
                while stream.is_connected():
                    data = await queue.get()
                    if data is None:
                        break
                    if data:
                        await stream.send(data, event="snapshot", retry=1000)
                    else:
                        await stream.send("{}", event="alive")
        except (ConnectionError, asyncio.TimeoutError):
            pass  # the client went away or stalled: drop it
        finally:
            self._clients.discard(queue)
        return response if response is not None else web.Response(status=503)


def _offer(queue: asyncio.Queue[str | None], item: str | None) -> None:
    """Put `item` in a queue of one, dropping what the client has not taken yet (the newest wins)."""
    while True:
        try:
            queue.put_nowait(item)
            return
        except asyncio.QueueFull:
            try:
                queue.get_nowait()
            except asyncio.QueueEmpty:
                pass


def start_page(public: PublicTable, runtime: Any, listen: str, out: Callable[[str], None] = print) -> TablePage:
    """Serve the table page on `listen` ([HOST:]PORT), say where, and show the address's QR code.

    The first address also goes to the public screen (its QR code on the
    start page and beside the rules help) and to the end of the seats' rules help.
    """
    host, port = parse_listen(listen)
    page = TablePage(public, runtime, host, port)
    urls = page.start()
    for url in urls:
        out(_("Table page: {url}").format(url=url))
        public.note(_("Table page: {url}").format(url=url))
    if urls:
        out(qr_text(urls[0]))
        runtime.page_address = urls[0]
        public.serve_page(urls[0])
    return page


def qr_text(url: str) -> str:
    """The address as a QR code in terminal characters (segno), for a phone to find the page."""
    import io

    from . import qr

    buffer = io.StringIO()
    qr.code(url).terminal(out=buffer, compact=True)
    return buffer.getvalue()

