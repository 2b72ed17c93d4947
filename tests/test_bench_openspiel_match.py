"""benches/openspiel_match.py: its interval of the mean return stays within what a mean of
returns in [-1, 1] can be."""

from __future__ import annotations

import pytest
from conftest import ROOT, load_script


def test_the_interval_of_the_mean_return_is_clipped_to_plus_minus_one() -> None:
    pytest.importorskip("pyspiel")
    bench = load_script("genial_bench_openspiel_match", ROOT / "benches" / "openspiel_match.py")
    # Four games, three wins: the normal interval would reach +1.98.
    mean, low, high = bench.mean_interval([1.0, 1.0, 1.0, -1.0])
    assert mean == 0.5 and -1.0 <= low < mean < high == 1.0
    assert bench.mean_interval([-1.0, -1.0, 1.0, -1.0])[1] == -1.0
    # Where it fits, the interval is the normal one, untouched.
    mean, low, high = bench.mean_interval([1.0, -1.0] * 50)
    assert mean == 0.0 and high == pytest.approx(0.197, abs=1e-3) and low == -high
    # One game says nothing about the spread: the whole range.
    assert bench.mean_interval([1.0]) == (1.0, -1.0, 1.0)
