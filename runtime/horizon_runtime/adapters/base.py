"""The one interface every model adapter implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..catalog import Catalog, CatalogModel
from ..weights import weights_directory, weights_layout


@dataclass(frozen=True)
class SeriesInput:
    target: np.ndarray  # float64, NaN where the control plane sent null
    past_covariates: dict[str, np.ndarray]  # name -> len(target) values (NaN for null)
    future_covariates: dict[str, np.ndarray]  # name -> horizon values
    static_covariates: dict[str, float]
    # The dates of the target values and of the horizon's steps (ISO 8601, as the control plane writes
    # them), sent only for models whose catalog entry says "uses_dates" (TabPFN-TS's calendar features).
    index: tuple[str, ...] | None = None
    forecast_index: tuple[str, ...] | None = None
    # (window w, origins K, step s[, refit "none" | "form"]): also forecast the w values from each cutoff
    # n - w - (k-1)·s, k = 1..K (prism's and auto's validation), only for adapters with supports_backtest
    # (docs/runtime-protocol.md)
    backtest: tuple | None = None
    # also answer the in-sample one-step-ahead fitted values and their intervals over the whole history
    # (anomaly detection from one fit), only for adapters with supports_in_sample (docs/runtime-protocol.md)
    in_sample: bool = False


@dataclass(frozen=True)
class Prediction:
    mean: np.ndarray  # (horizon,) finite
    quantiles: np.ndarray  # (len(levels), horizon) finite, levels ascending, non-decreasing along axis 0
    warnings: tuple[str, ...] = ()
    # with SeriesInput.backtest: per origin k = 1..K, (mean (w,), quantiles (len(levels), w)), like mean/quantiles
    backtest: tuple[tuple[np.ndarray, np.ndarray], ...] = ()
    # with SeriesInput.in_sample: (fitted (len(target),), quantiles (len(levels), len(target))), NaN where the
    # model gives no fitted value (naive's first, seasonal naive's first season, leading missing values)
    in_sample: tuple[np.ndarray, np.ndarray] | None = None
    # with a request's "samples": N, the library's own sample paths (N, horizon), finite
    samples: np.ndarray | None = None


@dataclass(frozen=True)
class Embedding:
    """One series' encoder embeddings (POST /embed, docs/runtime-protocol.md), float32 values."""

    vector: np.ndarray  # (dimension,): the series' own vector
    # with "granularity": "patch": one row per patch of the series' values, oldest first (patches, dimension); NaN
    # rows for patches without an observed value (the model masks them: their rows embed nothing)
    patches: np.ndarray | None = None
    # with "granularity": "patch": the model's summary token ([REG], EOS) where it has one, (dimension,)
    summary: np.ndarray | None = None


class Adapter(ABC):
    """Serves one (model id, size). `load` and `predict_batch` run in a worker thread."""

    device = "cpu"
    # One batch of this model at a time, the series arriving meanwhile going as the next batch
    # (batcher.py): right for a network on one device (every adapter here but the statistical ones).
    one_batch_at_a_time = True
    # whether predict_batch answers SeriesInput.backtest (the statistical adapters); others get a 400
    supports_backtest = False
    # whether predict_batch answers SeriesInput.in_sample (the statistical adapters); others get a 400
    supports_in_sample = False
    # whether predict_joint forecasts a request's series jointly with the library's own multivariate mode
    supports_joint = False
    # whether sample_paths draws sample paths with the library's own sampling
    supports_samples = False
    # whether embed_batch gives encoder embeddings with the library's own embedding path; embed_patches: also one
    # vector per patch of embed_patch_size values (docs/runtime-protocol.md, POST /embed)
    supports_embed = False
    embed_patches = False
    embed_patch_size = 0

    def __init__(self, model: CatalogModel, size: str, catalog: Catalog):
        self.model_id = model.id
        self.adapter_name = model.adapter
        self.size = size
        self.catalog = catalog

    @property
    def caps(self):
        """This size's catalog entry: max_context, max_horizon, checkpoint."""
        return self.catalog.models[self.model_id].sizes[self.size]

    def weights_directory(self) -> Path:
        """Where this size's checkpoint lies (HORIZON_MODEL_DIR, then the HF cache), or 424 weights_missing."""
        return weights_directory(self.model_id, self.size, self.caps.checkpoint, weights_layout(self.adapter_name), self.caps.revision)

    def load(self) -> None:
        """Makes the first prediction fast (weights, compilation, warm-up). Default: nothing to do."""

    @abstractmethod
    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        """One prediction per input series, in order. `quantiles` are ascending and distinct.

        A series' prediction must not depend on the other series of the batch.
        """

    def predict_joint(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        """One prediction per series of one request, forecast together (a request's "multivariate": true): each
        series' forecast may depend on the others. Only for adapters with supports_joint."""
        raise NotImplementedError

    def sample_paths(
        self, series: list[SeriesInput], horizon: int, paths: int, freq: str, seed: int | None = None
    ) -> list[np.ndarray]:
        """Per series, `paths` sample paths (paths, horizon) drawn with the library's own sampling from a seed derived
        from the series' values and the request's `seed` (None: the values only); as predict_batch, a series' paths
        must not depend on the other series. Only for adapters with supports_samples."""
        raise NotImplementedError

    def embed_batch(self, series: list[SeriesInput], patches: bool) -> list[Embedding]:
        """One Embedding per series, in order, from the library's own embedding path: each with its `vector`, and with
        `patches` its per-patch rows and summary token. As predict_batch, a series' embedding must not depend on the
        other series of the batch. Only for adapters with supports_embed (patches: embed_patches)."""
        raise NotImplementedError(f"{self.model_id} gives no embeddings")
