"""The ASGI app of `genial serve` (Starlette): the page, the JSON API and live updates.

HTTP API (JSON in and out; a seat acts with its secret token in the ``X-Seat-Token``
header, never in the URL, so tokens stay out of access logs):

- ``GET  /api/meta``                   variants, bots and their options, colours and symbols,
  the board's drawing (every payload the page receives is built in `genial.web.views`),
  what the operator allows bots (``bot_limits``), the engines offered (``engines``: the
  NAMEs of ``--engine NAME=COMMAND``; a seat ``{"kind": "bot", "engine": NAME}``), and
  from how many people the server draws the seed (``fair_seed``)
- ``GET  /api/catalogue/{code}``       the page's words in a language: the same gettext
  catalogue as ``genial play``'s, as JSON (`genial.translation.page_catalogue`); any other
  code is English's, empty
- ``GET  /api/games``                  the lobby: the newest games' public summaries (no
  rack), those waiting for a player (``joinable``) first
- ``POST /api/games``                  a new game (or one loaded from a record); returns
  the creator's seat with its token and a one-time invite code for each other human seat.
  The table's choices: ``away_minutes`` (how long a holder must be away before another
  player may hand the seat on; 0 never, else whole minutes 5..1440; 10 by default),
  ``hints`` (false: no hints and no review of one's own moves before the end) and
  ``clock_minutes`` (each person's time for the game, from the first move; 0, the default,
  no clock, else whole minutes 1..1440; out of time, the game is lost). Every seat's state
  says both in ``table_text``
- ``POST /api/games/{id}/claim``       ``{"invite": code}``: the invite's seat and a fresh
  token, once
- ``POST /api/games/{id}/replace``     ``{"seat": n}`` (a player's token): hands a seat on:
  its token stops working and a new invite is returned; every seat sees it in ``events``.
  A held seat is handed on by its holder, or by another player once the holder has been
  away for the table's ``away_minutes`` (or has left); before any person has moved, a seat
  whose rack was seen is dealt anew from a new bag with a new commitment
- ``POST /api/games/{id}/leave``       (a player's token): the holder leaves the seat; any
  player may then hand it on
- ``POST /api/games/{id}/rematch``     (a player's token, the game over): the same table again
  with a new bag, made once (``rematch`` in the state); each player takes their own seat in
  it with their old seat's token: its id, the seat and a fresh token
- ``GET  /api/games/{id}``             the state as the token's seat sees it (spectator without)
- ``GET  /api/games/{id}/options?slot=0``  the mover's placements of one rack tile (by
  slot, or ``tile=RB``), best first, as columns (``moves``: the texts to send back,
  ``cells``, ``points``, ``bonus``, ``toward``, ...; `genial.web.views.placements`)
- ``GET  /api/games/{id}/hint``         what the expert level would play for the seat to move
  (the same hint as ``genial play``'s), with the rack slot and how to lay it
- ``POST /api/games/{id}/move``        ``{"version": n, "move": "R0,-4+B1,-4" | "swap" | "keep"}``
- ``POST /api/games/{id}/undo``        ``{"version": n}``, when all other seats are bots
- ``GET  /api/games/{id}/record``      the JSON record (once over, or against bots only)
- ``POST /api/replay``                 a record's moves and tracks, for the replay view
- ``POST /api/reviews``                ``{"game": id}`` (once over) or ``{"record": {...}}``:
  starts the game's review on the bots' pool (or finds it); its id and progress. Of a game
  still being played, a seat's token asks for the review of that seat's own decisions
- ``GET  /api/reviews/{id}``           its progress, and the review once done (kept in SQLite)
- ``POST /api/analysis``               ``{"position": {...}, "line": [moves]}``: the position
  after the variation, with the mover's ranked candidate moves and its position notation
  (`genial.web.analysis`); ``{"notation": TEXT}`` is a position in the notation
- ``POST /api/positions``              the same body: kept under an id for a share link
- ``GET  /api/positions/{id}``         a shared position and its variation
- ``WS   /api/games/{id}/ws``          first message ``{"token": "..."}`` (or null to
  watch) within `HELLO_TIMEOUT_S` (else close 4408); then the server sends the seat's state
  on every change, and a spectator the latest state at most every
  `tables.SPECTATOR_INTERVAL`. Counted against its address from the upgrade on (beyond
  `MAX_LIVE_PER_ADDRESS`: close 4429, which the page retries with growing delays).
  ``?lang=CODE`` names the language of the states' texts

Every text the server writes (states, refusals, meta, the page's HTML) is in the language
the request asks for: ``Accept-Language`` (the page sends its own), a live connection's
``?lang=``; English for anything else (`genial.web.edge.request_language`).
Errors are ``{"error": message}`` with a 4xx status, and nothing changes. Before any of
this, `genial.web.edge` checks the Host, the Origin, the body and the pace of new games.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..refusals import refusal_text
from ..translation import current, page_catalogue, render_page_html, tr
from . import facts
from .analysis import Analyses
from .edge import AccessLog, Edge, EdgeRules, RateLimit
from .errors import ApiError
from .hub import Hub
from .lobby import bot_catalogue
from .reviews import Reviews
from .seats import BotLimits
from .store import Store
from .tables import DEFAULT_AWAY_S, FAIR_SEED_HUMANS, Listener, posted_record, record_names, replay_frames

__all__ = ["STATIC", "create_app"]

log = logging.getLogger("genial.web")

STATIC = Path(__file__).resolve().parent / "static"
MAX_BODY = 1_100_000  # a record is at most 1,000,000 characters
_PARSE_IN_THREAD = 64_000  # bodies larger than this are parsed in a thread
#: Live connections (WebSockets) one client address may hold open at once.
MAX_LIVE_PER_ADDRESS = 32
#: How long a live connection may take to send its hello (its seat's token, or null to
#: watch) before it is closed (code 4408): a socket that never says who it is holds a
#: descriptor for no longer than this.
HELLO_TIMEOUT_S = 5.0
#: Spectators (live connections without a seat) of one game at once; seats are never refused.
MAX_SPECTATORS = 100
#: Spectators of all games together: many addresses (cheap with IPv6) are bounded by this,
#: not by the per-address cap, so the open-file limit is never the only bound.
MAX_SPECTATORS_TOTAL = 2000


def _error(status: int, message: str, detail: dict[str, object] | None = None) -> JSONResponse:
    return JSONResponse({**(detail or {}), "error": message}, status_code=status)


async def _body(request: Request, limit: int = MAX_BODY) -> Any:
    """The request's JSON, read as a stream and refused as soon as it passes ``limit``
    bytes (the edge has refused a larger ``Content-Length`` already)."""
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, tr("request body is larger than {limit} bytes").format(limit=limit))
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw:
        raise ApiError(400, tr("request body is empty: send a JSON object"))
    try:
        if len(raw) > _PARSE_IN_THREAD:  # a record of a megabyte: parsed off the event loop
            return await asyncio.to_thread(json.loads, raw)
        return json.loads(raw)
    except (ValueError, RecursionError) as e:  # bad JSON or UTF-8; an int of over 4300 digits
        raise ApiError(400, tr("request body is not valid JSON: {why}").format(why=refusal_text(str(e)))) from None


def _game_id(value: Any) -> str:
    """A game's id as a request names it: text, or a 400."""
    if not isinstance(value, str):
        raise ApiError(400, tr('"game" must be a game\'s id (text), not {name}').format(name=type(value).__name__))
    return value


