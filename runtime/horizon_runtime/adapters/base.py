"""The one interface every model adapter implements."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

import numpy as np

from ..catalog import Catalog, CatalogModel


@dataclass(frozen=True)
class SeriesInput:
    target: np.ndarray  # float64, NaN where the control plane sent null
    past_covariates: dict[str, np.ndarray]  # name -> len(target) values (NaN for null)
    future_covariates: dict[str, np.ndarray]  # name -> horizon values
    static_covariates: dict[str, float]


@dataclass(frozen=True)
class Prediction:
    mean: np.ndarray  # (horizon,) finite
    quantiles: np.ndarray  # (len(levels), horizon) finite, levels ascending, non-decreasing along axis 0
    warnings: tuple[str, ...] = ()


class Adapter(ABC):
    """Serves one (model id, size). `load` and `predict_batch` run in a worker thread."""

    device = "cpu"

    def __init__(self, model: CatalogModel, size: str, catalog: Catalog):
        self.model_id = model.id
        self.size = size
        self.catalog = catalog

    def load(self) -> None:
        """Makes the first prediction fast (weights, compilation, warm-up). Default: nothing to do."""

    @abstractmethod
    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        """One prediction per input series, in order. `quantiles` are ascending and distinct.

        A series' prediction must not depend on the other series of the batch.
        """
