"""A full-size, RANDOM-weight Chronos-2 base checkpoint for throughput benchmarks.

    python bench/chronos2_base.py --out MODEL_DIR        # writes MODEL_DIR/chronos-2/base/

Built with the library's own classes (chronos.chronos2 Chronos2CoreConfig + Chronos2Model) at the
published `amazon/chronos-2` size: d_model 768, d_kv 64, d_ff 3072, 12 layers, 12 heads (≈ 119.5 M
parameters), with the published forecasting settings (context 8192, patches of 16, 64 output patches,
21 quantile levels, arcsinh, REG token, time-encoding scale 8192). The weights are random (seeded):
the forecasts mean nothing, the compute per series is the real model's. Written with save_pretrained
into the layout runtime/horizon_runtime/weights.py reads (config.json + model.safetensors), so both
the worker (HORIZON_MODEL_DIR) and Chronos2Pipeline.from_pretrained load it like the published one.
Prints the directory and the parameter count as one JSON line on stdout.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

QUANTILES = [0.01, 0.05] + [round(0.1 + 0.05 * i, 2) for i in range(17)] + [0.95, 0.99]

# amazon/chronos-2 config.json (the "base" size of the catalog)
BASE = dict(
    d_model=768,
    d_kv=64,
    d_ff=3072,
    num_layers=12,
    num_heads=12,
    dropout_rate=0.1,
    layer_norm_epsilon=1e-6,
    feed_forward_proj="relu",
    vocab_size=2,
    pad_token_id=0,
    reg_token_id=1,
    rope_theta=10000.0,
)
FORECASTING = {
    "context_length": 8192,
    "input_patch_size": 16,
    "input_patch_stride": 16,
    "output_patch_size": 16,
    "max_output_patches": 64,
    "quantiles": QUANTILES,
    "use_arcsinh": True,
    "use_reg_token": True,
    "time_encoding_scale": 8192,
}


def build(out: Path, seed: int = 0) -> dict:
    from chronos.chronos2 import Chronos2Model
    from chronos.chronos2.config import Chronos2CoreConfig
    from transformers.utils import logging as transformers_logging

    transformers_logging.disable_progress_bar()
    torch.manual_seed(seed)
    config = Chronos2CoreConfig(**BASE, chronos_pipeline_class="Chronos2Pipeline", chronos_config=FORECASTING)
    model = Chronos2Model(config).eval()
    directory = out / "chronos-2" / "base"
    model.save_pretrained(directory)
    return {"directory": str(directory), "params": sum(p.numel() for p in model.parameters())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, type=Path, help="weights root (HORIZON_MODEL_DIR)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(json.dumps(build(args.out, args.seed)), flush=True)


if __name__ == "__main__":
    main()
