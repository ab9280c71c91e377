"""Chronos-T5 (`chronos`): the official ChronosPipeline, with each series sampled from its own seed.

Chronos-T5 draws sample paths (20 by default) token by token and takes quantiles over them, so its
forecast depends on the random numbers it draws. One `generate` call over a batch would draw every
series' tokens from one shared stream, and a series' numbers would then depend on its neighbours.
Here each series draws from its own torch.Generator seeded from its values (`series_seed`), and the
same request always gets the same forecast.

A draw also depends on the last bits of the probabilities, and those on the padded length: the
tokenizer's mean scale and the decoder's cross-attention sum over the padded row, so a series padded
to a batch's longest series rounds differently than alone, and now and then draws another token,
which changes a whole sample path. So each series is left-padded with NaN (the library's batching
convention; padding is masked) to a multiple of PAD_STEP values, and each padded length runs as one
model call. A series then goes through exactly the same arithmetic alone and in any batch (bitwise
equal on the CPU), and gets exactly the samples of the official pipeline called on its padded values
after `torch.manual_seed(series_seed(target))`.

Sample paths (a request's "samples": N, `sample_paths`): the pipeline's own `predict(context, prediction_length,
num_samples=N)`, the (N, horizon) paths it draws token by token, each series from its own seeded generator as above: a
series' paths are exactly those of the official pipeline called on its padded values after
`torch.manual_seed(series_seed(target, seed))` (seed: the request's, None without), alone or in any batch.

Embeddings (`embed_batch`): the pipeline's own `ChronosPipeline.embed`, the encoder's rows of a batch's series: one
per value (token) and the EOS token; so a "patch" is one value here (chronos_common.py takes each series' own rows).
The encoder draws nothing: no seed is involved.

`mean` is the pipeline's mean over the sample paths; quantiles are the pipeline's empirical quantiles
of the samples (torch.quantile, linear interpolation), for any level. Missing values (NaN) and the
left padding of shorter series are masked by the tokenizer.
"""

from __future__ import annotations

import hashlib
import threading
from collections import defaultdict
from types import MethodType

import numpy as np
import torch
from transformers import LogitsProcessor, LogitsProcessorList
from transformers.generation.logits_process import TemperatureLogitsWarper, TopKLogitsWarper, TopPLogitsWarper

from .base import Embedding, Prediction, SeriesInput
from .chronos_common import ChronosAdapter, float32_rows, series_embedding, to_predictions


PAD_STEP = 64  # a few padded lengths up to the 512-value context: little padding, big groups


def padded_context(target: np.ndarray) -> torch.Tensor:
    """The series left-padded with NaN to the next multiple of PAD_STEP values."""
    padding = -len(target) % PAD_STEP
    return torch.from_numpy(np.concatenate([np.full(padding, np.nan), target]))


