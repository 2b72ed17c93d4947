"""``genial serve``: the browser game on a web server, local by default, for friends over
the internet with a TLS proxy in front (docs/hosting.md)."""

from __future__ import annotations

import argparse
import logging
import os
import re
import signal
import socket
import sys
from types import FrameType
from urllib.parse import urlsplit

from ..bots import catalogue
from ..web.store import default_db_path
from .common import error, examples

# The most iterations a level's budget gives a decision, from the bot catalogue.
_LEVELS_MOST_ITERATIONS = max(max(o.by_players) for b in catalogue() for o in b.options if o.by_players)

__all__ = ["register", "run_serve"]

_MISSING = "genial serve needs the web extra: pip install 'genial-engine[web]' (starlette, uvicorn and websockets)"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        help="play in the browser: a local server for games against bots or friends",
        description="Starts a web server for games of Reiner Knizia's Ingenious in the browser. Games are "
        "kept in a SQLite file, written on every move, so a restarted server resumes them. "
        "To host friends over the internet, put a TLS proxy in front and set --public-url "
        "(see the hosting guide).",
        epilog=examples(
            "genial serve                                  # http://127.0.0.1:8000/ on this machine",
            "genial serve --host 0.0.0.0 --port 8080       # friends on your network join",
            "genial serve --db games.sqlite3 --bot-delay 0",
            "genial serve --engine rand=./random_engine --engine mine=/opt/engines/mine   # engines in bot seats",
        ),
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; 0.0.0.0 to play with friends on your LAN)",
    )
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one)")
    p.add_argument("--db", default=None, help=f"SQLite file of the games (default {default_db_path()})")
    p.add_argument(
        "--public-url",
        default=None,
        metavar="URL",
        help="the address players open, e.g. https://games.example.org (behind a TLS proxy): its "
        "host name is served and its origin allowed",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="another host name this server answers to (repeatable; localhost and IP addresses always work)",
    )
    p.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="another origin whose pages may post and connect, e.g. https://example.org (repeatable)",
    )
    p.add_argument(
        "--new-games-per-minute",
        type=float,
        default=20.0,
        metavar="N",
        help="new games one client address may create per minute (default 20; 0: no limit)",
    )
    p.add_argument(
        "--max-iterations",
        type=int,
        default=20_000,
        metavar="N",
        help="the most search iterations a game may ask of a bot (default 20000; "
        f"the levels use at most {_LEVELS_MOST_ITERATIONS})",
    )
    p.add_argument(
        "--max-think-ms",
        type=int,
        default=10_000,
        metavar="MS",
        help="the most thinking time per move a bot may take; a search is stopped there (default 10000)",
    )
    p.add_argument(
        "--review-iterations",
        type=int,
        default=None,
        metavar="N",
        help="search iterations per decision of a review or an analysis (default: the expert level's own; "
        "at most --max-iterations)",
    )
    p.add_argument(
        "--allow-bot-options",
        action="store_true",
        help="let games set bot options (budgets up to the caps); by default the lobby offers levels only",
    )
    p.add_argument(
        "--keep-days",
        type=float,
        default=0.0,
        metavar="DAYS",
        help="delete games nobody has touched for this many days (default 0: keep every game)",
    )
    p.add_argument(
        "--bot-threads",
        type=int,
        default=max(1, (os.cpu_count() or 2) - 1),
        help="threads in which bots think (default: one less than the cores)",
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.4,
        help="seconds a bot waits before moving, so that people can follow (default 0.4)",
    )
    p.add_argument(
        "--access-log",
        default="-",
        metavar="FILE",
        help="where each request is logged, one line each (default -: standard error)",
    )
    p.add_argument(
        "--engine",
        action="append",
        default=[],
        metavar="NAME=COMMAND",
        help="offer an engine (genial's engine protocol) for bot seats under NAME (repeatable); games "
        "name it, never a command. It is started for each of its moves in the bots' threads, within "
        "--max-think-ms; one that fails forfeits the game",
    )
    p.add_argument("--quiet", action="store_true", help="no access log")
    p.set_defaults(func=run_serve)


