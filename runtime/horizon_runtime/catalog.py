"""The model catalog (catalog/models.json), shared with the TypeScript control plane."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_CATALOG_PATH = Path(__file__).resolve().parents[2] / "catalog" / "models.json"


@dataclass(frozen=True)
class SizeCaps:
    max_context: int
    max_horizon: int
    checkpoint: str | None
    revision: str = "main"  # what `models pull` resolves (a branch, tag or pinned commit)


@dataclass(frozen=True)
class CatalogModel:
    id: str
    adapter: str
    group: str
    default_size: str
    sizes: dict[str, SizeCaps]
    covariates: dict[str, bool]  # "past", "future", "static" -> supported
    weights_files: tuple[str, ...] = ()  # allow_patterns of a pull: the repo files the adapter loads


@dataclass(frozen=True)
class Catalog:
    season_length: dict[str, int]  # freq -> observations per season ("H": 24, "MS": 12, ...)
    models: dict[str, CatalogModel]
    # freq -> mstl's season lengths ("H": [24, 168]); a freq not listed: [season_length[freq]]
    mstl_season_lengths: dict[str, tuple[int, ...]] = field(default_factory=dict)


def load_catalog(path: str | Path = DEFAULT_CATALOG_PATH) -> Catalog:
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    models = {
        entry["id"]: CatalogModel(
            id=entry["id"],
            adapter=entry["adapter"],
            group=entry["group"],
            default_size=entry["default_size"],
            sizes={
                name: SizeCaps(caps["max_context"], caps["max_horizon"], caps.get("checkpoint"), caps.get("revision", "main"))
                for name, caps in entry["sizes"].items()
            },
            covariates=dict(entry["covariates"]),
            weights_files=tuple(entry.get("weights", {}).get("files", ())),
        )
        for entry in raw["models"]
    }
    mstl = {freq: tuple(lengths) for freq, lengths in raw.get("mstl_season_lengths", {}).items()}
    return Catalog(season_length=dict(raw["season_length"]), models=models, mstl_season_lengths=mstl)
