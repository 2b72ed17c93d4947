from __future__ import annotations

import json
import os
from collections.abc import Iterator
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


@pytest.fixture(scope="session", autouse=True)
def _engine_logs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The stderr logs of the engines the tests start (those that fail are kept) go to the
    session's temporary folder, which pytest cleans up, not to the system's."""
    folder = tmp_path_factory.mktemp("engine-logs")
    before = os.environ.get("GENIAL_ENGINE_LOG_DIR")
    os.environ["GENIAL_ENGINE_LOG_DIR"] = str(folder)  # subprocesses (genial tournament, ...) too
    yield folder
    if before is None:
        os.environ.pop("GENIAL_ENGINE_LOG_DIR", None)
    else:
        os.environ["GENIAL_ENGINE_LOG_DIR"] = before


@pytest.fixture(scope="session", autouse=True)
def _state_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Where `genial play` notes the last game it saved (for ``genial analyse --last``):
    the session's temporary folder, not the user's ``~/.local/state``."""
    folder = tmp_path_factory.mktemp("state")
    before = os.environ.get("XDG_STATE_HOME")
    os.environ["XDG_STATE_HOME"] = str(folder)  # subprocesses too
    yield folder
    if before is None:
        os.environ.pop("XDG_STATE_HOME", None)
    else:
        os.environ["XDG_STATE_HOME"] = before