def _origin(url: str) -> tuple[str, str]:
    """The origin and host name of ``--public-url``."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"--public-url must be an http(s) address like https://games.example.org, not {url!r}")
    return f"{parts.scheme}://{parts.netloc.lower()}", parts.hostname.lower()


_ENGINE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")


def _engines(specs: list[str]) -> dict[str, str]:
    """``--engine NAME=COMMAND`` options as NAME -> COMMAND, each engine started once and
    handshaken now, so that a wrong command stops the server before anyone plays."""
    from ..bots import BUILTIN_BOTS
    from ..engine.host import EngineBot, EngineError

    out: dict[str, str] = {}
    for spec in specs:
        name, eq, command = spec.partition("=")
        name, command = name.strip(), command.strip()
        if not eq or not command:
            raise ValueError(f"--engine takes NAME=COMMAND, e.g. mine='./my_engine --fast', not {spec!r}")
        if not _ENGINE_NAME.fullmatch(name):
            raise ValueError(f"--engine name {name!r}: 1-32 letters, digits, '-', '_' or '.', starting with one")
        if name in out or name in BUILTIN_BOTS:
            raise ValueError(f"--engine name {name!r} is taken (by another engine or a built-in bot)")
        engine = EngineBot(command)
        try:
            engine.start()
        except (EngineError, ValueError) as e:
            raise ValueError(f"--engine {name}: {e}") from None
        finally:
            engine.close()
        about = " ".join(
            x for x in (engine.engine_name, f"by {engine.engine_author}" if engine.engine_author else "") if x
        )
        print(f"  engine {name}: {about or command}", flush=True)
        out[name] = command
    return out


def _access_log(target: str) -> None:
    handler: logging.Handler = logging.StreamHandler(sys.stderr) if target == "-" else logging.FileHandler(target)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.getLogger("genial.access")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web.edge import EdgeRules
        from ..web.seats import BotLimits
        from ..web.server import MAX_BODY, create_app
        from ..web.transport import http_protocol
    except ImportError:
        return error(_MISSING)
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be 0..65535, not {args.port}")
    if args.bot_threads < 1:
        raise ValueError(f"--bot-threads must be at least 1, not {args.bot_threads}")
    if not 0 <= args.bot_delay <= 10:
        raise ValueError(f"--bot-delay must be 0..10 seconds, not {args.bot_delay}")
    if args.review_iterations is not None and args.review_iterations < 1:
        raise ValueError(f"--review-iterations must be at least 1, not {args.review_iterations}")
    if args.max_iterations < 1 or args.max_think_ms < 1:
        raise ValueError("--max-iterations and --max-think-ms must be at least 1")
    if args.new_games_per_minute < 0 or args.keep_days < 0:
        raise ValueError("--new-games-per-minute and --keep-days cannot be negative")
    hosts = {h.strip().lower().rstrip(".") for h in args.allowed_host if h.strip()}
    origins = {o.strip().rstrip("/") for o in args.allowed_origin if o.strip()}
    for o in origins:
        if urlsplit(o).scheme not in ("http", "https") or not urlsplit(o).netloc:
            raise ValueError(f"--allowed-origin must be like https://example.org, not {o!r}")
    public = None
    if args.public_url:
        public, name = _origin(args.public_url)
        origins.add(public)
        hosts.add(name)
    engines = _engines(args.engine)
    db = args.db or default_db_path()
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
        sock.listen(2048)  # connections wait in the backlog until the server accepts them
    except OSError as e:
        sock.close()
        return error(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}", 1)
    host, port = sock.getsockname()[:2]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    if not args.quiet:
        _access_log(args.access_log)
    app = create_app(
        db,
        bot_threads=args.bot_threads,
        bot_delay=args.bot_delay,
        limits=BotLimits(
            max_iterations=args.max_iterations, max_think_ms=args.max_think_ms, options=args.allow_bot_options
        ),
        edge=EdgeRules(
            hosts=frozenset(hosts),
            origins=frozenset(origins),
            max_body=MAX_BODY,
            new_games_per_minute=args.new_games_per_minute,
        ),
        access_log=not args.quiet,
        keep_days=args.keep_days,
        engines=engines,
        review_iterations=args.review_iterations,
    )
    print(f"genial serve: open http://{shown}:{port}/ in your browser", flush=True)
    if public:
        print(f"  players open {args.public_url} (the TLS proxy forwards it here)", flush=True)
    if host in ("0.0.0.0", "::"):
        print("  listening on every interface: friends on your network use this machine's address", flush=True)
    print(f"  games are kept in {db}; Ctrl-C stops the server", flush=True)
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,  # genial.web.edge writes its own, without query strings
        ws="auto",
        # A connection must send its request within timeout_keep_alive (5 s), as an idle one,
        # and all of it within transport.REQUEST_TIMEOUT_S (10 s) of its first byte.
        http=http_protocol(),
        lifespan="on",
        # Compressing every state costs more CPU than it saves on a LAN.
        ws_per_message_deflate=False,
        ws_max_size=65_536,
        # Ctrl-C or SIGTERM: open connections get 1 s to finish, then the bots are stopped.
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    # uvicorn shuts down gracefully on SIGTERM, then raises the signal again for the handler
    # found at start: this one turns it into an exception, so that a stop asked for exits
    # with status 0 (as Ctrl-C does) instead of dying of the signal (-15).
    previous = signal.signal(signal.SIGTERM, _stop_requested)
    try:
        server.run(sockets=[sock])
    except (KeyboardInterrupt, _StopRequested):
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        sock.close()
    print("genial serve: stopped", flush=True)
    return 0


class _StopRequested(Exception):
    """SIGTERM arrived: stop (uvicorn has already shut down when it raises it again)."""


def _stop_requested(signum: int, frame: FrameType | None) -> None:
    raise _StopRequested
