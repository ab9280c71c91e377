"""Tiny random-weight Chronos checkpoints for tests: python -m horizon_runtime.fixtures --out DIR.

Writes DIR/<model-id>/<size>/ (config.json + model.safetensors, via `save_pretrained`) for every size
of chronos, chronos-bolt and chronos-2 in the catalog, built with the library's own config and model
classes, so the production loading code reads them exactly like a published checkpoint. The
architecture is shrunk (a few KB of weights); the forecasting settings (context and prediction
lengths, patch sizes, quantile levels, sampling settings) are those of the published checkpoints, so
the catalog caps hold for them too. Seeded: the same command writes the same weights.
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

import torch

from .catalog import DEFAULT_CATALOG_PATH, load_catalog

BOLT_QUANTILES = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]
CHRONOS2_QUANTILES = [0.01, 0.05] + [round(0.1 + 0.05 * i, 2) for i in range(17)] + [0.95, 0.99]

# The published checkpoints' forecasting settings: Chronos-T5 context 512 / prediction 64 with 20
# sample paths; Bolt context 2048 / prediction 64; Chronos-2 context 8192 / 64 output patches of 16.
T5_TOKENS = 128  # the published models use 4096 bins; fewer keep the fixture tiny (top_k 50 still applies)
TINY_T5 = dict(d_model=16, d_kv=8, d_ff=32, num_layers=1, num_decoder_layers=1, num_heads=2)
# initializer_factor scales the random weights: large enough that forecasts react to their inputs
# (covariates included), small enough that Chronos-2's sinh output stays near the series' level.


def _chronos_t5():
    from transformers import T5Config, T5ForConditionalGeneration

    config = T5Config(
        **TINY_T5,
        vocab_size=T5_TOKENS,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
        initializer_factor=1.0,
        chronos_config={
            "tokenizer_class": "MeanScaleUniformBins",
            "tokenizer_kwargs": {"low_limit": -15.0, "high_limit": 15.0},
            "n_tokens": T5_TOKENS,
            "n_special_tokens": 2,
            "pad_token_id": 0,
            "eos_token_id": 1,
            "use_eos_token": True,
            "model_type": "seq2seq",
            "context_length": 512,
            "prediction_length": 64,
            "num_samples": 20,
            "temperature": 1.0,
            "top_k": 50,
            "top_p": 1.0,
        },
    )
    return T5ForConditionalGeneration(config)


def _chronos_bolt():
    from chronos.chronos_bolt import ChronosBoltModelForForecasting
    from transformers import T5Config

    config = T5Config(
        **TINY_T5,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
        initializer_factor=0.3,
        chronos_pipeline_class="ChronosBoltPipeline",
        chronos_config={
            "context_length": 2048,
            "prediction_length": 64,
            "input_patch_size": 16,
            "input_patch_stride": 16,
            "quantiles": BOLT_QUANTILES,
            "use_reg_token": True,
        },
    )
    return ChronosBoltModelForForecasting(config)


def _chronos_2():
    from chronos.chronos2 import Chronos2Model
    from chronos.chronos2.config import Chronos2CoreConfig

    config = Chronos2CoreConfig(
        d_model=16,
        d_kv=8,
        d_ff=32,
        num_layers=2,
        num_heads=2,
        initializer_factor=0.2,
        chronos_pipeline_class="Chronos2Pipeline",
        chronos_config={
            "context_length": 8192,
            "input_patch_size": 16,
            "input_patch_stride": 16,
            "output_patch_size": 16,
            "max_output_patches": 64,
            "quantiles": CHRONOS2_QUANTILES,
            "use_arcsinh": True,
            "use_reg_token": True,
        },
    )
    return Chronos2Model(config)


BUILDERS = {"chronos": _chronos_t5, "chronos-bolt": _chronos_bolt, "chronos-2": _chronos_2}


def _seed(model_id: str, size: str) -> int:
    """A fixed seed per (model, size), so that sizes get different weights and every run the same ones."""
    return int.from_bytes(hashlib.sha256(f"{model_id}/{size}".encode()).digest()[:4], "little")


def write_fixtures(out: Path, catalog_path: Path = DEFAULT_CATALOG_PATH) -> list[Path]:
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    catalog = load_catalog(catalog_path)
    written = []
    for model_id, build in BUILDERS.items():
        for size in catalog.models[model_id].sizes:
            torch.manual_seed(_seed(model_id, size))
            directory = out / model_id / size
            build().eval().save_pretrained(directory)
            written.append(directory)
    return written


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m horizon_runtime.fixtures", description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, type=Path, help="weights root, used as HORIZON_MODEL_DIR")
    parser.add_argument("--catalog", default=str(DEFAULT_CATALOG_PATH), type=Path)
    args = parser.parse_args()
    for directory in write_fixtures(args.out, args.catalog):
        print(directory)


if __name__ == "__main__":
    main()
