"""Catalog adapter name -> adapter class.

Adapter modules are imported only when a model is loaded, so a library missing from this group's
virtualenv makes only the ids that need it unavailable (GET /models leaves them out, /infer answers 409).
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass

from .adapters.base import Adapter
from .weights import weights_layout  # re-exported: model_store, pull and finetune import it from here


@dataclass(frozen=True)
class AdapterRef:
    module: str
    class_name: str
    requires: tuple[str, ...]  # top-level modules that must be importable
    # (the checkpoint layout it loads is weights.ADAPTER_LAYOUTS': a size is servable only where its
    # checkpoint is found)


_STATISTICAL = "horizon_runtime.adapters.statistical"

ADAPTERS: dict[str, AdapterRef] = {
    "naive": AdapterRef(_STATISTICAL, "NaiveAdapter", ("statsforecast",)),
    "seasonal-naive": AdapterRef(_STATISTICAL, "SeasonalNaiveAdapter", ("statsforecast",)),
    "auto-ets": AdapterRef(_STATISTICAL, "AutoETSAdapter", ("statsforecast",)),
    "auto-arima": AdapterRef(_STATISTICAL, "AutoARIMAAdapter", ("statsforecast",)),
    "auto-theta": AdapterRef(_STATISTICAL, "AutoThetaAdapter", ("statsforecast",)),
    "damped-ets": AdapterRef(_STATISTICAL, "DampedETSAdapter", ("statsforecast",)),
    "dyn-opt-theta": AdapterRef(_STATISTICAL, "DynOptThetaAdapter", ("statsforecast",)),
    "ces": AdapterRef(_STATISTICAL, "CESAdapter", ("statsforecast",)),
    "mstl": AdapterRef(_STATISTICAL, "MSTLAdapter", ("statsforecast",)),
    "chronos": AdapterRef("horizon_runtime.adapters.chronos_t5", "ChronosT5Adapter", ("chronos",)),
    "chronos-bolt": AdapterRef("horizon_runtime.adapters.chronos_bolt", "ChronosBoltAdapter", ("chronos",)),
    "chronos-2": AdapterRef("horizon_runtime.adapters.chronos_2", "Chronos2Adapter", ("chronos",)),
    "timesfm-1": AdapterRef("horizon_runtime.adapters.timesfm_1", "TimesFM1Adapter", ("timesfm",)),
    "timesfm-2": AdapterRef("horizon_runtime.adapters.timesfm_2", "TimesFM2Adapter", ("timesfm",)),
    "timesfm-3": AdapterRef("horizon_runtime.adapters.timesfm_3", "TimesFM3Adapter", ("timesfm3",)),
    "moirai-2": AdapterRef("horizon_runtime.adapters.moirai_2", "Moirai2Adapter", ("uni2ts",)),
    "tabpfn-ts": AdapterRef("horizon_runtime.adapters.tabpfn_ts", "TabPFNTSAdapter", ("tabpfn_time_series", "tabpfn")),
    "tirex": AdapterRef("horizon_runtime.adapters.tirex", "TiRexAdapter", ("tirex",)),
    "tirex-2": AdapterRef("horizon_runtime.adapters.tirex_2", "TiRex2Adapter", ("tirex2",)),
    "yug": AdapterRef("horizon_runtime.adapters.yug", "YugAdapter", ("yug",)),
    "toto-2": AdapterRef("horizon_runtime.adapters.toto_2", "Toto2Adapter", ("toto2",)),
    "flowstate": AdapterRef("horizon_runtime.adapters.flowstate", "FlowStateAdapter", ("tsfm_public",)),
    "patchtst-fm": AdapterRef("horizon_runtime.adapters.patchtst_fm", "PatchTSTFMAdapter", ("tsfm_public",)),
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


def adapter_class(adapter: str) -> type[Adapter]:
    ref = ADAPTERS[adapter]
    return getattr(importlib.import_module(ref.module), ref.class_name)
