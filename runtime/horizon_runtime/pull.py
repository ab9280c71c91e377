"""Pulls one (model, size)'s weights from the Hugging Face Hub into HORIZON_MODEL_DIR/<id>/<size>/ with the
official `huggingface_hub` client (it honours HF_ENDPOINT, HF_TOKEN, HF_HOME, proxies).

    python -m horizon_runtime.pull --model-dir DIR --model chronos-2 --size base [--revision R] [--force]

What a pull does, and why:
- resolves the catalog's revision (`main` unless a commit is pinned) to a commit with `model_info`, then
  lists that commit's files with `list_repo_tree` (sizes; LFS sha256; git blob ids) and keeps those the
  adapter needs (the catalog's `weights.files` patterns), so the commit is fixed for every file;
- downloads each file with the client's `get_hf_file_metadata` + `http_get` into a staging directory on the
  same filesystem (`DIR/.pulls/<id>/<size>/`) as `<file>.part`, which stays on disk when a pull is cut
  off: the next run sends a Range request from where it stopped (hf_hub_download's own temp files are
  per process and deleted on failure, so it cannot resume across runs);
- hashes each file while it arrives (in a thread: hashlib releases the GIL) and refuses it unless its
  size and its Hub checksum (sha256 for LFS files, the git blob id for others) match; a refused file is
  deleted, so a rerun fetches it again;
- checks the adapter's layout (registry.weights_layout) and then renames the staging directory onto
  DIR/<id>/<size>/ (one rename): a model directory is either complete or absent;
- records what it got in `.horizon-pull.json` next to the weights (repo, revision, commit, files).
Two pulls of the same size (CLI and server, two replicas) serialise on a lock file; the second finds the
commit installed and does nothing.

stdout is one JSON object per line (events), read by the control plane (src/runtime/model-pull.ts); the exit
code names the failure class (PULL_EXIT below, documented in the README).
"""

from __future__ import annotations

import argparse
import fcntl
import hashlib
import json
import os
import queue
import shutil
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from .catalog import load_catalog
from .registry import weights_layout

RECORD = ".horizon-pull.json"
STAGING_META = ".horizon-staging.json"
PULL_EXIT = {
    "unexpected": 1,
    "usage": 2,
    "network": 3,
    "repo_not_found": 4,
    "revision_not_found": 4,
    "file_not_found": 4,
    "no_files": 4,
    "gated": 5,
    "unauthorized": 5,
    "checksum_mismatch": 6,
    "size_mismatch": 6,
    "incomplete_layout": 6,
}
PROGRESS_EVERY_S = 0.25
# http_get hands the file object the body in chunks of this many bytes (the client's default is 10 MiB):
# a cut-off download keeps what arrived up to the last whole chunk, and progress moves at this step
CHUNK_BYTES = 1 << 20
MAX_WORKERS = 8  # as snapshot_download

_emit_lock = threading.Lock()


def emit(event: str, **fields) -> None:
    with _emit_lock:
        sys.stdout.write(json.dumps({"event": event, **fields}) + "\n")
        sys.stdout.flush()


class PullError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class RemoteFile:
    path: str
    size: int
    sha256: str | None  # LFS files
    blob_id: str  # git blob sha1 (of the pointer for LFS files)

    def hasher(self):
        """The hash the Hub publishes for this file: sha256 of the content (LFS) or git's blob sha1."""
        if self.sha256:
            return hashlib.sha256()
        h = hashlib.sha1()
        h.update(f"blob {self.size}\0".encode())
        return h

    @property
    def expected_hash(self) -> str:
        return self.sha256 or self.blob_id


