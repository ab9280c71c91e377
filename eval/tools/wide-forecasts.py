"""How often a statistical model's forecast reaches over WIDE_INTERVAL (10) × the history's largest magnitude, the
runtime's wide-forecast warning (runtime/horizon_runtime/adapters/statistical.py), over prism-sim.py's cached forecasts
(the runtime's own predict_series) of every set and member that has a cache (docs/models.md quotes the count).

  runtime/.venv-core/bin/python eval/tools/prism-sim.py <set> --origins 4 --backtest forward --members <member> --methods ''   # caches
  runtime/.venv-core/bin/python eval/tools/wide-forecasts.py
"""

from __future__ import annotations

import importlib.util
import pickle
import sys
from pathlib import Path

import numpy as np

spec = importlib.util.spec_from_file_location("prism_sim", Path(__file__).with_name("prism-sim.py"))
ps = importlib.util.module_from_spec(spec)
sys.modules["prism_sim"] = ps
spec.loader.exec_module(ps)
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "runtime"))
from horizon_runtime.adapters.statistical import WIDE_INTERVAL  # noqa: E402

MEMBERS = ["auto-ets", "auto-theta", "seasonal-naive", "damped-ets", "dyn-opt-theta", "mstl", "auto-arima"]

for key in ps.DATASETS:
    data = ps.load(key)
    counts = []
    for member in MEMBERS:
        cache = ps.CACHE / f"{key}.{member}.4.fwd.pkl"
        if cache.exists():
            forecasts, _ = pickle.loads(cache.read_bytes())
            wide = sum(np.max(np.abs(f[0])) > WIDE_INTERVAL * np.max(np.abs(y)) for (y, _), f in zip(data, forecasts))
            counts.append(f"{member} {wide}")
    print(f"{key} ({len(data)} series): {', '.join(counts) or 'no caches'}")
