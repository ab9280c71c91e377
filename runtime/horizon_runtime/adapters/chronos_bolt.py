"""Chronos-Bolt (`chronos-bolt`): the official ChronosBoltPipeline.

The model predicts its trained quantile levels (0.1 … 0.9) directly in one forward pass: no sampling,
so a batch is deterministic and a series' forecast does not depend on its neighbours (shorter series
are left-padded with NaN, which the model masks, as it masks missing values). `mean` is the pipeline's
point forecast, the median (0.5) output. Other levels are interpolated by the pipeline (torch.quantile
over the trained levels); levels below 0.1 or above 0.9 get the 0.1 or 0.9 values, with a warning.

Embeddings (`embed_batch`): the pipeline's own `ChronosBoltPipeline.embed`, the encoder's rows of a batch's series:
per series its patches of 16 values and the [REG] token (chronos_common.py takes each series' own from them).
"""

from __future__ import annotations

import torch

from .base import Embedding, Prediction, SeriesInput
from .chronos_common import (
    ChronosAdapter, float32_rows, outside_trained_levels, patches_observed, series_embedding, to_predictions,
)


class ChronosBoltAdapter(ChronosAdapter):
    pipeline_class = "ChronosBoltPipeline"
    supports_embed = True
    embed_patches = True

    @property
    def embed_patch_size(self) -> int:
        return self.pipeline.model.chronos_config.input_patch_size

    def embed_batch(self, series: list[SeriesInput], patches: bool) -> list[Embedding]:
        config = self.pipeline.model.chronos_config
        contexts = [one.target[-config.context_length:] for one in series]  # what embed keeps
        embeddings, _ = self.pipeline.embed([torch.from_numpy(context) for context in contexts])
        rows = float32_rows(embeddings)  # (series, longest's patches + [REG], dimension)
        end = rows.shape[1] - int(config.use_reg_token)
        out = []
        for context, own in zip(contexts, rows):
            observed = patches_observed(context, config.input_patch_size)
            out.append(series_embedding(own[end - len(observed):end], observed, own[end] if config.use_reg_token else None, patches))
        return out

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        contexts = [torch.from_numpy(one.target) for one in series]
        q, mean = self.pipeline.predict_quantiles(contexts, prediction_length=horizon, quantile_levels=list(quantiles))
        warnings = outside_trained_levels(quantiles, self.pipeline.quantiles)
        return to_predictions(q, mean, [warnings] * len(series))
