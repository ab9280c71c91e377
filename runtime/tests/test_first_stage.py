"""scripts/run.sh starts the worker on core's first stage (the statistical models' libraries) and installs
the foundation models' libraries while it serves: the worker must find a library that arrives after it
started, on the next GET /models, without a restart (ModelStore.recheck_libraries)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from horizon_runtime import model_store
from horizon_runtime.catalog import load_catalog
from horizon_runtime.model_store import ModelStore


def test_a_library_installed_after_start_is_found_on_the_next_look(monkeypatch):
    catalog = load_catalog()
    installed = {"statsforecast"}  # the first stage: chronos' library not yet in the venv

    def reason(adapter: str) -> str | None:
        needs = "statsforecast" if catalog_adapters[adapter] == "statistical" else "chronos"
        return None if needs in installed else f"adapter '{adapter}' needs {needs}, which is not installed in this group"

    catalog_adapters = {m.adapter: ("statistical" if m.adapter in {"naive", "seasonal-naive", "auto-ets", "auto-arima", "auto-theta", "damped-ets", "dyn-opt-theta", "ces", "mstl"} else "foundation") for m in catalog.models.values()}
    monkeypatch.setattr(model_store, "unavailable_reason", reason)
    with ThreadPoolExecutor(1) as executor:
        store = ModelStore(catalog, "core", executor)
        served = {m.id for m in store.servable}
        assert "auto-ets" in served and "chronos-2" not in served

        store.recheck_libraries()  # nothing new yet
        assert {m.id for m in store.servable} == served

        installed.add("chronos")  # the install behind the server unpacked it
        store.recheck_libraries()
        now = {m.id for m in store.servable}
        assert {"chronos", "chronos-bolt", "chronos-2"} <= now and served <= now
        assert "chronos-2" not in {m for m, r in store._unavailable.items() if r is not None}


def test_the_worker_answers_get_models_with_the_recheck(monkeypatch):
    """The worker's GET /models payload looks again each time (the control plane asks every 2 s)."""
    from horizon_runtime import server

    calls = []
    monkeypatch.setattr(ModelStore, "recheck_libraries", lambda self: calls.append(1))
    catalog = load_catalog()
    with ThreadPoolExecutor(1) as executor:
        worker = server.Worker(catalog, "core", executor, max_series=8, max_wait_s=0.002)
        worker.models_payload()
        worker.models_payload()
    assert len(calls) == 2
