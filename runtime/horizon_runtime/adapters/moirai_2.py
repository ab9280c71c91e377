"""Moirai-2 (`moirai-2`): Salesforce's Moirai-2.0-R through `uni2ts` (`timecopilot-uni2ts` 0.1.3, the
same `uni2ts/model/moirai2` code as official uni2ts 2.0.0 apart from a GluonTS import shim).

Calls, as the uni2ts README does: `Moirai2Module.from_pretrained(dir)` once; per predict call a
`Moirai2Forecast(module=…, prediction_length=horizon, context_length=max_context, target_dim=1,
past_feat_dynamic_real_dim=k)` sharing that module (a thin LightningModule wrapper, about 1 ms to build, so
one per call and nothing shared is mutated by concurrent calls), its `create_predictor(batch_size)` and the
predictor's `predict` on a GluonTS `ListDataset` of the series -> one QuantileForecast (0.1 … 0.9) each.

Context. `context_length` is the catalog's `max_context` (1680, the README's; there is no hard cap: RoPE
tables grow on demand). The predictor's own transforms mark missing values (NaN) unobserved and impute
them causally (`CausalMeanValueImputation`: the mean of the values before), and its instance splitter cuts
every series to that length and left-pads shorter ones with unobserved zeros (`past_is_pad`), so a series
gets the same padding alone and in any batch: its prediction does not depend on the other series. The
control plane already cut the series to the request's `context`.
Not `Moirai2Forecast.predict(past_target=…)`, the library's numpy shortcut: it pads with copies of the
first value marked observed, so the left padding inside a series' first, partly filled 16-step patch
counted as data (3-11% from the README path on the tiny checkpoint), sets missing values to 0 instead of
the causal mean, and fails on two or more past covariates ("could not broadcast input array from shape
(2,) into shape (1380,1)").

Horizon: any; beyond `num_predict_token × patch_size` (4 × 16 = 64 steps) the library decodes
recursively (its "recursive multi-quantile decoding").

Covariates, decided from the code (uni2ts/model/moirai2/forecast.py):
- past-only (`past_feat_dynamic_real`, one row per covariate): USED. `Moirai2Forecast._convert` appends
  each covariate as extra variate tokens with the target's time ids and sample ids; `Moirai2Module.forward`
  scales each variate on its own (`PackedStdScaler` per sample/variate id) and its causal attention
  (`packed_causal_attention_mask`) lets the target's last context token, which emits the forecast,
  attend them; changing a covariate's history changes the forecast (tests). Every history variable
  the control plane sends (catalog `covariates.past`) goes in, in the order received. The predictor
  stacks the series of one call, so series are grouped by their number of covariates, one call per group.
- known-future (`feat_dynamic_real`): NOT used (catalog `covariates.future` false; the control plane
  drops the future values with a warning and still sends their history as past covariates).
  `predict` cuts every field, this one included, to `context_length` rows ("pad or slice context
  data"), so the future part never reaches `_convert`, which then builds mismatched token counts:
  `RuntimeError: The size of tensor a (212) must match the size of tensor b (214)` (tiny checkpoint,
  horizon 24). Through `forward` directly (or the GluonTS predictor) the future values do enter as
  tokens, but their time ids are later than the last context token's, so the causal mask hides them
  from the token that emits the first 64 steps; there they act only through the covariate's own
  mean/std (reordering the future values leaves steps 0-63 bit-identical, measured), and only the
  recursively decoded steps beyond 64 see them. A third-party report (SalesforceAIResearch/uni2ts
  issue #224) also finds accuracy dropping with `feat_dynamic_real`.
- static: no input in Moirai-2 (catalog `covariates.static` false).
The worker drops the kinds the catalog marks unused (with a warning) before the adapter sees them.

`mean` is the median: Moirai-2 outputs quantiles only, no point forecast. Each step's nine outputs
are sorted (a random or real model can cross them), `mean` is the sorted 0.5 row, so it equals the
returned 0.5 quantile; other levels are interpolated linearly between the trained ones, levels
outside 0.1-0.9 get the nearest one's values with a warning (`quantiles.interpolate_levels`).

Precision: float32 on every device. The predictor's transforms build float32 inputs, so a bf16 module
would fail on the dtype mismatch; the model is small (11.4M parameters).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..quantiles import interpolate_levels
from ..torch_device import torch_device
from .base import Adapter, Prediction, SeriesInput


START = pd.Period("2001-01-01", freq="D")  # Moirai-2 takes no dates: any start and freq serve the dataset


def dataset_entry(series: SeriesInput) -> dict:
    """The series as a GluonTS data entry: `target` (NaN where missing) and its past covariates as
    `past_feat_dynamic_real` (k, time), rows in the order received."""
    entry = {"start": START, "target": series.target}
    if series.past_covariates:
        entry["past_feat_dynamic_real"] = np.stack([np.asarray(v, dtype=np.float64) for v in series.past_covariates.values()])
    return entry


def fixed_levels_prediction(trained, values: np.ndarray, quantiles: tuple[float, ...]) -> Prediction:
    """values (len(trained), horizon): sorted per step; mean = the sorted 0.5 row; requested levels interpolated."""
    ordered = np.sort(np.asarray(values, dtype=np.float64), axis=0)
    rows, clamped = interpolate_levels(trained, ordered, quantiles)
    median = ordered[list(trained).index(0.5)]
    return Prediction(
        mean=np.ascontiguousarray(median),
        quantiles=np.ascontiguousarray(rows),
        warnings=clamped,
    )


class Moirai2Adapter(Adapter):
    def load(self) -> None:
        directory = self.weights_directory()  # a 424 before the slow library import
        from uni2ts.model.moirai2 import Moirai2Module

        device = torch_device()
        self.module = Moirai2Module.from_pretrained(str(directory)).to(device).eval()
        self.device = device
        self.context_length = self.caps.max_context
        self.levels = tuple(float(q) for q in self.module.quantile_levels)
        self.predict_batch([SeriesInput(np.arange(1.0, 33.0), {}, {}, {})], 1, (0.5,), "D")  # warm-up

    def forecaster(self, horizon: int, covariates: int):
        """The Moirai2Forecast for this horizon and number of past covariates (all share the module)."""
        from uni2ts.model.moirai2 import Moirai2Forecast

        return Moirai2Forecast(
            module=self.module,
            prediction_length=horizon,
            context_length=self.context_length,
            target_dim=1,
            feat_dynamic_real_dim=0,
            past_feat_dynamic_real_dim=covariates,
        ).to(self.device)

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        from gluonts.dataset.common import ListDataset

        groups: dict[int, list[int]] = {}
        for i, one in enumerate(series):
            groups.setdefault(len(one.past_covariates), []).append(i)

        values: list[np.ndarray | None] = [None] * len(series)
        for k, members in groups.items():
            predictor = self.forecaster(horizon, k).create_predictor(batch_size=len(members), device=self.device)
            dataset = ListDataset([dataset_entry(series[i]) for i in members], freq="D")
            for i, forecast in zip(members, predictor.predict(dataset), strict=True):
                values[i] = np.stack([forecast.quantile(q) for q in self.levels])  # (9, horizon)

        return [fixed_levels_prediction(self.levels, value, quantiles) for value in values]