def _token(request: Request) -> str | None:
    return request.headers.get("x-seat-token")


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return _error(exc.status, exc.message, exc.detail)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return _error(exc.status_code, str(exc.detail))


async def _refuse(ws: WebSocket, status: int, message: str) -> None:
    """A live connection refused before its hello: accepted only to be told why and closed
    (code 4000 + status), so the page can tell a refusal from a network failure."""
    await ws.accept()
    with contextlib.suppress(Exception):
        await ws.send_json({"type": "error", "status": status, "error": message})
        await ws.close(code=4000 + status)


def _client(request: Request) -> str:
    return request.client.host if request.client else ""


@dataclass(frozen=True)
class _Paces:
    """How often one client address may start each kind of expensive work. Reviews and
    analyses search on the bots' pool: each client is paced like new games (a review is as
    much work as a game), analyses, shared positions and replays three times as often."""

    games: RateLimit
    reviews: RateLimit
    analyses: RateLimit
    replays: RateLimit

    @classmethod
    def of(cls, per_minute: float) -> _Paces:
        return cls(
            RateLimit(per_minute),
            RateLimit(per_minute, "reviews"),
            RateLimit(3 * per_minute, "analyses"),
            RateLimit(3 * per_minute, "replays"),
        )


def _page_routes(meta: Callable[[], dict[str, Any]]) -> list[Route]:
    """The page (one HTML file, a view of the API) at each of its addresses, in the language
    its request asks for; its meta; and the page's catalogue of each language."""
    index = (STATIC / "index.html").read_text(encoding="utf-8")
    pages: dict[tuple[str, bool], bytes] = {}  # (language, asked) -> the page, made once

    async def page(request: Request) -> Response:
        # The language is the Accept-Language's (the Edge set it); `data-asked` tells the
        # page the browser asked for it, so it follows that before navigator.language.
        key = (current(), bool(request.headers.get("accept-language")))
        body = pages.get(key)
        if body is None:
            html = render_page_html(index, key[0])
            if key[1]:
                html = html.replace("<html ", "<html data-asked ", 1)
            body = pages[key] = html.encode("utf-8")
        return Response(body, media_type="text/html", headers={"Cache-Control": "no-cache", "Vary": "Accept-Language"})

    metas: dict[str, bytes] = {}  # language -> meta's JSON, made once

    async def get_meta(request: Request) -> Response:
        language = current()
        body = metas.get(language)
        if body is None:
            body = metas[language] = json.dumps(meta(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        return Response(body, media_type="application/json", headers={"Vary": "Accept-Language"})

    async def get_catalogue(request: Request) -> Response:
        # Any code: an unknown one is English's (empty) catalogue, never an error.
        return Response(
            page_catalogue(request.path_params["code"][:20]),
            media_type="application/json",
            headers={"Cache-Control": "public, max-age=3600"},
        )

    paths = ["/", "/game/{game_id}", "/replay", "/review/{review_id}", "/analysis", "/analysis/{position_id}"]
    return [
        *(Route(path, page) for path in paths),
        Route("/api/meta", get_meta),
        Route("/api/catalogue/{code}", get_catalogue),
    ]


def _game_routes(hub: Hub, paces: _Paces) -> list[Route]:
    """The live games: the lobby, new games, seats, a seat's actions and a game's record."""

    async def list_games(request: Request) -> Response:
        return JSONResponse({"games": hub.lobby.listing()})

    async def create_game(request: Request) -> Response:
        body = await _body(request)
        paces.games.take(_client(request))
        return JSONResponse(hub.lobby.create(body, client=_client(request)), status_code=201)

    async def claim(request: Request) -> Response:
        return JSONResponse(hub.lobby.claim(request.path_params["game_id"], await _body(request, 10_000)))

    async def replace(request: Request) -> Response:
        body = await _body(request, 10_000)
        return JSONResponse(hub.lobby.hand_on(request.path_params["game_id"], _token(request), body))

    async def rematch(request: Request) -> Response:
        await _body(request, 10_000)
        table = hub.table(request.path_params["game_id"])
        if table.settings.get("rematch") is None:
            paces.games.take(_client(request))  # a new game: paced as one
        return JSONResponse(hub.lobby.rematch(table.id, _token(request)), status_code=201)

    async def leave(request: Request) -> Response:
        return JSONResponse(hub.lobby.leave(request.path_params["game_id"], _token(request)))

    async def get_game(request: Request) -> Response:
        table = hub.table(request.path_params["game_id"])
        return JSONResponse(table.view(table.seat_of(_token(request))))

    async def options(request: Request) -> Response:
        query = request.query_params
        game_id = request.path_params["game_id"]
        body = hub.round.placements(game_id, _token(request), query.get("tile"), query.get("slot"))
        return Response(body, media_type="application/json")

    async def hint(request: Request) -> Response:
        return JSONResponse(await hub.round.hint(request.path_params["game_id"], _token(request)))

    async def move(request: Request) -> Response:
        body = await _body(request, 10_000)
        return JSONResponse(await hub.round.act(request.path_params["game_id"], _token(request), body))

    async def undo(request: Request) -> Response:
        body = await _body(request, 10_000)
        return JSONResponse(await hub.round.undo(request.path_params["game_id"], _token(request), body))

    async def record(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        data = hub.round.record(game_id, _token(request))
        return Response(
            json.dumps(data, indent=1),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="genial-{game_id}.json"'},
        )

    game = "/api/games/{game_id}"
    return [
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route(game, get_game),
        Route(f"{game}/claim", claim, methods=["POST"]),
        Route(f"{game}/replace", replace, methods=["POST"]),
        Route(f"{game}/leave", leave, methods=["POST"]),
        Route(f"{game}/rematch", rematch, methods=["POST"]),
        Route(f"{game}/options", options),
        Route(f"{game}/hint", hint),
        Route(f"{game}/move", move, methods=["POST"]),
        Route(f"{game}/undo", undo, methods=["POST"]),
        Route(f"{game}/record", record),
    ]


def _study_routes(hub: Hub, reviews: Reviews, analyses: Analyses, paces: _Paces) -> list[Route]:
    """Looking at games: replays of records, reviews, the analysis board and shared positions."""

    async def replay(request: Request) -> Response:
        body = await _body(request)
        paces.replays.take(_client(request))
        # A record of up to a megabyte replays in a thread: the event loop serves the others.
        return JSONResponse(await asyncio.to_thread(replay_frames, body))

    async def start_review(request: Request) -> Response:
        body = await _body(request)
        paces.reviews.take(_client(request))
        if not isinstance(body, dict) or ("game" in body) == ("record" in body):
            raise ApiError(
                400, tr('ask for a review with {{"game": id}} (a finished game) or {{"record": {{...}}}}').format()
            )
        if "record" in body:
            game, _ = posted_record(body["record"], "reviewed")
            names = record_names(body["record"], game.players)
            return JSONResponse(reviews.start(game, names, {}, client=_client(request)), status_code=202)
        table = hub.table(_game_id(body["game"]))
        names = [s["name"] for s in table.seats]
        if table.over:  # over by the rules or by a forfeit: the bag is public then
            started = reviews.start(table.game, names, {"game": table.id}, client=_client(request))
            return JSONResponse(started, status_code=202)
        seat = table.seat_of(_token(request))
        if seat is not None and not table.hints:
            raise ApiError(
                403, tr("this table plays without hints or reviews until the end: ask again once it is over")
            )
        if seat is None:
            raise ApiError(
                409,
                tr(
                    "a game is reviewed once it is over: until then the review would tell what the hidden racks hold (a player may review their own moves with their seat's token)"
                ),
            )
        started = reviews.start(table.game, names, {}, seat=seat, client=_client(request))
        return JSONResponse(started, status_code=202)

    async def get_review(request: Request) -> Response:
        key = request.path_params["review_id"]
        if len(key) > 64:
            raise ApiError(404, tr("no such review"))
        return JSONResponse(reviews.status(key))

    async def analysis(request: Request) -> Response:
        body = await _body(request)
        paces.analyses.take(_client(request))
        return JSONResponse(await analyses.analyse(body))

    async def share(request: Request) -> Response:
        body = await _body(request)
        paces.analyses.take(_client(request))  # a share is stored: paced like an analysis
        return JSONResponse(analyses.share(body, _client(request)), status_code=201)

    async def shared(request: Request) -> Response:
        return JSONResponse(analyses.shared(request.path_params["position_id"]))

    return [
        Route("/api/replay", replay, methods=["POST"]),
        Route("/api/reviews", start_review, methods=["POST"]),
        Route("/api/reviews/{review_id}", get_review),
        Route("/api/analysis", analysis, methods=["POST"]),
        Route("/api/positions", share, methods=["POST"]),
        Route("/api/positions/{position_id}", shared),
    ]


def _live_route(hub: Hub) -> WebSocketRoute:
    """A game's live connection: the first message is a seat's token (or null to watch),
    then each change of the game is sent as that seat's view. Capped per client address
    and, for spectators, per game and across the server."""
    live_by_address: dict[str, int] = {}  # open live connections per client address
    watching = 0  # spectators' connections open, across every game

    async def live(ws: WebSocket) -> None:
        # A socket counts against its address from the upgrade on, hello or not: counted
        # only after its hello, an address held thousands of descriptors open.
        address = ws.client.host if ws.client else ""
        if live_by_address.get(address, 0) >= MAX_LIVE_PER_ADDRESS:
            await _refuse(ws, 429, f"your address has {MAX_LIVE_PER_ADDRESS} live connections open: close one first")
            return
        live_by_address[address] = live_by_address.get(address, 0) + 1
        try:
            await _live(ws)
        finally:
            live_by_address[address] -= 1
            if not live_by_address[address]:
                del live_by_address[address]

    async def _live(ws: WebSocket) -> None:
        nonlocal watching
        await ws.accept()
        try:
            table = hub.table(ws.path_params["game_id"])
            text = await asyncio.wait_for(ws.receive_text(), timeout=HELLO_TIMEOUT_S)
            if len(text) > 10_000:
                raise ApiError(413, tr("the first message is a token, not a book"))
            try:
                hello = json.loads(text)
            except (ValueError, RecursionError):
                raise ApiError(
                    400, tr('the first message is JSON: {{"token": "..."}} (or null to watch)').format()
                ) from None
            if not isinstance(hello, dict):
                raise ApiError(400, tr('the first message is {{"token": "..."}} (or null to watch)').format())
            token = hello.get("token")
            if token is not None and not isinstance(token, str):
                raise ApiError(400, tr('the token is text: {{"token": "..."}} (or null to watch)').format())
            seat = table.seat_of(token)
        except ApiError as e:
            await ws.send_json({"type": "error", "status": e.status, "error": e.message})
            await ws.close(code=4000 + e.status)
            return
        except TimeoutError:  # no hello in time: the descriptor goes back
            with contextlib.suppress(Exception):
                await ws.close(code=4408)
            return
        except (ValueError, KeyError, WebSocketDisconnect):
            with contextlib.suppress(Exception):
                await ws.close(code=4400)
            return
        refused = None
        if seat is None and table.spectators() >= MAX_SPECTATORS:
            refused = tr("this game has {n} spectators already: watch it later").format(n=MAX_SPECTATORS)
        elif seat is None and watching >= MAX_SPECTATORS_TOTAL:
            refused = tr("this server has {n} spectators already: watch later").format(n=MAX_SPECTATORS_TOTAL)
        if refused is not None:
            await ws.send_json({"type": "error", "status": 429, "error": refused})
            await ws.close(code=4429)
            return
        spectator = seat is None
        watching += spectator
        was_present = seat is not None and table.present(seat)
        listener = Listener(seat)
        table.listeners.add(listener)
        if seat is not None and not was_present:  # presence shows in the seat list
            table.presence_changed()

        async def drain() -> None:
            try:
                with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                    while True:
                        await ws.receive_text()
            finally:
                listener.wake.set()  # the page is gone: the loop below ends at once

        reader = asyncio.get_running_loop().create_task(drain())
        try:
            while not reader.done() and not hub.closing:
                listener.wake.clear()
                # None once the seat is replaced; a page's first state shows the clock as of now.
                await ws.send_text(table.view_text(listener.seat, first=listener.sent == 0))
                listener.sent += 1
                # One event to wait on, set by a change or by the reader's end: no task and no
                # asyncio.wait per state sent. With 2,000 spectators that took `/api/meta`'s
                # p95 from 42 to 19 ms (benches/results/HISTORY.md, fan-out after issue 44).
                await listener.wake.wait()
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass
        finally:
            reader.cancel()
            table.listeners.discard(listener)
            watching -= spectator
            if listener.seat is not None:
                table.seen_at[listener.seat] = time.time()  # away from now on
                if not table.present(listener.seat):
                    table.presence_changed()
            with contextlib.suppress(Exception):
                await ws.close()

    return WebSocketRoute("/api/games/{game_id}/ws", live)


def create_app(
    db: str | os.PathLike[str],
    *,
    bot_threads: int = 1,
    bot_delay: float = 0.0,
    limits: BotLimits | None = None,
    edge: EdgeRules | None = None,
    access_log: bool = False,
    keep_days: float = 0.0,
    review_iterations: int | None = None,
    engines: dict[str, str] | None = None,
) -> Edge:
    """The app serving the games kept in the SQLite file ``db``: the Starlette app inside
    the `Edge` (``app.hub`` is the games). Reviews and the analysis board search like the
    expert level, with ``review_iterations`` iterations a decision instead of its own
    (never more than the operator's ``limits.max_iterations``). ``engines``: the operator's
    engines, NAME -> COMMAND; pages see the names only."""
    limits = limits or BotLimits()
    edge = edge or EdgeRules(max_body=MAX_BODY)
    store = Store(db)
    hub = Hub(store, bot_threads=bot_threads, bot_delay=bot_delay, limits=limits, keep_days=keep_days, engines=engines)
    if review_iterations is not None:
        review_iterations = max(1, min(review_iterations, limits.max_iterations))
    reviews = Reviews(store, hub.workers, iterations=review_iterations)
    analyses = Analyses(hub, reviews, iterations=review_iterations)
    bots = bot_catalogue()

    def meta() -> dict[str, Any]:  # in the language in use: made once per language
        return {
            **facts.meta(bots),
            "bot_limits": limits.meta(),
            "engines": [{"name": name} for name in sorted(hub.engines.engines)],
            "fair_seed": facts.fair_seed(FAIR_SEED_HUMANS),
            # What the lobby offers for a table's away_minutes (0: never), and its default.
            "away_minutes": {"default": round(DEFAULT_AWAY_S / 60), "choices": [5, 10, 30, 60, 0]},
            # What the lobby offers for a table's game clock (minutes each; 0: none).
            "clock_minutes": {"default": 0, "choices": [0, 5, 10, 20, 30, 60]},
        }

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        hub.start()
        reviews.resume()
        try:
            yield
        finally:
            await reviews.close()
            await hub.close()
            store.close()

    paces = _Paces.of(edge.new_games_per_minute)
    routes = [
        *_page_routes(meta),
        *_game_routes(hub, paces),
        *_study_routes(hub, reviews, analyses, paces),
        _live_route(hub),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={ApiError: _api_error, HTTPException: _http_error},
        lifespan=lifespan,
    )
    app.state.hub = hub
    app.state.reviews = reviews
    return Edge(app, edge, AccessLog() if access_log else None)
