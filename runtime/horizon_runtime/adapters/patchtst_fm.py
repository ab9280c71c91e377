"""PatchTST-FM (`patchtst-fm`): IBM's patched-transformer foundation model through the official `granite-tsfm` package
(import `tsfm_public`, runtime group granite); sizes r1 (transformer blocks) and r2 (conformer blocks, half-overlapping
patches), one adapter: the checkpoint's config says which.

Calls, as the model card does: `PatchTSTFMForPrediction.from_pretrained(dir)` once, then per call
`model(past_values=(batch, time, 1), prediction_length=H)`, the package's tensor path (`forecast_single_step_fast`,
the one its forecasting pipeline takes). It returns `quantile_outputs` (batch, 99, H, 1) at the config's levels
0.01 ... 0.99 (monotone by construction: a cumulative sum of softplus steps) and `prediction_outputs` (batch, H, 1),
the library's point forecast: the mean, integrated from the quantile function (trapezoid over the 99 levels plus
the tails). Requested levels on the 0.01 grid are the model's outputs exactly; others are linear between two
neighbours; levels below 0.01 or above 0.99 get the nearest with a warning.

Context and horizon, by the library: the model's window (config `context_length`, 8192 published) holds the history
and the forecast together; the forecast part is max(H, d_patch * max(pretrain_mask_cont, 2)) steps (128 published)
and the library keeps the last 8192 minus that of the history (the catalog's max_context 8064 = 8192 - 128), fills
missing values (NaN, masked) and the left padding with the mean of the history it got, and prunes the padded
patches before the transformer. The catalog caps the horizon at 1024 (the horizon is decoded in one pass).
No covariates: channels are forecast independently (catalog flags all false; the worker drops them with a warning).

Batches: series of one length form one call (granite_common.groups_by_length): the pruned length and the fill mean
come from the tensor, so padding a shorter series would change it. On CUDA the library runs its backbone under
bfloat16 autocast itself; on the CPU in float32.
"""

from __future__ import annotations

import numpy as np

from ..torch_device import torch_device
from .base import Adapter, Prediction, SeriesInput
from .granite_common import fixed_levels_prediction, groups_by_length, load_pretrained, stacked_targets


class PatchTSTFMAdapter(Adapter):
    def load(self) -> None:
        directory = self.weights_directory()  # a 424 before the slow library import
        from tsfm_public import PatchTSTFMForPrediction

        device = torch_device()
        self.model = load_pretrained(PatchTSTFMForPrediction, directory).to(device)
        self.device = device
        self.levels = tuple(float(q) for q in self.model.config.quantile_levels)
        self.predict_batch([SeriesInput(np.arange(1.0, 65.0), {}, {}, {})], 1, (0.5,), "D")  # warm-up

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        import torch

        out: list[Prediction | None] = [None] * len(series)
        for members in groups_by_length(series).values():
            with torch.inference_mode():
                output = self.model(past_values=stacked_targets(series, members).to(self.device), prediction_length=horizon)
            mean = output.prediction_outputs[..., 0].float().cpu().numpy()  # (batch, H)
            values = output.quantile_outputs[..., 0].float().cpu().numpy()  # (batch, 99, H)
            for row, i in enumerate(members):
                out[i] = fixed_levels_prediction(self.levels, mean[row], values[row], quantiles)
        return out
