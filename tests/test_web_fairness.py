"""The end screen's check of the deal (``static/fairness.js``, run under node) against the
core: a real game with swaps, revealed as the server reveals it, checks out draw by draw,
the swaps' seeded mix replayed by the page; a server that reorders the bag at a swap (N5 of
issue 44: half that game's draws were open to its choice) is caught."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import genial
import pytest
from genial.records import from_record, start_record
from genial.web import views
from genial.web.facts import meta
from swap_mix import mixed_otherwise

STATIC = Path(genial.__file__).resolve().parent / "web" / "static"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="the page's check runs under node")


def reveal_of(game: genial.Game) -> dict[str, Any]:
    """What `Table.reveal` sends at the end (without the salt, which the check of the deal
    does not read)."""
    record = json.loads(game.to_json())
    steps = views.deal_steps(from_record(start_record(record)), record["moves"])
    return {"seed": str(game.seed), "bag": "".join(record["bag"]), "steps": steps}


def check(reveal: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    letters = {c["letter"]: c["index"] for c in meta([])["colors"]}
    script = tmp_path / "check.mjs"
    script.write_text(
        f'import {{ checkDeal }} from "{(STATIC / "fairness.js").as_uri()}";\n'
        f"const got = checkDeal({json.dumps(reveal)}, null, {json.dumps(letters)}, []);\n"
        "console.log(JSON.stringify(got));\n"
    )
    out = subprocess.run([NODE, str(script)], capture_output=True, text=True, timeout=60, check=True)  # type: ignore[list-item]
    return dict(json.loads(out.stdout))


def test_a_game_with_swaps_checks_out_and_a_reordered_bag_is_caught(tmp_path: Path) -> None:
    game = genial.play_game(["greedy", "greedy"], seed=0)
    assert sum(str(m) == "swap" for m in game.moves) >= 2
    reveal = reveal_of(game)
    got = check(reveal, tmp_path)
    assert got["ok"], got["text"]
    assert got["draws"] == sum(len(s["drew"]) // 2 for s in reveal["steps"])
    assert "after a swap, its mix replayed" in got["text"]
    # A dishonest server deals the committed bag but mixes the swaps its own way (here, with
    # another seed): a whole consistent game, every tile one of the bag's, racks and moves
    # matching, that a check of tiles alone passed. Its draws after the first swap are not
    # the committed seed's.
    liar = mixed_otherwise(json.loads(game.to_json()))
    bots = [genial.bots.make("greedy", s) for s in range(2)]
    while not liar.is_over:
        seat = liar.current_player
        liar.play(bots[seat].choose(genial.GameView(liar, seat)))
    forged = reveal_of(liar)
    assert any("returned" in s for s in forged["steps"])
    forged["seed"] = str(game.seed)  # what the fingerprint holds
    assert forged["bag"] == reveal["bag"]
    caught = check(forged, tmp_path)
    assert not caught["ok"] and "next tile" in caught["text"], caught["text"]
