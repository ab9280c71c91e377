"""Private (fine-tuned) models on disk: HORIZON_MODEL_DIR/private/<id>/ holds a checkpoint written by
horizon_runtime.finetune and its `horizon-manifest.json` (base model and size, hashes, training
summary). The worker serves such an id with its base model's adapter and caps. Ownership is the
control plane's business (it only sends an account's own ids); the worker finds them by path, so a
restarted worker serves them again.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from .catalog import Catalog, CatalogModel, SizeCaps

MANIFEST = "horizon-manifest.json"
# ids the control plane makes (ft- and hex): nothing else can name a directory here
PRIVATE_ID = re.compile(r"^ft-[0-9a-f]{12,32}$")


def is_private_id(model_id: str) -> bool:
    return bool(PRIVATE_ID.match(model_id))


def private_directory(model_id: str) -> Path | None:
    root = os.environ.get("HORIZON_MODEL_DIR")
    return Path(root) / "private" / model_id if root and is_private_id(model_id) else None


def _entry(model_id: str, catalog: Catalog) -> CatalogModel | None:
    directory = private_directory(model_id)
    if directory is None:
        return None
    try:
        base = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))["base"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    parent = catalog.models.get(base.get("model"))
    if parent is None or base.get("size") not in parent.sizes:
        return None
    caps = parent.sizes[base["size"]]
    return CatalogModel(
        id=model_id, adapter=parent.adapter, group=parent.group, default_size=base["size"],
        sizes={base["size"]: SizeCaps(caps.max_context, caps.max_horizon, None, caps.revision)},
        covariates=dict(parent.covariates),
    )


def find_private(model_id: str, catalog: Catalog) -> CatalogModel | None:
    """The private model's catalog entry (added to `catalog` so adapters find their caps), or None."""
    entry = _entry(model_id, catalog)
    if entry is not None:
        catalog.models[model_id] = entry
    return entry


def list_private(catalog: Catalog, group: str) -> list[CatalogModel]:
    """Every complete private model on disk served by this group (temporary directories start with a dot)."""
    root = os.environ.get("HORIZON_MODEL_DIR")
    if not root:
        return []
    try:
        names = sorted(os.listdir(Path(root) / "private"))
    except OSError:
        return []
    entries = [_entry(name, catalog) for name in names if is_private_id(name)]
    return [e for e in entries if e is not None and e.group == group]
