from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
FIXTURES = DATA / "fixtures"


def load_fixture_games() -> list[dict[str, Any]]:
    games = []
    for name in ("games_2p.jsonl", "games_3p.jsonl", "games_4p.jsonl"):
        with open(FIXTURES / name) as f:
            games.extend(json.loads(line) for line in f if line.strip())
    return games


@pytest.fixture(scope="session")
def fixture_games() -> list[dict[str, Any]]:
    return load_fixture_games()
