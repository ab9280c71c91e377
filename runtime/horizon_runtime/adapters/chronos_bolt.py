"""Chronos-Bolt (`chronos-bolt`): the official ChronosBoltPipeline.

The model predicts its trained quantile levels (0.1 … 0.9) directly in one forward pass: no sampling,
so a batch is deterministic and a series' forecast does not depend on its neighbours (shorter series
are left-padded with NaN, which the model masks, as it masks missing values). `mean` is the pipeline's
point forecast, the median (0.5) output. Other levels are interpolated by the pipeline (torch.quantile
over the trained levels); levels below 0.1 or above 0.9 get the 0.1 or 0.9 values, with a warning.
"""

from __future__ import annotations

import torch

from .base import Prediction, SeriesInput
from .chronos_common import ChronosAdapter, outside_trained_levels, to_predictions


class ChronosBoltAdapter(ChronosAdapter):
    pipeline_class = "ChronosBoltPipeline"

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        contexts = [torch.from_numpy(one.target) for one in series]
        q, mean = self.pipeline.predict_quantiles(contexts, prediction_length=horizon, quantile_levels=list(quantiles))
        warnings = outside_trained_levels(quantiles, self.pipeline.quantiles)
        return to_predictions(q, mean, [warnings] * len(series))
