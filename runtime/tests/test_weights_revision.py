"""The Hugging Face cache fallback serves the catalog's revision, not whatever `main` holds: a branch (FlowState's
r1.1 beside main's r1) through refs/<branch>, a pinned commit through its own snapshot, and nothing when only another
revision is cached (weights.find_weights, path checks only)."""

from __future__ import annotations

from pathlib import Path

import pytest
from huggingface_hub import constants

from horizon_runtime.weights import HF_LAYOUT, find_weights

REPO = "ibm-granite/granite-timeseries-flowstate-r1"
MAIN, BRANCH, PINNED = "a" * 40, "b" * 40, "c" * 40


def snapshot(cache: Path, commit: str, ref: str | None = None) -> Path:
    repo = cache / f"models--{REPO.replace('/', '--')}"
    directory = repo / "snapshots" / commit
    directory.mkdir(parents=True)
    (directory / "config.json").write_text("{}")
    (directory / "model.safetensors").write_bytes(b"x")
    if ref:
        (repo / "refs").mkdir(exist_ok=True)
        (repo / "refs" / ref).write_text(commit)
    return directory


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.delenv("HORIZON_MODEL_DIR", raising=False)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    return tmp_path


def test_each_revision_finds_its_own_snapshot(cache):
    main = snapshot(cache, MAIN, "main")
    branch = snapshot(cache, BRANCH, "r1.1")
    pinned = snapshot(cache, PINNED)
    assert find_weights("flowstate", "r1.1", REPO, HF_LAYOUT).directory == main  # the default stays main
    assert find_weights("flowstate", "r1.1", REPO, HF_LAYOUT, "main").directory == main
    assert find_weights("flowstate", "r1.1", REPO, HF_LAYOUT, "r1.1").directory == branch
    assert find_weights("flowstate", "r1.1", REPO, HF_LAYOUT, PINNED).directory == pinned


def test_another_revision_never_stands_in(cache):
    snapshot(cache, MAIN, "main")
    lookup = find_weights("flowstate", "r1.1", REPO, HF_LAYOUT, "r1.1")
    assert lookup.directory is None
    assert lookup.looked[-1].endswith(f"for {REPO} at r1.1")
    assert find_weights("flowstate", "r1.1", REPO, HF_LAYOUT, PINNED).directory is None