class HashingWriter:
    """The file object handed to `http_get`: writes, counts bytes for progress and feeds a hashing thread.
    If the client rewinds (a server that ignored Range), the hash is recomputed from disk at the end."""

    def __init__(self, file, hasher, done: int, on_progress):
        self.file = file
        self.hasher = hasher
        self.done = done
        self.rewound = False
        self.on_progress = on_progress
        self.chunks: queue.Queue[bytes | None] = queue.Queue(maxsize=4)
        self.thread = threading.Thread(target=self._hash, daemon=True)
        self.thread.start()

    def _hash(self) -> None:
        while (chunk := self.chunks.get()) is not None:
            self.hasher.update(chunk)

    def write(self, chunk: bytes) -> int:
        written = self.file.write(chunk)
        self.chunks.put(chunk)
        self.done += len(chunk)
        self.on_progress(self.done)
        return written

    def tell(self) -> int:
        return self.file.tell()

    def seek(self, *args) -> int:
        self.rewound = True
        return self.file.seek(*args)

    def truncate(self, *args) -> int:
        self.rewound = True
        return self.file.truncate(*args)

    def finish(self) -> None:
        self.chunks.put(None)
        self.thread.join()


def _hash_file(path: Path, hasher, limit: int | None = None):
    with path.open("rb") as f:
        remaining = limit
        while chunk := f.read(8 << 20 if remaining is None else min(8 << 20, remaining)):
            hasher.update(chunk)
            if remaining is not None:
                remaining -= len(chunk)
                if remaining <= 0:
                    break
    return hasher


def _classify(error: BaseException, repo: str, revision: str, endpoint: str) -> PullError:
    """The client's exceptions as one-line errors that say what to do."""
    import httpx
    from huggingface_hub import errors

    if isinstance(error, PullError):
        return error
    if isinstance(error, errors.GatedRepoError):
        return PullError(
            "gated",
            f"{repo} is a gated repository: accept its terms at https://huggingface.co/{repo} with your account, "
            "then set HF_TOKEN to a token of that account (or run `hf auth login`)",
        )
    if isinstance(error, errors.RevisionNotFoundError):
        return PullError("revision_not_found", f"revision '{revision}' does not exist in {repo}")
    if isinstance(error, errors.RemoteEntryNotFoundError):
        return PullError("file_not_found", f"a file listed for {repo}@{revision} is not on the Hub: {error}")
    if isinstance(error, errors.RepositoryNotFoundError):
        hint = "" if _token() else "; if it is private or gated, set HF_TOKEN"
        return PullError("repo_not_found", f"repository {repo} was not found on {endpoint}{hint}")
    if isinstance(error, errors.OfflineModeIsEnabled):
        return PullError("network", "HF_HUB_OFFLINE is set: unset it to pull weights from the Hub")
    if isinstance(error, errors.HfHubHTTPError):
        status = error.response.status_code if error.response is not None else None
        if status in (401, 403):
            return PullError("unauthorized", f"the Hub refused access to {repo} ({status}): check HF_TOKEN")
        return PullError("network", f"the Hub at {endpoint} answered {status}: {str(error).splitlines()[0]}")
    if isinstance(error, (httpx.TransportError, ConnectionError, TimeoutError)):
        return PullError(
            "network",
            f"cannot reach the Hugging Face Hub at {endpoint} ({type(error).__name__}: {error}); check the network or "
            "proxy (HTTPS_PROXY), or point HF_ENDPOINT at a mirror; rerun to resume",
        )
    return PullError("unexpected", f"{type(error).__name__}: {error}")


def _token() -> str | None:
    from huggingface_hub import get_token

    return get_token()


