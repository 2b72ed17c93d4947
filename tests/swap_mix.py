"""A dishonest server's swap (N5 of issue 44), shared by the end screen's check under node
(test_web_fairness) and in Chromium (test_web_browser): it deals the bag it committed to but
mixes the tiles a swap puts back its own way, which chooses every draw after the swap."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import genial
from genial.records import from_record, start_record


def mixed_otherwise(record: Mapping[str, Any]) -> genial.Game:
    """The game of ``record`` at its start, its bag and deal unchanged, whose swaps are mixed
    by another seed than the record's (the one its fingerprint holds). Played the same way, it
    is the same game up to the first swap; from there its draws are not the committed mix's,
    yet each is a tile of the bag, and the racks and moves fit them."""
    return from_record({**start_record(record), "seed": int(record["seed"]) + 1})