def series_seed(target: np.ndarray, seed: int | None = None) -> int:
    """A seed from the series' values (missing ones included) and a request's sample-path `seed` (None: none): equal
    inputs, equal seeds."""
    data = np.ascontiguousarray(target, dtype=np.float64).tobytes() + (b"" if seed is None else seed.to_bytes(8, "little", signed=True))
    digest = hashlib.blake2b(data, digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1  # 63 bits: torch.manual_seed takes any of them


class PerSeriesSampler(LogitsProcessor):
    """Draws each series' next tokens with that series' generator and forces them.

    `generate` expands a batch of B series to B·num_samples rows (the rows of series i are
    i·num_samples … (i+1)·num_samples−1) and runs custom processors before its own sampling warpers.
    So this processor applies the warpers that `generate` would (temperature, top-k, top-p from the
    same GenerationConfig), draws with `torch.multinomial` per series, exactly as `generate` draws for a
    lone series, and returns scores that allow only the drawn token; `generate`'s own warpers and draw
    then keep it.
    """

    def __init__(self, generators: list[torch.Generator], generation_config):
        self.generators = generators
        self.num_samples = generation_config.num_return_sequences
        warpers = []
        if generation_config.temperature is not None and generation_config.temperature != 1.0:
            warpers.append(TemperatureLogitsWarper(generation_config.temperature))
        if generation_config.top_k:
            warpers.append(TopKLogitsWarper(top_k=generation_config.top_k))
        if generation_config.top_p is not None and generation_config.top_p < 1.0:
            warpers.append(TopPLogitsWarper(top_p=generation_config.top_p))
        self.warpers = LogitsProcessorList(warpers)

    def __call__(self, input_ids: torch.LongTensor, scores: torch.FloatTensor) -> torch.FloatTensor:
        probs = torch.softmax(self.warpers(input_ids, scores), dim=-1)
        tokens = torch.cat(
            [
                torch.multinomial(rows, num_samples=1, generator=generator)
                for rows, generator in zip(probs.split(self.num_samples), self.generators)
            ]
        )
        forced = torch.full_like(scores, -float("inf"))
        return forced.scatter_(1, tokens, 0.0)


class ChronosT5Adapter(ChronosAdapter):
    pipeline_class = "ChronosPipeline"
    supports_samples = True
    supports_embed = True
    embed_patches = True
    embed_patch_size = 1  # one token per value

    def embed_batch(self, series: list[SeriesInput], patches: bool) -> list[Embedding]:
        config = self.pipeline.tokenizer.config
        contexts = [one.target[-config.context_length:] for one in series]  # what the tokenizer keeps
        embeddings, _ = self.pipeline.embed([torch.from_numpy(context) for context in contexts])
        rows = float32_rows(embeddings)  # (series, longest's values + EOS, dimension)
        eos = config.use_eos_token and config.model_type == "seq2seq"  # when the tokenizer appends it
        end = rows.shape[1] - int(eos)
        return [
            series_embedding(own[end - len(context):end], np.isfinite(context), own[end] if eos else None, patches)
            for context, own in zip(contexts, rows)
        ]

    def prepare(self) -> None:
        """Adds the per-series sampler to the `generate` call of the official ChronosModel.forward."""
        self._lock = threading.Lock()  # one predict call at a time: its generators live on the adapter
        self._generators: list[torch.Generator] = []
        inner = self.pipeline.model.model
        generate = type(inner).generate
        adapter = self

        def seeded_generate(model, *args, generation_config, **kwargs):
            sampler = PerSeriesSampler(adapter._generators, generation_config)
            return generate(model, *args, generation_config=generation_config, logits_processor=[sampler], **kwargs)

        inner.generate = MethodType(seeded_generate, inner)

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        q, mean = [None] * len(series), [None] * len(series)

        def predict(members: list[int], context: torch.Tensor) -> None:
            group_q, group_mean = self.pipeline.predict_quantiles(context, prediction_length=horizon, quantile_levels=list(quantiles))
            for row, i in enumerate(members):
                q[i], mean[i] = group_q[row], group_mean[row]

        self._by_padded_length(series, predict)
        return to_predictions(q, mean, [()] * len(series))

    def sample_paths(
        self, series: list[SeriesInput], horizon: int, paths: int, freq: str, seed: int | None = None
    ) -> list[np.ndarray]:
        out: list = [None] * len(series)

        def sample(members: list[int], context: torch.Tensor) -> None:
            drawn = self.pipeline.predict(context, prediction_length=horizon, num_samples=paths)  # (series, paths, horizon)
            for row, i in enumerate(members):
                out[i] = drawn[row].numpy().astype(np.float64)

        self._by_padded_length(series, sample, seed)
        return out

    def _by_padded_length(self, series: list[SeriesInput], run, seed: int | None = None) -> None:
        """run(members, their padded contexts stacked) once per padded length, each series drawing from its own
        generator (see the module's docstring)."""
        contexts = [padded_context(one.target) for one in series]
        groups: dict[int, list[int]] = defaultdict(list)  # padded length -> indices of its series
        for index, context in enumerate(contexts):
            groups[len(context)].append(index)
        with self._lock:
            for members in groups.values():
                self._generators = [
                    torch.Generator(device=self.device).manual_seed(series_seed(series[i].target, seed)) for i in members
                ]
                run(members, torch.stack([contexts[i] for i in members]))
