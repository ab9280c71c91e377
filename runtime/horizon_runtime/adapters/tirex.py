"""TiRex (`tirex`): NX-AI's xLSTM forecaster through the official `tirex-ts` package (import `tirex`).

Loading: the published NX-AI/TiRex repo holds one Lightning `model.ckpt`; it is read with
`TiRexZero.from_pretrained(<absolute path to model.ckpt>, backend="torch", device=...)`. The
documented `tirex.load_model(path)` cannot take our layout: it picks the model class from the first
two parts of the path ("NX-AI/TiRex" -> TiRexZero), so an absolute path such as
/models/tirex/default/model.ckpt raises "Invalid model id"; the class method is the same loader
without that lookup. The `torch` backend runs everywhere (the `cuda` backend needs the optional
`xlstm` kernels, not installed); `TIREX_NO_CUDA=1` is set on the CPU (tirex-ts 1.4.2 only defines it,
nothing reads it yet). Weights stay in the library's float32 (its sLSTM recurrence runs in bfloat16
internally, by design), on the CPU and on CUDA alike. `from_pretrained` prints "Loading weights from
local directory" on stdout; that goes to stderr here (stdout is the worker's READY channel).

Prediction: every series of a micro-batch goes into one `model.forecast(context=[1-D arrays],
prediction_length=horizon, output_type="numpy")` call, which returns quantiles (B, H, 9) at
0.1 … 0.9 and the mean (B, H). The library left-pads the series of a batch with NaN to the longest
one, and then every decode step pads (NaN) or cuts each row to the checkpoint's `train_ctx_len`
(2048 published) anyway (`TiRexZero._forecast_single_step`). So a series always reaches the network as
the same 2048 values, alone or in any batch: the batch padding is exactly the padding the model
applies to a series alone, NaN is masked, and the scaler is per row. Verified bitwise equal alone
and in batches of other lengths (runtime/tests/test_tirex_yug.py), so no extra padding is needed.

Missing values (NaN) are masked by the model, as are leading ones. `mean` is the library's `mean`,
which is its median (0.5) output. Other levels are interpolated linearly between the nine trained
ones (quantiles.interpolate_levels); levels outside 0.1-0.9 get the nearest trained level's values,
with a warning. The levels are sorted at each step (the heads can cross). Horizons beyond one 32-value
patch are decoded autoregressively by the library (the contract caps them at 512). The contract caps
the context at 2016 values (`ForecastModel.max_context_length`), under the 2048 the model pads to.
TiRex takes no covariates; the control plane drops them with a warning (catalog flags all false) and
the worker warns about any sent to /infer directly; this adapter never reads them.

Embeddings (`embed_batch`, one vector per series): tirex-ts' own `tirex.models.embedding.TiRexEmbedding` (what its
classification and regression heads train on), without its `data_augmentation` (whose statistics are standardised
over the batch, so a series' vector would depend on its neighbours): every sLSTM block's hidden states of the series'
patches of 32 values, averaged over the patches, L2-normalised per block, concatenated and layer-normed
(blocks × embedding_dim values). Its constructor loads "NX-AI/TiRex" from the Hub by name, so it is built here
around the model already loaded (`load_model` stood in for while it runs). It averages over the last
ceil(length / 32) patches of the batch's tensor, so series are left-padded with NaN (masked, as the model pads a
series alone) only to the next multiple of 32 and each padded length goes as one call: a series' vector is exactly
the library's for it alone (runtime/tests/test_embeddings.py). The library gives no per-patch vectors (its
`_embed_context` is private): `"granularity": "patch"` is refused for tirex.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
from collections import defaultdict
from unittest import mock

import numpy as np

from ..quantiles import interpolate_levels
from ..torch_device import torch_device
from .base import Adapter, Embedding, Prediction, SeriesInput

log = logging.getLogger(__name__)

CHECKPOINT_FILE = "model.ckpt"  # the published layout (registry.py: WeightsLayout(("model.ckpt",), ()))


class TiRexAdapter(Adapter):
    supports_embed = True

    def load(self) -> None:
        device = torch_device()
        if device == "cpu":
            os.environ["TIREX_NO_CUDA"] = "1"
        from tirex import TiRexZero

        path = (self.weights_directory() / CHECKPOINT_FILE).resolve()
        with contextlib.redirect_stdout(sys.stderr):
            model = TiRexZero.from_pretrained(str(path), backend="torch", device=device)
        self.model = model.eval()
        self.device = device
        self.levels = [float(q) for q in model.config.quantiles]
        caps = self.caps
        if caps.max_context > model.config.train_ctx_len:
            log.warning(
                "%s/%s: catalog max_context %d exceeds the checkpoint's train_ctx_len %d; longer contexts are cut",
                self.model_id, self.size, caps.max_context, model.config.train_ctx_len,
            )
        self.embedding = _library_embedding(model, device)
        self.predict_batch([SeriesInput(np.arange(1.0, 65.0), {}, {}, {})], 1, (0.5,), "D")  # warm-up

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        q, mean = self.model.forecast(
            context=[one.target for one in series], prediction_length=horizon, output_type="numpy"
        )
        predictions = []
        for series_q, series_mean in zip(q, mean):
            rows, warnings = interpolate_levels(self.levels, series_q.T, quantiles)  # (H, 9) -> (9, H)
            predictions.append(
                Prediction(
                    mean=np.ascontiguousarray(series_mean, dtype=np.float64),
                    quantiles=np.ascontiguousarray(rows),
                    warnings=warnings,
                )
            )
        return predictions

    @property
    def embed_patch_size(self) -> int:
        return self.model.config.input_patch_size

    def embed_batch(self, series: list[SeriesInput], patches: bool) -> list[Embedding]:
        import torch

        if patches:
            raise NotImplementedError("tirex-ts gives one embedding per series, none per patch")
        size = self.embed_patch_size
        groups: dict[int, list[int]] = defaultdict(list)  # padded length -> indices of its series
        for index, one in enumerate(series):
            groups[-(-len(one.target) // size) * size].append(index)
        out: list = [None] * len(series)
        for length, members in groups.items():
            padded = np.full((len(members), 1, length), np.nan, dtype=np.float32)
            for row, i in enumerate(members):
                padded[row, 0, length - len(series[i].target):] = series[i].target
            with torch.inference_mode():
                vectors = self.embedding(torch.from_numpy(padded)).to(torch.float32).cpu().numpy()
            for row, i in enumerate(members):
                out[i] = Embedding(np.ascontiguousarray(vectors[row]))
        return out


def _library_embedding(model, device: str):
    """tirex-ts' TiRexEmbedding around `model` (its constructor would load NX-AI/TiRex from the Hub by name)."""
    import tirex.models.embedding as library

    with mock.patch.object(library, "load_model", lambda **kwargs: model):
        return library.TiRexEmbedding(device=device, data_augmentation=False)
