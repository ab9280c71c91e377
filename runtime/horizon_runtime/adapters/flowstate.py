"""FlowState (`flowstate`): IBM's sampling-rate-invariant SSM forecaster through the official `granite-tsfm` package
(import `tsfm_public`, runtime group granite).

Calls, as the model card and the package's own GIFT-Eval predictor do: `FlowStateForPrediction.from_pretrained(dir)`
once, then per call `model(past_values=(batch, time, 1), scale_factor=get_fixed_factor(freq), prediction_length=H,
batch_first=True)`, which returns `prediction_outputs` (batch, H, 1), the library's point forecast (its default
`prediction_type` "mean": the quantile-weighted mean of its nine outputs), and `quantile_outputs` (batch, 9, H, 1)
at the config's levels 0.1 ... 0.9, sorted per step by the library (`torch.quantile` over its quantile heads).

Time scale. FlowState's S5 encoder and functional basis decoder take a `scale_factor` that says how fast the series
is sampled; the package maps a pandas-style frequency onto it with `tsfm_public.models.flowstate.utils.utils.
get_fixed_factor(freq, domain=None)` (24 / the steps of the series' reference cycle). Horizon's frequencies map onto
the aliases that function knows: H -> "H" (1), D -> "D" (24/365: without a domain a day belongs to the yearly cycle),
W -> "W", MS -> "M" (2), Q -> "Q" (6), Y -> "A" (6). The domain (which would make D weekly) is not known here and is
left at the library's default.

Context and horizon, by the library (`FlowStateForPrediction.forward`): one decoder patch covers
int(decoder_patch_len / scale) steps (24 at scale 1); a longer horizon is decoded by contiguous patch masking, which
appends H - patch masked steps and keeps the last min(16384, context_length / scale) - (H - patch) values (2048 at
hourly data with the published context 2048, 1024 monthly, 341 yearly, less the masked steps). The catalog's
max_context 16384 is the library's hard cap (daily data reaches it); it cuts the rest itself. The catalog caps the
horizon at 256, so yearly and quarterly data (scale 6: patch 4) still keep 341 - 252 = 89 values.
Missing values (NaN) are masked by the model (`with_missing` in the published config). No covariates: FlowState is
univariate (catalog flags all false; the worker drops them with a warning).

Batches: series of one length form one call (granite_common.groups_by_length): the encoder runs over every step, so
padding a shorter series would change it. Float32 on every device (9M parameters; its S5 kernels are complex-valued).
"""

from __future__ import annotations

import logging

import numpy as np

from ..torch_device import torch_device
from .base import Adapter, Prediction, SeriesInput
from .granite_common import fixed_levels_prediction, groups_by_length, load_pretrained, stacked_targets

log = logging.getLogger(__name__)

# Horizon's freq -> the alias tsfm_public's get_fixed_factor knows (it has no "MS" or "Y")
LIBRARY_FREQ = {"H": "H", "D": "D", "W": "W", "MS": "M", "Q": "Q", "Y": "A"}
COARSEST_SCALE = 6.0  # get_fixed_factor("Q") and ("A"): the fewest values kept for a long horizon


class FlowStateAdapter(Adapter):
    def load(self) -> None:
        directory = self.weights_directory()  # a 424 before the slow library import
        from tsfm_public import FlowStateForPrediction
        from tsfm_public.models.flowstate.utils.utils import get_fixed_factor

        device = torch_device()
        self.model = load_pretrained(FlowStateForPrediction, directory).to(device)
        self.device = device
        self.scale = {freq: float(get_fixed_factor(alias)) for freq, alias in LIBRARY_FREQ.items()}
        self.levels = tuple(float(q) for q in self.model.config.quantiles)
        config, horizon = self.model.config, self.caps.max_horizon
        kept = int(config.context_length / COARSEST_SCALE) - (horizon - int(config.decoder_patch_len / COARSEST_SCALE + 1e-6))
        if kept < 1:
            log.warning(
                "%s/%s: context_length %d leaves no context for horizon %d at yearly/quarterly data",
                self.model_id, self.size, config.context_length, horizon,
            )
        self.predict_batch([SeriesInput(np.arange(1.0, 65.0), {}, {}, {})], 1, (0.5,), "D")  # warm-up

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        import torch

        out: list[Prediction | None] = [None] * len(series)
        for members in groups_by_length(series).values():
            with torch.inference_mode():
                output = self.model(
                    past_values=stacked_targets(series, members).to(self.device),
                    scale_factor=self.scale[freq],
                    prediction_length=horizon,
                    batch_first=True,
                )
            mean = output.prediction_outputs[..., 0].float().cpu().numpy()  # (batch, H)
            values = output.quantile_outputs[..., 0].float().cpu().numpy()  # (batch, 9, H)
            for row, i in enumerate(members):
                out[i] = fixed_levels_prediction(self.levels, mean[row], values[row], quantiles)
        return out
