"""Full-size, RANDOM-weight checkpoints for throughput benchmarks, and the official library's own
batch call on them (the in-process baseline).

    python bench/full_size.py --model chronos-2|tirex|timesfm-2 --out MODEL_DIR   # MODEL_DIR/<id>/<size>/

Each checkpoint is built with the library's own classes at the published size and written in the
published layout, so the worker (HORIZON_MODEL_DIR) loads it exactly like the real one. The weights
are random (seeded): forecasts mean nothing, the compute per series is the real model's.

- chronos-2 base: bench/chronos2_base.py (119.5 M parameters, amazon/chronos-2's config.json).
- tirex default: TiRexZero with 12 sLSTM blocks, width 512, 4 heads, feed-forward 2048, patches of 32,
  9 quantiles, train_ctx_len 2048: 35.3 M parameters, the published "35M" (the published
  hyper-parameters sit inside NX-AI/TiRex's model.ckpt, which cannot be read here; this is the
  configuration of the TiRex paper that gives that count). One Lightning-style `model.ckpt`.
- timesfm-2 200m: `TimesFM_2p5_200M_torch()` with the library's built-in 200M definition (the
  published architecture is hard-coded in the package), saved with `save_pretrained`, without the
  config.json that writes (google/timesfm-2.5-200m-pytorch has none).
Prints {"directory", "params"} as one JSON line on stdout.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

import torch

TIREX_CONFIG = {
    "input_patch_size": 32,
    "output_patch_size": 32,
    "quantiles": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
    "block_kwargs": {"num_blocks": 12, "embedding_dim": 512, "num_heads": 4},
    "input_ff_dim": 2048,
}
SIZES = {"chronos-2": "base", "tirex": "default", "timesfm-2": "200m"}


def build(model: str, out: Path, seed: int = 0) -> dict:
    torch.manual_seed(seed)
    directory = out / model / SIZES[model]
    if model == "chronos-2":
        sys.path.insert(0, str(Path(__file__).parent))
        from chronos2_base import build as build_chronos2

        return build_chronos2(out, seed)
    directory.mkdir(parents=True, exist_ok=True)
    if model == "tirex":
        os.environ.setdefault("TIREX_NO_CUDA", "1")
        from tirex import TiRexZero

        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "runtime"))
        from tests.fixtures.tirex import fill_uninitialised

        network = TiRexZero(backend="torch", model_config=TIREX_CONFIG, train_ctx_len=2048)
        # tirex-ts creates the sLSTM kernels with torch.empty (real weights overwrite them): without this
        # the checkpoint holds whatever the memory held (NaN forecasts on torch 2.11 / CUDA machines)
        fill_uninitialised(network)
        torch.save(
            {"hyper_parameters": {"model_config": TIREX_CONFIG, "train_ctx_len": 2048}, "state_dict": network.state_dict()},
            directory / "model.ckpt",
        )
    else:
        import timesfm

        wrapper = timesfm.TimesFM_2p5_200M_torch(torch_compile=False)
        wrapper.save_pretrained(directory)
        # the published repo has no config.json (model.safetensors and a config.yaml): load as it would
        (directory / "config.json").unlink(missing_ok=True)
        network = wrapper.model
    return {"directory": str(directory), "params": sum(p.numel() for p in network.parameters())}


def inprocess_predictor(model: str, directory: str, device: str, horizon: int, quantiles: list[float]):
    """The official library loaded from `directory`, and a function that forecasts a batch of 1-D arrays
    with it the way its documentation shows, returning numpy results (as a caller would use them)."""
    if model == "chronos-2":
        from chronos import Chronos2Pipeline
        from transformers.utils import logging as transformers_logging

        transformers_logging.disable_progress_bar()
        dtype = torch.float32 if device == "cpu" else torch.bfloat16  # as runtime/horizon_runtime/torch_device.py
        pipeline = Chronos2Pipeline.from_pretrained(directory, device_map=device, dtype=dtype)

        def call(batch):
            q, mean = pipeline.predict_quantiles(batch, prediction_length=horizon, quantile_levels=quantiles, cross_learning=False)
            return [x.numpy() for x in q], [x.numpy() for x in mean]

        return call, str(dtype)
    if model == "tirex":
        from tirex import TiRexZero

        network = TiRexZero.from_pretrained(str(Path(directory) / "model.ckpt"), backend="torch", device=device)

        def call(batch):
            return network.forecast(context=batch, prediction_length=horizon, output_type="numpy")

        return call, "torch.float32"
    import timesfm

    wrapper = timesfm.TimesFM_2p5_200M_torch.from_pretrained(directory, torch_compile=False, local_files_only=True)
    compiled: dict[tuple[int, int], object] = {}

    def call(batch):
        # compiled as a user would for this data: the context rounded up to the 32-step input patch,
        # the horizon to the 128-step output patch, the whole batch per call; the README's flags
        context = math.ceil(max(len(x) for x in batch) / 32) * 32
        key = (context, len(batch))
        if key not in compiled:
            wrapper.compile(timesfm.ForecastConfig(
                max_context=context, max_horizon=math.ceil(horizon / 128) * 128, per_core_batch_size=len(batch),
                normalize_inputs=True, use_continuous_quantile_head=True, force_flip_invariance=True,
                infer_is_positive=True, fix_quantile_crossing=True,
            ))
            compiled.clear()
            compiled[key] = True
        return wrapper.forecast(horizon=horizon, inputs=batch)

    return call, "torch.float32"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, choices=sorted(SIZES))
    parser.add_argument("--out", required=True, type=Path, help="weights root (HORIZON_MODEL_DIR)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(json.dumps(build(args.model, args.out, args.seed)), flush=True)


if __name__ == "__main__":
    main()
