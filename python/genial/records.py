"""Game records: a documented, versioned JSON format that replays exactly.

Format ``genial.game`` version 2::

    {
      "format": "genial.game",
      "version": 2,
      "rules": "version=1 variant=standard players=2 swap_timing=after_placement ...",
                                        # the rule set's one text form (genial.Rules.to_text)
      "seed": 12345,                    # drives the mixing of swapped tiles into the bag
      "bag": ["YG", "YB", ...],         # the 120 tiles in draw order (deal included)
      "moves": ["Y5,-1+P4,-1", "keep", ...],
      "result": {...},                  # optional: over, scores, end, ranking (checked on read)
      "seats": ["human", "greedy"],     # optional, informational: who sat where (written by
                                        # `genial play`, read by `genial play --resume`)
      "review": {"format": "genial.review", "version": 2, ...}
    }                                   # optional: the game's review (`genial.reviews`)

Unknown fields are ignored on read, so tools may add informational fields like ``seats``;
unknown keys inside ``rules`` are not: a rule option this genial does not know would
replay the game under other rules, so the record is refused. Version 1 records, which held
``variant``, ``players``, ``swap_timing`` and ``require_contact`` at the top level instead
of ``rules``, still read.
The optional ``review`` section has its own format and version (`genial.reviews.Review.to_dict`);
read it with `genial.reviews.Review.from_dict`, which checks it reviews the record's moves.

Reading replays every move through the rules; any inconsistency raises `RecordError`
naming the field or the move at fault. A stored ``result`` must be what the replay gives
(whether the game is over, the tracks, the end and the ranking, each where present): a
record whose moves and result disagree was changed by hand or written by another program,
and neither can be trusted.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

# The record's code lives in `genial.game`, beside the `Game` it builds (so that the two
# modules do not import each other); this module is its documented home and reads files.
from .game import (
    FORMAT,
    MAX_RECORD_CHARS,
    VERSION,
    RecordError,
    from_json,
    from_record,
    parse_record,
    to_json,
    to_record,
)
from .game import MAX_MOVES as MAX_MOVES

__all__ = [
    "FORMAT",
    "VERSION",
    "RecordError",
    "to_record",
    "from_record",
    "to_json",
    "from_json",
    "read_record",
    "start_record",
]


def start_record(data: Mapping[str, Any]) -> dict[str, Any]:
    """The record of the same game before its first move: ``data`` without its moves and
    its result (which belongs to the moves), for `from_record` to set up the start."""
    return {**{k: v for k, v in data.items() if k != "result"}, "moves": []}


def read_record(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The JSON object of a record file, read no further than the size limit (a huge file
    costs no memory). Raises `RecordError` for content that is not a record's JSON object,
    `OSError` when the file cannot be read. Replay it with `from_record`."""
    with open(path, "rb") as f:
        # UTF-8 takes at most 4 bytes a character: reading one more than the limit's worth
        # is enough to tell an oversized record.
        raw = f.read(4 * MAX_RECORD_CHARS + 1)
    if len(raw) > 4 * MAX_RECORD_CHARS:
        raise RecordError(f"record file is larger than {4 * MAX_RECORD_CHARS} bytes: not a game record")
    data = parse_record(raw)
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, not {type(data).__name__}")
    return data
