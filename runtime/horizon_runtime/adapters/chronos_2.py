"""Chronos-2 (`chronos-2`): the official Chronos2Pipeline, with covariates.

Each series becomes one Chronos-2 task: its target, `past_covariates` (the history of every covariate)
and `future_covariates` (the known future values, for the covariates that have them). Static
covariates have no input of their own in Chronos-2, so each goes in as a covariate that is constant
over the history and the horizon. The model standardises every covariate by its own history, though,
which turns a constant into zeros: a static covariate's presence changes the forecast a little, its
value does not carry information for a single series. The response says so.

All tasks of a batch run through one `predict_quantiles` call with cross-learning off, so every task
only attends to its own target and covariates. The pipeline requires one covariate schema per call
for raw dicts; the tasks are therefore prepared one by one with the library's own
`preprocess.from_list_of_dicts` (what the pipeline itself calls; `from_list_of_tensors` for a series
without covariates, as for a plain array), and prepared tasks of any schema can share a call.

Joint ("multivariate": true on a request, `predict_joint`): the request's tasks go through one `predict_quantiles` call
with `cross_learning=True` and a `batch_size` that holds every task with its covariates, so the library puts them all in
one group: each series attends to the others' targets and covariates (group attention), as the pipeline's documented
cross-learning mode does for the tasks of a call.

Embeddings (`embed_batch`): the pipeline's own `Chronos2Pipeline.embed`, the last encoder layer's rows of a batch's
series (each univariate, so no information is shared between them): per series its context patches of 16 values, the
[REG] token and the masked output patch. chronos_common.py takes each series' own patches and [REG] from them.

`mean` is the pipeline's point forecast, the median (0.5) output. The model predicts 21 levels
(0.01, 0.05, 0.1 … 0.9, 0.95, 0.99); others are interpolated linearly by the pipeline, and levels
outside 0.01-0.99 get the nearest level's values, with a warning.
"""

from __future__ import annotations

import numpy as np
from chronos.chronos2 import preprocess

from .base import Embedding, Prediction, SeriesInput
from .chronos_common import (
    ChronosAdapter, float32_rows, outside_trained_levels, patches_observed, series_embedding, to_predictions,
)

STATIC_PREFIX = "static:"  # names of the constant covariates that carry static covariates

STATIC_WARNING = (
    "static covariates reach chronos-2 as constant covariates; the model standardises each covariate by its "
    "own history, so their values carry no information for a single series"
)


def chronos2_task(series: SeriesInput, horizon: int) -> dict:
    """The Chronos-2 input dict of one series: target, past_covariates, future_covariates."""
    past = dict(series.past_covariates)
    future = dict(series.future_covariates)
    for name, value in series.static_covariates.items():
        past[STATIC_PREFIX + name] = np.full(len(series.target), value)
        future[STATIC_PREFIX + name] = np.full(horizon, value)
    task = {"target": series.target}
    if past:
        task["past_covariates"] = past
    if future:
        task["future_covariates"] = future
    return task


def chronos2_prepared(series: SeriesInput, horizon: int):
    """One series as the pipeline's PreparedInput. Without covariates through `from_list_of_tensors`,
    what the pipeline itself does with a plain 1-D array (and a tenth of the cost of the dict path at
    batch 256); with covariates through `from_list_of_dicts`, one series at a time, so that series of
    different covariate schemas can share a call."""
    if not (series.past_covariates or series.future_covariates or series.static_covariates):
        return preprocess.from_list_of_tensors([series.target], prediction_length=horizon)[0]
    return preprocess.from_list_of_dicts([chronos2_task(series, horizon)], prediction_length=horizon)[0]


def joint_batch_size(series: list[SeriesInput]) -> int:
    """The pipeline's batch_size counts every target and covariate row: this one holds all of a joint request's."""
    return sum(1 + len(one.past_covariates) + len(one.static_covariates) for one in series)


class Chronos2Adapter(ChronosAdapter):
    pipeline_class = "Chronos2Pipeline"
    supports_joint = True
    supports_embed = True
    embed_patches = True

    @property
    def embed_patch_size(self) -> int:
        return self.pipeline.model.chronos_config.input_patch_size

    def embed_batch(self, series: list[SeriesInput], patches: bool) -> list[Embedding]:
        config = self.pipeline.model.chronos_config
        contexts = [one.target[-self.pipeline.model_context_length:] for one in series]  # what embed keeps
        embeddings, _ = self.pipeline.embed(contexts, batch_size=max(256, len(series)))
        tail = 1 + int(config.use_reg_token)  # after the context patches: [REG] (if used), the masked output patch
        out = []
        for context, rows in zip(contexts, embeddings):
            rows = float32_rows(rows[0])  # the series' one variate: (patches + tail, dimension)
            observed = patches_observed(context, config.input_patch_size)
            end = len(rows) - tail
            out.append(series_embedding(rows[end - len(observed):end], observed, rows[end] if config.use_reg_token else None, patches))
        return out

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        return self._predict(series, horizon, quantiles, cross_learning=False)

    def predict_joint(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        return self._predict(series, horizon, quantiles, cross_learning=True)

    def _predict(self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], cross_learning: bool) -> list[Prediction]:
        tasks = [chronos2_prepared(one, horizon) for one in series]
        batch = {"batch_size": max(256, joint_batch_size(series))} if cross_learning else {}
        q, mean = self.pipeline.predict_quantiles(
            tasks, prediction_length=horizon, quantile_levels=list(quantiles), cross_learning=cross_learning, **batch
        )
        clamped = outside_trained_levels(quantiles, self.pipeline.quantiles)
        warnings = [clamped + ((STATIC_WARNING,) if one.static_covariates else ()) for one in series]
        # One target per task: (1, horizon, levels) and (1, horizon) each.
        return to_predictions([task_q[0] for task_q in q], [task_mean[0] for task_mean in mean], warnings)
