"""History preparation and quantile helpers."""

from __future__ import annotations

import numpy as np
import pytest

from horizon_runtime.adapters.statistical import fill_missing
from horizon_runtime.quantiles import interval_level, make_monotone, quantile_key

NAN = np.nan


@pytest.mark.parametrize(
    "target, expected",
    [
        ([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]),
        ([NAN, NAN, 1.0, 2.0], [1.0, 2.0]),  # leading nulls dropped
        ([1.0, NAN, NAN, 4.0], [1.0, 2.0, 3.0, 4.0]),  # interior nulls interpolated
        ([1.0, 2.0, NAN, NAN], [1.0, 2.0, 2.0, 2.0]),  # trailing nulls forward-filled
        ([NAN, 5.0, NAN, 7.0, NAN], [5.0, 6.0, 7.0, 7.0]),
        ([NAN, 3.0], [3.0]),
    ],
)
def test_fill_missing(target, expected):
    target = np.array(target)
    original = target.copy()
    assert fill_missing(target).tolist() == expected
    np.testing.assert_array_equal(target, original)  # the input is not modified


@pytest.mark.parametrize(
    "q, key", [(0.1, "0.1"), (0.5, "0.5"), (0.05, "0.05"), (0.975, "0.975"), (1 / 3, "0.3333333333333333")]
)
def test_quantile_key_is_repr(q, key):
    assert quantile_key(q) == key


@pytest.mark.parametrize("q, level", [(0.1, 80.0), (0.9, 80.0), (0.5, 0.0), (0.05, 90.0), (0.3, 40.0), (0.975, 95.0)])
def test_interval_level(q, level):
    assert interval_level(q) == level


@pytest.mark.parametrize("q", [0.9999999999999999, 1e-16, 1 - 1e-12])
def test_interval_level_never_reaches_100(q):
    assert interval_level(q) == 99.9999999



def test_make_monotone_sorts_each_step_across_levels():
    rows = np.array([[1.0, 5.0], [2.0, 4.0], [3.0, 3.0]])
    np.testing.assert_array_equal(make_monotone(rows), [[1.0, 3.0], [2.0, 4.0], [3.0, 5.0]])
