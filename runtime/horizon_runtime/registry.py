"""Catalog adapter name -> adapter class.

Adapter modules are imported only when a model is loaded, so a library missing from this group's
virtualenv makes only the ids that need it unavailable (GET /models leaves them out, /infer answers 409).
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass

from .adapters.base import Adapter


@dataclass(frozen=True)
class AdapterRef:
    module: str
    class_name: str
    requires: tuple[str, ...]  # top-level modules that must be importable
    weights: bool = False  # loads a checkpoint (see weights.py): servable per size only where one is found


_STATISTICAL = "horizon_runtime.adapters.statistical"

ADAPTERS: dict[str, AdapterRef] = {
    "naive": AdapterRef(_STATISTICAL, "NaiveAdapter", ("statsforecast",)),
    "seasonal-naive": AdapterRef(_STATISTICAL, "SeasonalNaiveAdapter", ("statsforecast",)),
    "auto-ets": AdapterRef(_STATISTICAL, "AutoETSAdapter", ("statsforecast",)),
    "auto-arima": AdapterRef(_STATISTICAL, "AutoARIMAAdapter", ("statsforecast",)),
    "auto-theta": AdapterRef(_STATISTICAL, "AutoThetaAdapter", ("statsforecast",)),
    "chronos": AdapterRef("horizon_runtime.adapters.chronos_t5", "ChronosT5Adapter", ("chronos",), weights=True),
    "chronos-bolt": AdapterRef("horizon_runtime.adapters.chronos_bolt", "ChronosBoltAdapter", ("chronos",), weights=True),
    "chronos-2": AdapterRef("horizon_runtime.adapters.chronos_2", "Chronos2Adapter", ("chronos",), weights=True),
}


def unavailable_reason(adapter: str) -> str | None:
    """Why this runtime cannot serve the adapter, or None when it can (checked without importing)."""
    ref = ADAPTERS.get(adapter)
    if ref is None:
        return f"this runtime has no adapter '{adapter}'"
    missing = [name for name in ref.requires if importlib.util.find_spec(name) is None]
    if missing:
        return f"adapter '{adapter}' needs {', '.join(missing)}, which is not installed in this group"
    return None


def needs_weights(adapter: str) -> bool:
    return ADAPTERS[adapter].weights


def adapter_class(adapter: str) -> type[Adapter]:
    ref = ADAPTERS[adapter]
    return getattr(importlib.import_module(ref.module), ref.class_name)
