"""TimesFM 3.0 (`timesfm-3`): the official `timesfm` package (3.0.2), import `timesfm3`.

Loading: `TimesFM3Forecaster.from_pretrained(dir, device=..., per_core_batch_size=..., local_files_only=True)`;
the checkpoint's `config.json` describes the whole architecture (`TimesFM3Torch` is a
PyTorchModelHubMixin with every size as an init argument), so tiny test checkpoints load like the
published one. Its loader (huggingface_hub) ignores missing tensors, so `load()` also checks that
`model.safetensors` holds every parameter of the model that `config.json` describes. The weights are
under the TimesFM Non-Commercial License v1.0: the control plane serves the id only with
`HORIZON_ACCEPT_LICENSES` naming it.

Forecasting: `predict_batch(contexts, horizon, past_only_covariates, past_future_covariates,
return_quantiles=True, ...)` with the settings of the TimesFM 3 README example, which runs
`TimesFM3Evaluator`'s defaults with `use_symmetric_averaging=False` (`PREDICT_FLAGS`: non-negative
output for non-negative contexts, sorted quantiles, no z-norm, no future padding). One pass decodes the whole horizon; the context is truncated by the library
to 15360 values (`_MAX_CONTEXT_LENGTH`, the catalog cap).

Covariates, natively (catalog: past and future, not static):
- a variable with known future values (`future_covariates[name]`) is a past-and-future covariate,
  its history and future joined: `(n_pf, T + H)`;
- a variable with history only is a past-only covariate: `(n_po, T)`;
- static covariates have no input in TimesFM 3 (the worker answers "static covariates ignored").
Variables keep the request's order. The library stacks the covariates of one forward pass into one
array and gives a series without covariates zeros in their place when a neighbour has some, which
would change its forecast; so a batch is split by covariate schema (past-only count, past-and-future
count) and each schema runs in its own calls. Inside a schema the series are sorted by length and cut
into calls of at most `VALUES_PER_CALL` values; a call pads to its longest series (masked), which
changes a series' numbers only by float32 rounding (measured: 1e-7 relative). Every `predict_batch`
call ends with the library's `gc.collect()` (`try_gc`), which took 0.6 s in a process with the
worker's imports (it holds the GIL); so calls are as few as schemas and the budget allow. More than
31 covariates (32 variates with the
target, `TransformerConfig.max_variates`, which the torch code does not enforce) all go in, with a
warning.

Missing values (null target or covariate values), handled by the library, not here: leading steps
where the target is missing are dropped from the target and every covariate; the remaining gaps of
the target and of each covariate (history and future alike) are interpolated linearly, with the
nearest known value before the first and after the last one; a covariate with no known value at all
becomes 0 throughout.

Output: `ForecastOutput.forecast` (H,) is the median (q0.5) and becomes `mean`; `quantiles` (H, 9)
are q0.1 … q0.9 of the checkpoint: other levels are linear in the level between two of them, and
outside 0.1–0.9 the nearest one's values, with a warning (`quantiles.interpolate_levels`). fp32 on CPU
and CUDA (the library casts inputs to float32 and has no other precision).

Joint ("multivariate": true on a request, `predict_joint`, without covariates): the request's series are the target
variates of one multivariate context `(N, T)`, the library's own multivariate input (`predict_batch` with a 2-D
context), so its cross-variate attention sees them all; shorter series are left-padded with NaN to the longest, which
the library treats as its missing values (leading steps missing in every series dropped, the rest interpolated).
At most 32 series (`max_variates`; the control plane refuses more).

Horizon: the code has no maximum (the horizon is rounded up to the 64-step output patch and all of
it is decoded in one pass, as masked patches after the context). The catalog caps it at 1024: the
context cap 15360 (`_MAX_CONTEXT_LENGTH`) is the 16384 positions of TimesFM 2.5 (`context_limit`;
per shared/research/models.md also the context limit of an earlier TimesFM 3 forecaster) minus 1024,
and 1024 is TimesFM 2.5's horizon limit (continuous quantile head) and Chronos-2's; longer horizons
run, but nothing published says the model was trained for them.
"""

from __future__ import annotations

import logging

import numpy as np

from ..quantiles import interpolate_levels
from ..torch_device import torch_device
from .base import Adapter, Prediction, SeriesInput

log = logging.getLogger(__name__)

PREDICT_FLAGS = {
    "return_quantiles": True,
    "use_symmetric_averaging": False,
    "make_positive": True,
    "sort_quantiles": True,
    "use_znorm": False,
    "padding_mode": "none",
}
MAX_SERIES_PER_CALL = 256  # per_core_batch_size: the forecaster never splits the calls made here
VALUES_PER_CALL = 1 << 18  # padded (context + horizon) x variates per forward pass
MAX_VARIATES = 32  # TransformerConfig.max_variates: target + covariates of one series


def covariate_inputs(series: SeriesInput) -> tuple[np.ndarray | None, np.ndarray | None]:
    """(past-only (n_po, T) or None, past-and-future (n_pf, T + H) or None) of one series, NaN kept."""
    past_only = [values for name, values in series.past_covariates.items() if name not in series.future_covariates]
    past_future = [
        np.concatenate([series.past_covariates[name], future]) for name, future in series.future_covariates.items()
    ]
    return (np.stack(past_only) if past_only else None), (np.stack(past_future) if past_future else None)


