"""Writes OpenSpiel's regression file for genial, tests/data/openspiel_genial.txt, as its
``generate_playthrough`` makes one (seed 7): what OpenSpiel is told of a game, turn by turn.

Run it after a deliberate change of what OpenSpiel sees (a new rule option, which adds a
game parameter and an observation entry; another observation layout; another string of a
state), then read the file's diff: ``python tests/openspiel_playthrough.py``.
tests/test_openspiel.py replays the file and fails while it is stale.
"""

from __future__ import annotations

from pathlib import Path

PLAYTHROUGH = Path(__file__).resolve().parent / "data" / "openspiel_genial.txt"


def playthrough() -> str:
    import genial.envs.openspiel  # noqa: F401  (registers the game with OpenSpiel)
    from absl import flags
    from open_spiel.python.algorithms import generate_playthrough

    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
    text: str = generate_playthrough.playthrough("genial", None, seed=7)
    return text


if __name__ == "__main__":
    PLAYTHROUGH.write_text(playthrough())
    print(f"wrote {PLAYTHROUGH}")
