"""Where the weights of a (model, size) lie: HORIZON_MODEL_DIR/<model-id>/<size>/ first, then the
Hugging Face cache snapshot of the catalog's `checkpoint` repo id.

A directory counts when it holds the files of the family's published layout (`WeightsLayout`): for
most families config.json and a weights file, the layout `save_pretrained` writes; TiRex ships one
Lightning `model.ckpt`, TimesFM 1.0 one `torch_model.ckpt`. Lookups only test paths, so GET /models
can run them on every call. Nothing is downloaded here: a request must not start a multi-gigabyte
download, and GET /models could not tell a reachable hub from an unreachable one, so weights come
from the operator (the directory, or `hf download <repo>` into the cache), and HF_HUB_OFFLINE needs
no special handling.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import ProtocolError

WEIGHT_FILES = ("model.safetensors", "model.safetensors.index.json", "pytorch_model.bin")
_COMMIT = re.compile(r"[0-9a-f]{40}")


@dataclass(frozen=True)
class WeightsLayout:
    """The files a checkpoint directory must hold: every `required` pattern and, if given, one of `any_of`
    (glob patterns relative to the directory)."""

    required: tuple[str, ...] = ("config.json",)
    any_of: tuple[str, ...] = WEIGHT_FILES

    def complete(self, directory: Path) -> bool:
        def present(pattern: str) -> bool:
            return any(path.is_file() for path in directory.glob(pattern))

        return all(present(p) for p in self.required) and (not self.any_of or any(present(p) for p in self.any_of))

    def describe(self) -> str:
        parts = list(self.required)
        if self.any_of:
            parts.append(" or ".join(self.any_of))
        return " and ".join(parts)


HF_LAYOUT = WeightsLayout()  # what `save_pretrained` writes


@dataclass(frozen=True)
class WeightsLookup:
    directory: Path | None  # None when no place holds them
    looked: tuple[str, ...]  # every place looked, in order, for the 424 detail


def _model_dir(model_id: str, size: str, layout: WeightsLayout) -> tuple[Path | None, str]:
    root = os.environ.get("HORIZON_MODEL_DIR")
    if not root:
        return None, "HORIZON_MODEL_DIR (not set)"
    from .private_models import private_directory  # fine-tuned models: HORIZON_MODEL_DIR/private/<id>/

    directory = private_directory(model_id) or Path(root) / model_id / size
    return (directory if layout.complete(directory) else None), f"{directory}/ (HORIZON_MODEL_DIR)"


def _hf_cache(checkpoint: str, layout: WeightsLayout, revision: str = "main") -> tuple[Path | None, str]:
    """The cache snapshot of the catalog's revision, by path only: refs/<revision> names it (what `hf download <repo>
    [--revision <branch or tag>]` fills), and a pinned commit is its own snapshot directory. Another revision's
    snapshot never stands in (FlowState's r1.1 is a branch beside main's r1)."""
    try:
        from huggingface_hub import constants
    except ImportError:
        return None, f"the Hugging Face cache for {checkpoint} (huggingface_hub is not installed)"
    repo = Path(constants.HF_HUB_CACHE) / ("models--" + checkpoint.replace("/", "--"))
    place = f"the Hugging Face cache {constants.HF_HUB_CACHE} for {checkpoint}" + ("" if revision == "main" else f" at {revision}")
    if _COMMIT.fullmatch(revision):
        commit = revision
    else:
        try:
            commit = (repo / "refs" / revision).read_text(encoding="utf-8").strip()
        except OSError:
            return None, place
    snapshot = repo / "snapshots" / commit
    return (snapshot if commit and layout.complete(snapshot) else None), place


def find_weights(
    model_id: str, size: str, checkpoint: str | None, layout: WeightsLayout = HF_LAYOUT, revision: str = "main"
) -> WeightsLookup:
    directory, place = _model_dir(model_id, size, layout)
    looked = [place]
    if directory is None and checkpoint:
        directory, place = _hf_cache(checkpoint, layout, revision)
        looked.append(place)
    return WeightsLookup(directory, tuple(looked))


def weights_directory(
    model_id: str, size: str, checkpoint: str | None, layout: WeightsLayout = HF_LAYOUT, revision: str = "main"
) -> Path:
    """The directory to load from, or 424 weights_missing naming every place looked."""
    lookup = find_weights(model_id, size, checkpoint, layout, revision)
    if lookup.directory is None:
        raise ProtocolError(
            424,
            "weights_missing",
            f"no weights for model '{model_id}' size '{size}' ({layout.describe()}); "
            f"looked in: {'; '.join(lookup.looked)}",
        )
    return lookup.directory


# Adapter name -> the checkpoint layout it loads (adapters without weights are absent: their sizes
# need nothing on disk). Here rather than in registry.py so that adapters/base.py can find its own
# layout without importing the registry, which imports adapters/base.py.
ADAPTER_LAYOUTS: dict[str, WeightsLayout] = {
    "chronos": HF_LAYOUT,
    "chronos-bolt": HF_LAYOUT,
    "chronos-2": HF_LAYOUT,
    # TimesFM 1.0 (timesfm 1.3.0, runtime group timesfm1): the published repo holds one torch_model.ckpt.
    "timesfm-1": WeightsLayout(("torch_model.ckpt",), ()),
    # TimesFM 2.5: google/timesfm-2.5-200m-pytorch ships model.safetensors and a config.yaml, no config.json
    # (the architecture is hard-coded in the library), so only the weights file is required.
    "timesfm-2": WeightsLayout((), ("model.safetensors",)),
    "timesfm-3": HF_LAYOUT,
    "moirai-2": HF_LAYOUT,
    # TabPFN checkpoints are single files with the config inside (.safetensors for v3.5, .ckpt before).
    "tabpfn-ts": WeightsLayout((), ("*.safetensors", "*.ckpt")),
    # TiRex: the published repo holds one Lightning model.ckpt (hyper-parameters inside).
    "tirex": WeightsLayout(("model.ckpt",), ()),
    # TiRex-2: config.json and model.safetensors (the repo also keeps the legacy model-config.yaml and model.ckpt,
    # which tirex2.load_model reads only when the current files are missing; a pull fetches only these two).
    "tirex-2": WeightsLayout(("config.json", "model.safetensors"), ()),
    "yug": HF_LAYOUT,
    "toto-2": HF_LAYOUT,
    # granite-tsfm (runtime group granite): save_pretrained's config.json + model.safetensors
    "flowstate": HF_LAYOUT,
    "patchtst-fm": HF_LAYOUT,
}


def weights_layout(adapter: str) -> WeightsLayout | None:
    """The checkpoint layout the adapter loads, or None when it needs no weights."""
    return ADAPTER_LAYOUTS.get(adapter)
