"""Where Chronos weights come from: HORIZON_MODEL_DIR, then the Hugging Face cache; GET /models lists
only the sizes that have weights, and a size without them answers 424 naming every place looked."""

from __future__ import annotations

import shutil

import pytest

from .conftest import start_worker, stop_worker
from .helpers import infer_body, seasonal_series

COMMIT = "0123456789abcdef0123456789abcdef01234567"


def chronos_body(model: str, size: str, **overrides) -> dict:
    return infer_body(model, size=size, freq="D", horizon=8, target=seasonal_series(50, 7), **overrides)


def hf_cache_entry(cache, repo_id: str, files_from) -> None:
    """What `hf download repo_id` leaves in a cache: refs/main naming a snapshot that holds the files."""
    repo = cache / f"models--{repo_id.replace('/', '--')}"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text(COMMIT)
    shutil.copytree(files_from, repo / "snapshots" / COMMIT)


@pytest.fixture(scope="module")
def some_weights(chronos_weights, tmp_path_factory):
    """A weights root with only chronos/tiny and chronos-2/base, and a HF cache with chronos-bolt/mini."""
    root = tmp_path_factory.mktemp("some-weights")
    for model, size in [("chronos", "tiny"), ("chronos-2", "base")]:
        shutil.copytree(chronos_weights / model / size, root / model / size)
    (root / "chronos-bolt" / "small").mkdir(parents=True)  # a directory without weights does not count
    (root / "chronos-bolt" / "small" / "config.json").write_text("{}")
    cache = tmp_path_factory.mktemp("hf-cache")
    hf_cache_entry(cache, "amazon/chronos-bolt-mini", chronos_weights / "chronos-bolt" / "mini")
    return root, cache


@pytest.fixture(scope="module")
def some_weights_worker(some_weights):
    root, cache = some_weights
    started = start_worker(HORIZON_MODEL_DIR=str(root), HF_HUB_CACHE=str(cache), HORIZON_DEVICE="cpu")
    yield started
    stop_worker(started)


def models(worker) -> dict[str, list[str]]:
    status, body = worker.call("GET", "/models")
    assert status == 200, body
    return {entry["model"]: entry["sizes"] for entry in body["models"]}


def test_models_lists_only_sizes_with_weights(some_weights_worker):
    listed = models(some_weights_worker)
    assert listed["chronos"] == ["tiny"]
    assert listed["chronos-bolt"] == ["mini"]  # from the HF cache; "small" has a config but no weights
    assert listed["chronos-2"] == ["base"]
    assert listed["naive"] == ["default"]  # models without weights keep all their sizes


def test_missing_weights_lists_the_sizes_a_pull_could_add(some_weights_worker):
    status, body = some_weights_worker.call("GET", "/models")
    assert status == 200, body
    missing = {entry["model"]: entry["sizes"] for entry in body["missing_weights"]}
    assert missing["chronos"] == ["small", "base", "large"]  # tiny is installed
    assert missing["chronos-2"] == ["small"]
    assert "naive" not in missing  # no weights to miss


def test_model_without_any_weights_is_not_listed(worker):
    assert not {"chronos", "chronos-bolt", "chronos-2"} & set(models(worker))


@pytest.mark.parametrize("path", ["/infer", "/load"])
def test_missing_weights_answer_424_naming_every_place_looked(some_weights_worker, some_weights, path):
    root, cache = some_weights
    body = chronos_body("chronos-bolt", "small")
    if path == "/load":
        body = {"model": body["model"], "size": body["size"]}
    status, answer = some_weights_worker.call("POST", path, body)
    assert status == 424, answer
    assert answer["error"]["code"] == "weights_missing"
    detail = answer["error"]["detail"]
    assert "'chronos-bolt'" in detail and "'small'" in detail
    assert f"{root}/chronos-bolt/small/ (HORIZON_MODEL_DIR)" in detail
    assert f"the Hugging Face cache {cache} for amazon/chronos-bolt-small" in detail


def test_missing_weights_without_model_dir_name_the_unset_variable(worker):
    status, answer = worker.call("POST", "/load", {"model": "chronos-2", "size": "small"})
    assert status == 424 and answer["error"]["code"] == "weights_missing", answer
    assert "HORIZON_MODEL_DIR (not set)" in answer["error"]["detail"]
    assert "autogluon/chronos-2-small" in answer["error"]["detail"]


def test_weights_from_the_model_dir_and_the_hf_cache_serve(some_weights_worker):
    for model, size in [("chronos", "tiny"), ("chronos-bolt", "mini")]:
        status, body = some_weights_worker.infer(**chronos_body(model, size))
        assert status == 200, body
        assert len(body["predictions"][0]["mean"]) == 8
    assert models(some_weights_worker)["chronos-bolt"] == ["mini"]
    status, health = some_weights_worker.call("GET", "/health")
    assert ["chronos-bolt", "mini"] in health["loaded"]


def test_load_reports_the_device(some_weights_worker):
    status, body = some_weights_worker.call("POST", "/load", {"model": "chronos-2", "size": "base"})
    assert status == 200, body
    assert body["device"] == "cpu"


def test_wrong_checkpoint_family_fails_the_load(chronos_weights, tmp_path):
    shutil.copytree(chronos_weights / "chronos-bolt" / "tiny", tmp_path / "chronos" / "tiny")
    worker = start_worker(HORIZON_MODEL_DIR=str(tmp_path))
    try:
        status, body = worker.call("POST", "/load", {"model": "chronos", "size": "tiny"})
    finally:
        stop_worker(worker)
    assert status == 500 and body["error"]["code"] == "inference_failed", body
    assert "ChronosBoltPipeline checkpoint" in body["error"]["detail"]


def test_bad_horizon_device_fails_the_load(chronos_weights):
    worker = start_worker(HORIZON_MODEL_DIR=str(chronos_weights), HORIZON_DEVICE="tpu")
    try:
        status, body = worker.call("POST", "/load", {"model": "chronos-bolt", "size": "tiny"})
    finally:
        stop_worker(worker)
    assert status == 500 and "HORIZON_DEVICE must be one of cpu, cuda, auto" in body["error"]["detail"], body