def schema(series: SeriesInput) -> tuple[int, int]:
    """(past-only, past-and-future) covariate counts: series of one schema can share a forward pass."""
    return len(series.past_covariates) - len(series.future_covariates), len(series.future_covariates)


def first_present(target: np.ndarray) -> int:
    return int(np.argmax(~np.isnan(target)))


def check_complete(model, weights_file) -> None:
    """huggingface_hub loads the weights with strict=False: a checkpoint whose config.json does not match
    its model.safetensors would leave the missing parameters at their random initial values. Fail instead."""
    from safetensors import safe_open

    with safe_open(str(weights_file), framework="pt") as weights:
        stored = set(weights.keys())
    missing = sorted(set(model.state_dict()) - stored)
    if missing:
        raise ValueError(
            f"{weights_file} lacks {len(missing)} of the model's {len(model.state_dict())} tensors "
            f"(e.g. {', '.join(missing[:3])}): config.json and the weights do not belong together"
        )


class TimesFM3Adapter(Adapter):
    supports_joint = True

    def load(self) -> None:
        from timesfm3 import TimesFM3Forecaster

        caps = self.caps
        device = torch_device()
        directory = self.weights_directory()
        self.forecaster = TimesFM3Forecaster.from_pretrained(
            str(directory), device=device, per_core_batch_size=MAX_SERIES_PER_CALL, local_files_only=True
        )
        check_complete(self.forecaster.model, directory / "model.safetensors")
        self.device = device
        self.levels = list(self.forecaster.config.quantiles)
        if caps.max_context > self.forecaster.global_context:
            log.warning(
                "%s/%s: catalog max_context %d exceeds the forecaster's %d (longer contexts are truncated)",
                self.model_id, self.size, caps.max_context, self.forecaster.global_context,
            )
        self.predict_batch([SeriesInput(np.arange(1.0, 33.0), {}, {}, {})], 1, (0.5,), "D")  # warm-up

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        patch = self.forecaster.config.input_patch_length
        out_patch = self.forecaster.config.output_patch_length
        padded_horizon = -(-horizon // out_patch) * out_patch
        groups: dict[tuple[int, int], list[int]] = {}
        for index, one in enumerate(series):
            groups.setdefault(schema(one), []).append(index)
        outputs: list = [None] * len(series)
        for (past_only, past_future), indices in groups.items():
            variates = 1 + past_only + past_future
            lengths = {i: len(series[i].target) - first_present(series[i].target) for i in indices}
            indices = sorted(indices, key=lambda i: lengths[i])
            start = 0
            while start < len(indices):
                # the call pads to its longest (last) series: grow the call while the budget holds
                end = start + 1
                while end < len(indices) and end - start < MAX_SERIES_PER_CALL:
                    longest = -(-lengths[indices[end]] // patch) * patch
                    if (end + 1 - start) * (longest + padded_horizon) * variates > VALUES_PER_CALL:
                        break
                    end += 1
                chunk = indices[start:end]
                covariates = [covariate_inputs(series[i]) for i in chunk]
                results = self.forecaster.predict_batch(
                    contexts=[series[i].target for i in chunk],
                    horizon=horizon,
                    past_only_covariates=[po for po, _ in covariates] if past_only else None,
                    past_future_covariates=[pf for _, pf in covariates] if past_future else None,
                    **PREDICT_FLAGS,
                )
                for index, result in zip(chunk, results):
                    outputs[index] = result
                start = end
        predictions = []
        for one, result in zip(series, outputs):
            rows, warnings = interpolate_levels(self.levels, np.asarray(result.quantiles).T, quantiles)
            variates = 1 + len(one.past_covariates)
            if variates > MAX_VARIATES:
                too_many = (
                    f"{variates - 1} covariates: with the target that is more than the {MAX_VARIATES} variates "
                    f"timesfm-3's configuration declares (max_variates); all of them were used"
                )
                warnings = (*warnings, too_many)
            predictions.append(
                Prediction(mean=np.ascontiguousarray(result.forecast, dtype=np.float64), quantiles=rows, warnings=warnings)
            )
        return predictions

    def predict_joint(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        if any(one.past_covariates or one.future_covariates for one in series):
            raise ValueError("timesfm-3 forecasts series jointly without covariates")
        longest = max(len(one.target) for one in series)
        context = np.stack([np.concatenate([np.full(longest - len(one.target), np.nan), one.target]) for one in series])
        (result,) = self.forecaster.predict_batch(contexts=[context], horizon=horizon, **PREDICT_FLAGS)
        predictions = []
        for i in range(len(series)):
            rows, warnings = interpolate_levels(self.levels, np.asarray(result.quantiles[i]).T, quantiles)
            predictions.append(Prediction(mean=np.ascontiguousarray(result.forecast[i], dtype=np.float64), quantiles=rows, warnings=warnings))
        return predictions
