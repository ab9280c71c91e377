"""What the Chronos adapters share: loading a checkpoint with the official `chronos` pipeline, turning the
pipeline's (quantiles, mean) output into Predictions, and its `embed` output into Embeddings.

Embeddings (POST /embed): each pipeline's `embed` gives a series one encoder row per patch of its values (Chronos-T5:
per value) after left-padding the batch to its longest series, the patches right-aligned (the first one of a series
left-padded with NaN), plus the model's special tokens ([REG], EOS, Chronos-2's masked output patch) at the end. A
series' own rows are the last `ceil(n / patch_size)` before those tokens, whatever the batch. Its `vector` is the
mean of its rows that hold an observed value, taken in float64 and stored as float32; with patches asked, its rows and
the [REG] / EOS token's row (`summary`). A patch of missing values only is masked by the model: its row is no
embedding of anything (and differs with the batch's padding), so it is NaN (null on the wire) and not averaged."""

from __future__ import annotations

import logging
from typing import ClassVar

import numpy as np
import torch

from ..quantiles import make_monotone, outside_trained_levels  # noqa: F401 (outside_trained_levels: re-exported)
from ..torch_device import torch_device, torch_dtype
from .base import Adapter, Embedding, Prediction, SeriesInput

log = logging.getLogger(__name__)


class ChronosAdapter(Adapter):
    """Loads HORIZON_MODEL_DIR/<id>/<size>/ (or the HF cache entry) with `BaseChronosPipeline.from_pretrained`,
    which picks the pipeline class from the checkpoint's config."""

    pipeline_class: ClassVar[str]  # the class the checkpoint must load as, e.g. "ChronosBoltPipeline"

    def load(self) -> None:
        from chronos import BaseChronosPipeline
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()  # a "Loading weights" bar per load in the worker's log
        caps = self.caps
        directory = self.weights_directory()
        device = torch_device()
        pipeline = BaseChronosPipeline.from_pretrained(str(directory), device_map=device, dtype=torch_dtype(device))
        if type(pipeline).__name__ != self.pipeline_class:
            raise ValueError(
                f"{directory} holds a {type(pipeline).__name__} checkpoint; '{self.model_id}' needs a {self.pipeline_class}"
            )
        self.pipeline = pipeline
        self.device = device
        # The catalog caps should be the checkpoint's own limits; beyond them the library truncates
        # the context or predicts autoregressively, which an operator should know about.
        if caps.max_context > pipeline.model_context_length or caps.max_horizon > pipeline.model_prediction_length:
            log.warning(
                "%s/%s: catalog caps (context %d, horizon %d) exceed the checkpoint's (%d, %d)",
                self.model_id, self.size, caps.max_context, caps.max_horizon,
                pipeline.model_context_length, pipeline.model_prediction_length,
            )
        self.prepare()
        self.predict_batch([SeriesInput(np.arange(1.0, 33.0), {}, {}, {})], 1, (0.5,), "D")  # warm-up


    def prepare(self) -> None:
        """Runs once the pipeline is loaded, before the warm-up prediction."""


def to_predictions(quantiles, mean, warnings: list[tuple[str, ...]]) -> list[Prediction]:
    """quantiles (series, horizon, levels) and mean (series, horizon), as tensors or arrays (or lists of
    per-series ones), with each series' warnings. The levels are sorted at each step: models that predict
    quantiles directly can cross them (see quantiles.make_monotone). One float64 conversion, transpose and
    sort for the whole batch; each Prediction holds C-contiguous views of those arrays (the response
    encoder needs C order)."""
    q, m = _float64_batch(quantiles), np.ascontiguousarray(_float64_batch(mean))
    # (series, horizon, levels) -> (levels, series, horizon), sorted over the levels, -> (series, levels, horizon)
    rows = np.ascontiguousarray(make_monotone(q.transpose(2, 0, 1)).transpose(1, 0, 2))
    return [Prediction(mean=m[i], quantiles=rows[i], warnings=w) for i, w in enumerate(warnings)]


def _float64_batch(values) -> np.ndarray:
    if isinstance(values, (list, tuple)):
        if all(isinstance(x, torch.Tensor) for x in values):
            values = torch.stack(values).cpu()  # one tensor -> numpy conversion, not one per series
        else:
            return np.stack([np.asarray(x, dtype=np.float64) for x in values])
    return np.asarray(values, dtype=np.float64)


def patches_observed(target: np.ndarray, patch_size: int) -> np.ndarray:
    """Per patch of `target` cut right-aligned into patches of `patch_size` values (the first left-padded, as the
    Chronos models patch), oldest first: whether it holds an observed (not NaN) value."""
    count = -(-len(target) // patch_size)
    padded = np.concatenate([np.full(count * patch_size - len(target), np.nan), target])
    return np.isfinite(padded.reshape(count, patch_size)).any(axis=1)


def float32_rows(embeddings) -> np.ndarray:
    """A pipeline's embedding tensor (float32 on the CPU, bfloat16 on CUDA) as float32 numpy values."""
    return embeddings.detach().to(torch.float32).cpu().numpy()


def series_embedding(rows: np.ndarray, observed: np.ndarray, summary: np.ndarray | None, patches: bool) -> Embedding:
    """A series' Embedding from its own rows (patches, dimension) and which of them hold an observed value."""
    vector = rows[observed].astype(np.float64).mean(axis=0).astype(np.float32)
    if not patches:
        return Embedding(vector)
    own = np.array(rows, dtype=np.float32)  # a copy: rows of masked patches become NaN
    own[~observed] = np.nan
    return Embedding(vector, own, None if summary is None else np.ascontiguousarray(summary))
