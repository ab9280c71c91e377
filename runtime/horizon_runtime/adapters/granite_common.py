"""What the two IBM granite-tsfm adapters (flowstate.py, patchtst_fm.py) share: series grouped by length, and the
library's fixed quantile outputs turned into a Prediction.

Both models take a batch as one (batch, time, 1) tensor, so the series of one library call must have the same
length. Padding them to a common length would change the numbers (FlowState's S5 encoder runs over the padded
steps; PatchTST-FM sizes its pruned context and its fill mean from the tensor it gets), so each call holds the
series of one length: a series' forecast is the one it gets alone, whatever else is in the batch. A panel of
equal-length series (the common case, and what the control plane's context cut makes of long series) is one call.
"""

from __future__ import annotations

import numpy as np

from ..quantiles import interpolate_levels
from .base import Prediction, SeriesInput


def load_pretrained(model_class, directory):
    """`model_class.from_pretrained(directory)` in eval mode, without transformers' "Loading weights" progress bar
    (it would reach the control plane's log as a warning line per update; this worker serves only granite models)."""
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    return model_class.from_pretrained(str(directory)).eval()


def groups_by_length(series: list[SeriesInput]) -> dict[int, list[int]]:
    """Series positions per target length, in order of first appearance."""
    groups: dict[int, list[int]] = {}
    for i, one in enumerate(series):
        groups.setdefault(len(one.target), []).append(i)
    return groups


def stacked_targets(series: list[SeriesInput], members: list[int]):
    """The members' targets as one float32 (batch, time, 1) tensor, NaN where missing (both models mask NaN)."""
    import torch

    values = np.stack([series[i].target for i in members]).astype(np.float32)
    return torch.from_numpy(values).unsqueeze(-1)


def fixed_levels_prediction(trained, mean: np.ndarray, values: np.ndarray, quantiles: tuple[float, ...]) -> Prediction:
    """The library's point forecast `mean` (horizon,) and its quantile outputs `values` (len(trained), horizon) at the
    requested levels: linear between trained levels, the nearest one outside them (with a warning), sorted per step."""
    rows, warnings = interpolate_levels(trained, np.asarray(values, dtype=np.float64), quantiles)
    return Prediction(
        mean=np.ascontiguousarray(mean, dtype=np.float64),
        quantiles=np.ascontiguousarray(rows),
        warnings=warnings,
    )
