"""The core's texts that the page shows, in the player's language: the bots' descriptions
and their options' help, the variants' descriptions and the edition options' help.

The core (Rust) is language-free and writes these in English; the page reads them through
`GET /api/meta`, which the server translates through the catalogues keyed by the English
text (`genial.web.facts.translated_meta`). They are listed here, each marked, so that
``make catalogues`` extracts them (Babel reads Python, not Rust); a test checks that the
list holds every text the core gives, so a new bot or option fails until it is added.
"""

from __future__ import annotations

from ..translation import mark

__all__ = ["CORE_TEXTS"]

CORE_TEXTS: frozenset[str] = frozenset(
    (
        mark("a uniformly random legal move"),
        mark(
            "one placement ahead: the scores that rank best for it (its lowest colour first), then bonuses, then points"
        ),
        mark("information-set Monte Carlo tree search with greedy playouts; never reads hidden tiles"),
        mark("another engine's one-ply player, valuing each colour by how scarce it is; the reference to beat"),
        mark(
            "the learned policy network alone, trained on the expert's searches: one forward pass a decision, its top legal move"
        ),
        mark("level 1: samples moves by the fitted evaluation's cheap score; sensible and beatable"),
        mark("level 2: the fitted evaluation's best move one ply deep, its best few re-ranked by the full evaluation"),
        mark("level 3: information-set search guided by the fitted evaluation, 200/140/100 iterations a decision"),
        mark("level 4: the same search with 800/560/400 iterations a decision (about 50 ms a move)"),
        mark(
            "level 5: the expert's search with the learned policy ranking its moves, a learned evaluation, an exhaustive endgame and time management, 800/600/500 iterations a decision (about 50 ms a move)"
        ),
        mark("Base game: a rack of six, a track 0..18 per player, bonus placements at 18."),
        mark(
            "One player places the tile just drawn; tracks 0..36, each half stopping on 18 on the way; the result is the lowest colour."
        ),
        mark("Seats 0+2 against 1+3, one track 0..36 per team, bonus placements at 18 and 36."),
        mark("Two players pull shared markers -9..+9 toward themselves; duel tokens; most markers on your side wins."),
        mark("0: the best move; above 0, moves are sampled with probability ∝ exp(score / temperature)"),
        mark(
            "0: the root selects by UCB1; above 0: by PUCT with this constant, weighing moves by the prior's probabilities"
        ),
        mark("auto: the bot decides; never: decline every swap (and never swap instead of placing)"),
        mark("every placement must touch a tile or a printed symbol (an older edition's option)"),
        mark("free pairs at or below which playouts run to the end of the game"),
        mark("how playouts pick moves: the greedy choice, at random, or the best of N random moves (N in 1..=64)"),
        mark("iterations per decision (0 with time_ms: until the time is up)"),
        mark("iterations per decision, for every table size (default 200/140/100 with 2/3/4 players)"),
        mark("iterations per decision, for every table size (default 800/560/400 with 2/3/4 players)"),
        mark("iterations per decision, for every table size (default 800/600/500 with 2/3/4 players)"),
        mark(
            "milliseconds per decision, alone or with iterations (whichever ends first); play then depends on the machine"
        ),
        mark("most candidates per node, best first by the evaluation"),
        mark("moves considered per node, best first by the greedy evaluation"),
        mark(
            "on: deal the other seats' hidden racks by how likely their public moves make them; off: uniformly from the unseen tiles"
        ),
        mark("placements of a playout before the evaluation cuts it"),
        mark("placements per playout before the position is ranked as it stands (0: to the end)"),
        mark("progressive widening: a node visited n times considers 1 + widen·√n candidates"),
        mark("the UCB1 exploration constant (returns lie in 0..1)"),
        mark("the best moves by the cheap score that the full evaluation re-ranks (0 or 1: none)"),
        mark("what ranks the root's moves: the fitted evaluation's cheap score, or the learned policy network"),
        mark("when a swap happens: after the placement (the current books) or instead of it (the older book)"),
    )
)
