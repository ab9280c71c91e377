"""Moirai-2 (`moirai-2`): Salesforce's Moirai-2.0-R through `uni2ts` (`timecopilot-uni2ts` 0.1.3, the
same `uni2ts/model/moirai2` code as official uni2ts 2.0.0 apart from a GluonTS import shim).

Calls: `Moirai2Module.from_pretrained(dir)` once; per predict call a `Moirai2Forecast(module=…,
prediction_length=horizon, context_length=max_context, target_dim=1, past_feat_dynamic_real_dim=k)`
sharing that module (a thin LightningModule wrapper, about 1 ms to build, so one per call and
nothing shared is mutated by concurrent calls), and its documented
`predict(past_target=[…], past_feat_dynamic_real=[…])` -> (series, 9, horizon), quantiles 0.1…0.9.

Context. `context_length` is the catalog's `max_context` (1680, the library's own example; there is
no hard cap: RoPE tables grow on demand). `predict` cuts every series to that length and left-pads
shorter ones to it (repeating the first value, `past_is_pad` marks the padding), so a series gets the
same padding alone and in any batch: its prediction does not depend on the other series (bitwise
equal alone and in a batch in the tests, on CPU). NaN targets are handled by `predict` (observed mask
False; its `CausalMeanImputation`, applied to a one-column array, sets the value to 0 — measured). The control plane already cut the series to
the request's `context`.

Horizon: any; beyond `num_predict_token × patch_size` (4 × 16 = 64 steps) the library decodes
recursively (its "recursive multi-quantile decoding").

Covariates, decided from the code (uni2ts/model/moirai2/forecast.py):
- past-only (`past_feat_dynamic_real`): USED. `Moirai2Forecast._convert` appends each covariate as
  extra variate tokens with the target's time ids and sample ids; `Moirai2Module.forward` scales each
  variate on its own (`PackedStdScaler` per sample/variate id) and its causal attention
  (`packed_causal_attention_mask`) lets the target's last context token, which emits the forecast,
  attend them; changing a covariate's history changes the forecast (tests). Every history variable
  the control plane sends (catalog `covariates.past`) goes in, in the order received. Library defect
  worked around: `predict` pads a short covariate block with `np.full((pad, 1), first_row)`, which
  raises for 2+ covariates whenever the block has at most `context_length` rows ("could not broadcast
  input array from shape (2,) into shape (1380,1)"), i.e. always here, the control plane having cut
  the series to at most max_context = context_length. For 2+ covariates the adapter therefore
  left-pads the block itself with its first row (the library's own rule, applied per column) to
  context_length + 1 rows,
  which `predict` then cuts to the last context_length rows. With one covariate the library pads it
  itself; tests check that the adapter's padding gives the same numbers there. `predict` stacks the
  blocks of one call into one array, so series are grouped by their number of covariates, one call
  per group.
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

Precision: float32 on every device. `predict` builds float32 input tensors itself, so a bf16 module
would fail on the dtype mismatch; the model is small (11.4M parameters).
"""

from __future__ import annotations

import numpy as np

from ..quantiles import interpolate_levels
from ..torch_device import torch_device
from .base import Adapter, Prediction, SeriesInput


def padded_covariates(block: np.ndarray, context_length: int) -> np.ndarray:
    """The (time, k) covariate block as `Moirai2Forecast.predict` can take it.

    One covariate: unchanged (the library pads it). Two or more: left-padded with the first row to
    context_length + 1 rows when shorter, the library's padding rule per column; `predict` keeps the
    last context_length rows. Blocks longer than context_length are left to `predict`, which cuts them.
    """
    block = np.array(block, dtype=np.float64, copy=True)  # predict's imputation writes into its input
    if block.shape[1] < 2 or block.shape[0] > context_length:
        return block
    pad = np.repeat(block[:1], context_length + 1 - block.shape[0], axis=0)
    return np.concatenate([pad, block], axis=0)


def covariate_block(series: SeriesInput) -> np.ndarray | None:
    """The series' past covariates as a (time, k) array, columns in the order received; None without any."""
    if not series.past_covariates:
        return None
    return np.column_stack([np.asarray(values, dtype=np.float64) for values in series.past_covariates.values()])


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
        blocks = [covariate_block(one) for one in series]
        groups: dict[int, list[int]] = {}
        for i, block in enumerate(blocks):
            groups.setdefault(0 if block is None else block.shape[1], []).append(i)

        values: list[np.ndarray | None] = [None] * len(series)
        for k, members in groups.items():
            targets = [np.array(series[i].target, dtype=np.float64, copy=True) for i in members]
            covariates = [padded_covariates(blocks[i], self.context_length) for i in members] if k else None
            out = self.forecaster(horizon, k).predict(past_target=targets, past_feat_dynamic_real=covariates)
            for row, i in enumerate(members):
                values[i] = out[row]

        return [fixed_levels_prediction(self.levels, value, quantiles) for value in values]
