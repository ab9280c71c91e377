"""Where the weights of a (model, size) lie: HORIZON_MODEL_DIR/<model-id>/<size>/ first, then the
Hugging Face cache entry of the catalog's `checkpoint` repo id.

A directory counts when it holds config.json and a weights file, the layout `save_pretrained` writes.
Lookups only test paths, so GET /models can run them on every call. Nothing is downloaded here: a
request must not start a multi-gigabyte download, and GET /models could not tell a reachable hub from
an unreachable one, so weights come from the operator (the directory, or `hf download <repo>` into
the cache), and HF_HUB_OFFLINE needs no special handling.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .protocol import ProtocolError

WEIGHT_FILES = ("model.safetensors", "model.safetensors.index.json", "pytorch_model.bin")


@dataclass(frozen=True)
class WeightsLookup:
    directory: Path | None  # None when no place holds them
    looked: tuple[str, ...]  # every place looked, in order, for the 424 detail


def _complete(directory: Path) -> bool:
    return (directory / "config.json").is_file() and any((directory / name).is_file() for name in WEIGHT_FILES)


def _model_dir(model_id: str, size: str) -> tuple[Path | None, str]:
    root = os.environ.get("HORIZON_MODEL_DIR")
    if not root:
        return None, "HORIZON_MODEL_DIR (not set)"
    directory = Path(root) / model_id / size
    return (directory if _complete(directory) else None), f"{directory}/ (HORIZON_MODEL_DIR)"


def _hf_cache(checkpoint: str) -> tuple[Path | None, str]:
    try:
        from huggingface_hub import constants, try_to_load_from_cache
    except ImportError:
        return None, f"the Hugging Face cache for {checkpoint} (huggingface_hub is not installed)"
    place = f"the Hugging Face cache {constants.HF_HUB_CACHE} for {checkpoint}"
    config = try_to_load_from_cache(checkpoint, "config.json")
    if not isinstance(config, str):  # None, or the "known not to exist" marker
        return None, place
    snapshot = Path(config).parent
    return (snapshot if _complete(snapshot) else None), place


def find_weights(model_id: str, size: str, checkpoint: str | None) -> WeightsLookup:
    directory, place = _model_dir(model_id, size)
    looked = [place]
    if directory is None and checkpoint:
        directory, place = _hf_cache(checkpoint)
        looked.append(place)
    return WeightsLookup(directory, tuple(looked))


def weights_directory(model_id: str, size: str, checkpoint: str | None) -> Path:
    """The directory to load from, or 424 weights_missing naming every place looked."""
    lookup = find_weights(model_id, size, checkpoint)
    if lookup.directory is None:
        raise ProtocolError(
            424,
            "weights_missing",
            f"no weights for model '{model_id}' size '{size}' (config.json and {' or '.join(WEIGHT_FILES)}); "
            f"looked in: {'; '.join(lookup.looked)}",
        )
    return lookup.directory