def resolve(api, repo: str, revision: str, patterns: list[str]) -> tuple[str, bool, list[RemoteFile]]:
    """The commit `revision` points at, whether the repo is gated, and the files matching `patterns`."""
    from huggingface_hub.hf_api import RepoFile
    from huggingface_hub.utils import filter_repo_objects

    info = api.model_info(repo, revision=revision)
    if not info.sha:
        raise PullError("unexpected", f"the Hub gave no commit for {repo}@{revision}")
    gated = bool(info.gated)
    if gated and not _token():
        raise PullError(
            "gated",
            f"{repo} is a gated repository: accept its terms at https://huggingface.co/{repo}, then set HF_TOKEN "
            "to a token of that account (or run `hf auth login`)",
        )
    entries = [e for e in api.list_repo_tree(repo, revision=info.sha, recursive=True) if isinstance(e, RepoFile)]
    wanted = list(filter_repo_objects(entries, allow_patterns=patterns, key=lambda e: e.path))
    if not wanted:
        raise PullError("no_files", f"{repo}@{info.sha[:12]} holds no file matching {', '.join(patterns)}")
    files = [
        RemoteFile(e.path, int(e.lfs.size if e.lfs else e.size), e.lfs.sha256 if e.lfs else None, e.blob_id)
        for e in sorted(wanted, key=lambda e: e.path)
    ]
    return info.sha, gated, files


def fetch(repo: str, commit: str, remote: RemoteFile, staging: Path, endpoint: str) -> bool:
    """Downloads one file into `staging` (resuming its .part file) and verifies it. False when it was
    already there and verified."""
    from huggingface_hub import get_hf_file_metadata, hf_hub_url
    from huggingface_hub.file_download import http_get

    final = staging / remote.path
    if final.is_file() and final.stat().st_size == remote.size:
        # a verified file is only ever renamed into place, so its presence means it passed
        emit("file_done", path=remote.path, size=remote.size, skipped=True)
        return False
    part = final.with_name(final.name + ".part")
    part.parent.mkdir(parents=True, exist_ok=True)
    have = part.stat().st_size if part.is_file() else 0
    if have > remote.size:
        part.unlink()
        have = 0
    hasher = remote.hasher()
    if have:
        _hash_file(part, hasher, have)
    emit("file_start", path=remote.path, size=remote.size, resume_from=have)

    last = [0.0]

    def progress(done: int) -> None:
        now = time.monotonic()
        if now - last[0] >= PROGRESS_EVERY_S:
            last[0] = now
            emit("progress", path=remote.path, bytes=done, size=remote.size)

    meta = get_hf_file_metadata(hf_hub_url(repo, remote.path, revision=commit, endpoint=endpoint), endpoint=endpoint)
    with part.open("ab") as f:
        writer = HashingWriter(f, hasher, have, progress)
        try:
            if have < remote.size:
                http_get(meta.location, writer, resume_size=have, expected_size=remote.size, displayed_filename=remote.path)
        finally:
            writer.finish()
    size = part.stat().st_size
    if size != remote.size:
        part.unlink()
        raise PullError("size_mismatch", f"{remote.path}: got {size} bytes, the Hub lists {remote.size}; rerun the pull")
    if writer.rewound:
        hasher = _hash_file(part, remote.hasher())
    digest = hasher.hexdigest()
    if digest != remote.expected_hash:
        part.unlink()
        kind = "sha256" if remote.sha256 else "git blob id"
        raise PullError(
            "checksum_mismatch",
            f"{remote.path} is corrupted: its {kind} is {digest}, the Hub lists {remote.expected_hash}; the file was "
            "deleted and nothing was installed (rerun to download it again)",
        )
    part.rename(final)
    emit("progress", path=remote.path, bytes=remote.size, size=remote.size)
    emit("file_done", path=remote.path, size=remote.size, skipped=False)
    return True


