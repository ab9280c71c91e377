#!/usr/bin/env bash
# The Python client's own virtualenv (clients/python/.venv): the exact pins of requirements-dev.txt,
# then the wheel built from this directory (dist/) installed into it, so the tests exercise the wheel a
# user would get. Idempotent: skipped while the stamp matches the pins and the sources.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-python3}"
venv="$here/.venv"
stamp="$venv/.horizon-client"
if [ -d "$venv" ] && ! "$venv/bin/python" -c '' 2>/dev/null; then rm -rf "$venv"; fi
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
wanted="$("$venv/bin/python" --version 2>&1) $(cat "$here/requirements-dev.txt" "$here/pyproject.toml" "$here"/src/horizon_client/*.py | sha256sum)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
  echo "clients/python/setup.sh: installing requirements-dev.txt and building the wheel" >&2
  "$venv/bin/python" -m pip install --quiet --no-input --disable-pip-version-check --no-deps -r "$here/requirements-dev.txt" >&2
  rm -rf "$here/dist"
  # --no-build-isolation: build with the pinned hatchling above instead of fetching one
  "$venv/bin/python" -m pip wheel --quiet --no-input --disable-pip-version-check --no-deps --no-build-isolation -w "$here/dist" "$here" >&2
  "$venv/bin/python" -m pip install --quiet --no-input --disable-pip-version-check --no-deps --force-reinstall "$here"/dist/horizon_client-*.whl >&2
  "$venv/bin/python" -m pip check >&2
  printf '%s' "$wanted" > "$stamp"
fi
