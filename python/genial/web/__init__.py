"""Ingenious in the browser: ``genial serve`` (needs ``pip install "genial-engine[web]"``).

`genial.web.server.create_app` builds the ASGI app (Starlette), `genial.web.store` keeps
the games in SQLite, `genial.web.lobby` makes and finds them (with the seats of
`genial.web.seats`), `genial.web.round` plays them (moves, bots, engines, clocks), and the
page itself (plain HTML, CSS and ES modules) is in ``static/``.
"""
