"""HORIZON_DEVICE (cpu | cuda | auto, default auto): where torch models run, and in which precision."""

from __future__ import annotations

import os

DEVICES = ("cpu", "cuda", "auto")


def torch_device() -> str:
    import torch

    wanted = os.environ.get("HORIZON_DEVICE") or "auto"
    if wanted not in DEVICES:
        raise ValueError(f"HORIZON_DEVICE must be one of {', '.join(DEVICES)}, got {wanted!r}")
    if wanted == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if wanted == "cuda" and not torch.cuda.is_available():
        raise ValueError("HORIZON_DEVICE=cuda, but torch finds no CUDA device")
    return wanted


def torch_dtype(device: str):
    """fp32 on the CPU (bf16 is slow there and changes the numbers); bf16 on CUDA, as upstream recommends."""
    import torch

    return torch.float32 if device == "cpu" else torch.bfloat16
