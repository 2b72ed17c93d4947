"""``genial serve``: the browser game on a local web server."""

from __future__ import annotations

import argparse
import os
import socket

from ..web.store import default_db_path
from .common import error, examples

__all__ = ["register", "run_serve"]

_MISSING = "genial serve needs the web extra: pip install 'genial-engine[web]' (starlette, uvicorn and websockets)"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "serve",
        help="play in the browser: a local server for games against bots or friends",
        description="Starts a web server for Ingenious games in the browser. Games are kept in a "
        "SQLite file, written on every move, so a restarted server resumes them.",
        epilog=examples(
            "genial serve                                  # http://127.0.0.1:8000/ on this machine",
            "genial serve --host 0.0.0.0 --port 8080       # friends on your network join",
            "genial serve --db games.sqlite3 --bot-delay 0",
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
    p.add_argument("--quiet", action="store_true", help="no access log")
    p.set_defaults(func=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web.server import create_app
    except ImportError:
        return error(_MISSING)
    if not 0 <= args.port <= 65535:
        raise ValueError(f"--port must be 0..65535, not {args.port}")
    if args.bot_threads < 1:
        raise ValueError(f"--bot-threads must be at least 1, not {args.bot_threads}")
    if not 0 <= args.bot_delay <= 10:
        raise ValueError(f"--bot-delay must be 0..10 seconds, not {args.bot_delay}")
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
    app = create_app(db, bot_threads=args.bot_threads, bot_delay=args.bot_delay)
    print(f"genial serve: open http://{shown}:{port}/ in your browser", flush=True)
    if host in ("0.0.0.0", "::"):
        print("  listening on every interface: friends on your network use this machine's address", flush=True)
    print(f"  games are kept in {db}; Ctrl-C stops the server", flush=True)
    config = uvicorn.Config(
        app,
        log_level="warning" if args.quiet else "info",
        access_log=not args.quiet,
        ws="auto",
        lifespan="on",
        # Compressing every state costs more CPU than it saves on a LAN.
        ws_per_message_deflate=False,
    )
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print("genial serve: stopped", flush=True)
    return 0
