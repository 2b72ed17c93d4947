"""Statistics of many games: proportions with Wilson intervals (`Rate`) and the summary of
a run (`Summary`: win rates per seat and per bot, the lowest marker's distribution, the
first player's advantage, end reasons), which adds up across chunks and shards."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from . import _core

__all__ = ["Rate", "Summary", "RunColumns"]


class RunColumns(Protocol):
    """What `Summary.of` reads of a run: the columns of a `genial.results.SimulationResult`.
    Named here rather than imported, because results builds on stats, not the reverse."""

    @property
    def players(self) -> int: ...
    @property
    def sides(self) -> int: ...
    @property
    def bot_names(self) -> tuple[str, ...]: ...
    @property
    def bots(self) -> npt.NDArray[np.uint8]: ...
    @property
    def scores(self) -> npt.NDArray[np.int8]: ...
    @property
    def end(self) -> npt.NDArray[np.uint8]: ...
    @property
    def placements(self) -> npt.NDArray[np.uint16]: ...
    @property
    def bonus_placements(self) -> npt.NDArray[np.uint16]: ...
    @property
    def swaps(self) -> npt.NDArray[np.uint16]: ...
    def win_credit(self) -> npt.NDArray[np.float64]: ...
    def lowest(self) -> npt.NDArray[np.int8]: ...
    def __len__(self) -> int: ...


_Z95 = 1.959963984540054
# End reasons of result rows by code (the core's schema): the game's own, then "forfeit" (a
# game stopped where a bot failed: `genial.bots.Forfeit`).
END_NAMES: tuple[str, ...] = tuple(_core.Run.end_names())


@dataclass(frozen=True)
class Rate:
    """A proportion with its 95% Wilson score interval."""

    value: float
    low: float
    high: float
    n: float

    @classmethod
    def wilson(cls, successes: float, n: float, z: float = _Z95) -> Rate:
        if n <= 0:
            return cls(math.nan, math.nan, math.nan, 0.0)
        p = successes / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * math.sqrt(max(p * (1 - p) / n + z * z / (4 * n * n), 0.0)) / denom
        # The interval always contains the estimate (rounding at p = 0 or 1 aside).
        return cls(p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)), n)

    def __str__(self) -> str:
        return f"{100 * self.value:5.1f}% [{100 * self.low:5.1f}, {100 * self.high:5.1f}]"


_LOW_MIN = -9  # lowest possible marker (duel); histograms of the lowest marker start here
_LOW_BINS = 46  # -9 .. 36


@dataclass
class Summary:
    """Totals of a run that add up across chunks and shards (``a + b``), and what follows
    from them: win rates per seat and per bot with 95% Wilson intervals, the distribution of
    the lowest marker (what decides the ranking), the first player's advantage, end reasons.
    """

    players: int
    sides: int
    bot_names: tuple[str, ...]
    games: int
    seat_wins: npt.NDArray[np.float64]  # players
    bot_wins: npt.NDArray[np.float64]  # bots
    bot_seats: npt.NDArray[np.int64]  # bots: seat appearances
    low_hist: npt.NDArray[np.int64]  # players × bins
    total_sum: npt.NDArray[np.float64]  # players: sum of the six markers
    bot_low_sum: npt.NDArray[np.float64]  # bots
    ends: npt.NDArray[np.int64]  # END_NAMES
    placements: int
    bonus_placements: int
    swaps: int

    @classmethod
    def of(cls, res: RunColumns) -> Summary:
        credit = res.win_credit()
        low = res.lowest().astype(np.int64)
        nb = len(res.bot_names)
        hist = np.zeros((res.players, _LOW_BINS), dtype=np.int64)
        for s in range(res.players):
            hist[s] = np.bincount(low[:, s] - _LOW_MIN, minlength=_LOW_BINS)[:_LOW_BINS]
        flat_bots = res.bots.astype(np.int64).ravel()
        return cls(
            players=res.players,
            sides=res.sides,
            bot_names=res.bot_names,
            games=len(res),
            seat_wins=credit.sum(axis=0),
            bot_wins=np.bincount(flat_bots, weights=credit.ravel(), minlength=nb).astype(np.float64),
            bot_seats=np.bincount(flat_bots, minlength=nb).astype(np.int64),
            low_hist=hist,
            total_sum=res.scores.astype(np.int64).sum(axis=(0, 2)).astype(np.float64),
            bot_low_sum=np.bincount(flat_bots, weights=low.ravel().astype(np.float64), minlength=nb).astype(np.float64),
            ends=np.bincount(res.end, minlength=len(END_NAMES)).astype(np.int64),
            placements=int(res.placements.sum(dtype=np.int64)),
            bonus_placements=int(res.bonus_placements.sum(dtype=np.int64)),
            swaps=int(res.swaps.sum(dtype=np.int64)),
        )

    def __add__(self, other: Summary) -> Summary:
        if (self.players, self.bot_names) != (other.players, other.bot_names):
            raise ValueError("summaries of different runs (players or bots differ) do not add up")
        return Summary(
            players=self.players,
            sides=self.sides,
            bot_names=self.bot_names,
            games=self.games + other.games,
            seat_wins=self.seat_wins + other.seat_wins,
            bot_wins=self.bot_wins + other.bot_wins,
            bot_seats=self.bot_seats + other.bot_seats,
            low_hist=self.low_hist + other.low_hist,
            total_sum=self.total_sum + other.total_sum,
            bot_low_sum=self.bot_low_sum + other.bot_low_sum,
            ends=self.ends + other.ends,
            placements=self.placements + other.placements,
            bonus_placements=self.bonus_placements + other.bonus_placements,
            swaps=self.swaps + other.swaps,
        )

    @property
    def win_rate(self) -> tuple[float, ...]:
        """Per seat: its share of first places (ties split)."""
        return tuple(float(w) / self.games if self.games else math.nan for w in self.seat_wins)

    def seat_rates(self) -> list[Rate]:
        return [Rate.wilson(float(w), self.games) for w in self.seat_wins]

    def bot_rates(self) -> dict[str, Rate]:
        """Per bot: share of first places over the seats it played."""
        return {
            name: Rate.wilson(float(self.bot_wins[i]), float(self.bot_seats[i]))
            for i, name in enumerate(self.bot_names)
            if self.bot_seats[i] > 0
        }

    def first_player_advantage(self) -> Rate:
        """Seat 0's win rate minus a fair share (1 / sides), with its interval."""
        r = Rate.wilson(float(self.seat_wins[0]), self.games)
        fair = 1.0 / self.sides
        return Rate(r.value - fair, r.low - fair, r.high - fair, r.n)

    def lowest_mean(self) -> npt.NDArray[np.float64]:
        """Per seat, the mean lowest marker."""
        values = np.arange(_LOW_BINS) + _LOW_MIN
        return np.asarray(self.low_hist @ values, dtype=np.float64) / max(self.games, 1)

    def lowest_quantiles(self, qs: Sequence[float] = (0.1, 0.5, 0.9)) -> npt.NDArray[np.int64]:
        """Per seat, quantiles of the lowest marker (from the exact histogram)."""
        cum = np.cumsum(self.low_hist, axis=1)
        out = np.zeros((self.players, len(qs)), dtype=np.int64)
        for s in range(self.players):
            for j, q in enumerate(qs):
                out[s, j] = int(np.searchsorted(cum[s], q * cum[s, -1], side="left")) + _LOW_MIN
        return out

    def lowest_std(self) -> npt.NDArray[np.float64]:
        values = np.arange(_LOW_BINS) + _LOW_MIN
        mean = self.lowest_mean()
        sq = np.asarray(self.low_hist @ (values.astype(np.float64) ** 2)) / max(self.games, 1)
        return np.sqrt(np.maximum(sq - mean**2, 0.0))

    def end_counts(self) -> dict[str, int]:
        return {name: int(n) for name, n in zip(END_NAMES, self.ends) if n}

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "seat_win_rate": [r.__dict__ for r in self.seat_rates()],
            "bot_win_rate": {k: r.__dict__ for k, r in self.bot_rates().items()},
            "first_player_advantage": self.first_player_advantage().__dict__,
            "lowest_mean": self.lowest_mean().tolist(),
            "lowest_std": self.lowest_std().tolist(),
            "lowest_quantiles_10_50_90": self.lowest_quantiles().tolist(),
            "mean_total": (self.total_sum / max(self.games, 1)).tolist(),
            "ends": self.end_counts(),
            "placements_per_game": self.placements / max(self.games, 1),
            "bonus_placements_per_game": self.bonus_placements / max(self.games, 1),
            "swaps_per_game": self.swaps / max(self.games, 1),
        }

    def table(self, advantage: str = "first player advantage") -> str:
        """The summary as a text table. ``advantage`` names seat 0's edge: with different
        bots in fixed seats it is that bot's edge, not the first player's."""
        lines = [f"{self.games} games, {self.players} players"]
        if self.games == 0:
            return lines[0]
        lines.append(
            f"{'seat':<6}{'win rate [95% CI]':<26}{'lowest: mean':>13}{'sd':>6}{'p10/p50/p90':>14}{'total':>8}"
        )
        qs = self.lowest_quantiles()
        mean, sd = self.lowest_mean(), self.lowest_std()
        tot = self.total_sum / max(self.games, 1)
        for s, r in enumerate(self.seat_rates()):
            q = "/".join(str(int(x)) for x in qs[s])
            lines.append(f"{s:<6}{r!s:<26}{mean[s]:>13.2f}{sd[s]:>6.2f}{q:>14}{tot[s]:>8.1f}")
        rates = self.bot_rates()
        if len(rates) > 1 or len(self.bot_names) > 1:
            lines.append("")
            lines.append(f"{'bot':<40}{'seats':>8}  {'win rate [95% CI]':<26}{'lowest':>7}")
            for i, name in enumerate(self.bot_names):
                if self.bot_seats[i]:
                    low = self.bot_low_sum[i] / self.bot_seats[i]
                    lines.append(f"{name[:39]:<40}{int(self.bot_seats[i]):>8}  {rates[name]!s:<26}{low:>7.2f}")
        adv = self.first_player_advantage()
        lines.append("")
        lines.append(
            f"{advantage}: {100 * adv.value:+.1f} points [{100 * adv.low:+.1f}, {100 * adv.high:+.1f}] over a fair {100 / self.sides:.1f}%"
        )
        ends = ", ".join(f"{k} {v}" for k, v in self.end_counts().items())
        g = max(self.games, 1)
        lines.append(
            f"per game: {self.placements / g:.1f} placements, {self.bonus_placements / g:.2f} bonus placements, "
            f"{self.swaps / g:.2f} swaps; ends: {ends}"
        )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()