def read_record(directory: Path) -> dict | None:
    try:
        return json.loads((directory / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def install(staging: Path, dest: Path) -> None:
    """Staging → dest by rename (same filesystem): readers see the old complete dir, nothing, or the new one."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    old = None
    if dest.exists():
        old = dest.with_name(f".{dest.name}.replaced-{os.getpid()}")
        os.rename(dest, old)
    os.rename(staging, dest)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def pull(model_dir: Path, model_id: str, size: str, revision: str | None, force: bool) -> dict:
    from huggingface_hub import HfApi, constants

    catalog = load_catalog()
    model = catalog.models.get(model_id)
    if model is None or size not in model.sizes:
        raise PullError("usage", f"no catalog entry for {model_id}/{size}")
    caps = model.sizes[size]
    layout = weights_layout(model.adapter)
    if layout is None or not caps.checkpoint or not model.weights_files:
        raise PullError("usage", f"{model_id} has no weights to pull")
    repo, revision = caps.checkpoint, revision or caps.revision
    endpoint = constants.ENDPOINT
    dest = model_dir / model_id / size
    pulls = model_dir / ".pulls"
    staging = pulls / model_id / size
    staging.parent.mkdir(parents=True, exist_ok=True)

    with (pulls / f"{model_id}--{size}.lock").open("w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            emit("waiting", reason="another pull of this model size is running")
            fcntl.flock(lock, fcntl.LOCK_EX)
        api = HfApi(endpoint=endpoint)
        try:
            commit, gated, files = resolve(api, repo, revision, list(model.weights_files))
        except Exception as error:  # noqa: BLE001 - classified into one line
            raise _classify(error, repo, revision, endpoint) from error
        total = sum(f.size for f in files)
        installed = read_record(dest)
        emit(
            "resolved", model=model_id, size=size, repo=repo, revision=revision, commit=commit, gated=gated,
            endpoint=endpoint, bytes_total=total, files=[{"path": f.path, "size": f.size} for f in files],
        )
        if not force and installed and installed.get("commit") == commit and layout.complete(dest):
            emit("up_to_date", dir=str(dest), commit=commit, bytes_total=total)
            return installed

        meta = {"repo": repo, "commit": commit}
        try:
            started = json.loads((staging / STAGING_META).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            started = None
        if started != meta or force:
            shutil.rmtree(staging, ignore_errors=True)  # parts of another commit must not be mixed in
        staging.mkdir(parents=True, exist_ok=True)
        (staging / STAGING_META).write_text(json.dumps(meta), encoding="utf-8")

        started_at = time.monotonic()
        try:
            with ThreadPoolExecutor(max_workers=min(MAX_WORKERS, len(files))) as pool:
                list(pool.map(lambda f: fetch(repo, commit, f, staging, endpoint), files))
        except Exception as error:  # noqa: BLE001
            raise _classify(error, repo, revision, endpoint) from error
        if not layout.complete(staging):
            raise PullError(
                "incomplete_layout",
                f"{repo}@{commit[:12]} lacks files the adapter needs ({layout.describe()}); nothing was installed",
            )
        record = {
            "model": model_id, "size": size, "repo": repo, "revision": revision, "commit": commit, "endpoint": endpoint,
            "bytes": total, "pulled_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "files": [{"path": f.path, "size": f.size, "sha256": f.sha256, "blob_id": f.blob_id} for f in files],
        }
        (staging / STAGING_META).unlink()
        (staging / RECORD).write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        install(staging, dest)
        emit("installed", dir=str(dest), commit=commit, bytes_total=total, seconds=round(time.monotonic() - started_at, 3))
        return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m horizon_runtime.pull", description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-dir", required=True, type=Path)
    parser.add_argument("--model", required=True)
    parser.add_argument("--size", required=True)
    parser.add_argument("--revision", default=None, help="branch, tag or commit (default: the catalog's)")
    parser.add_argument("--force", action="store_true", help="download again even when this commit is installed")
    args = parser.parse_args(argv)
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # progress goes out as events
    from huggingface_hub import constants

    constants.DOWNLOAD_CHUNK_SIZE = CHUNK_BYTES
    try:
        pull(args.model_dir.resolve(), args.model, args.size, args.revision, args.force)
    except PullError as error:
        emit("error", code=error.code, message=str(error))
        return PULL_EXIT.get(error.code, 1)
    except KeyboardInterrupt:
        emit("error", code="interrupted", message="interrupted; rerun to resume")
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
