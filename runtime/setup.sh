#!/usr/bin/env bash
# Creates the "core" runtime virtualenv (runtime/.venv-core) and installs requirements/core.txt.
# Idempotent: the install is skipped while the stamp in the venv matches the requirements file and
# the interpreter. Needs no stdin, so it runs the same on a fresh machine and in CI.
set -euo pipefail
runtime="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$runtime/.venv-core"
requirements="$runtime/requirements/core.txt"
stamp="$venv/.horizon-requirements"
python="${PYTHON:-python3}"

if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
  echo "runtime/setup.sh: $python is $("$python" --version 2>&1); Python >= 3.11 is required" >&2
  exit 1
fi

# A venv whose interpreter no longer runs (moved checkout, removed Python) is rebuilt from scratch.
if [ -d "$venv" ] && ! "$venv/bin/python" -c '' 2>/dev/null; then
  echo "runtime/setup.sh: $venv is broken; recreating it" >&2
  rm -rf "$venv"
fi
if [ ! -x "$venv/bin/python" ]; then
  echo "runtime/setup.sh: creating $venv" >&2
  "$python" -m venv "$venv"
fi

wanted="$("$venv/bin/python" --version 2>&1)
$(cat "$requirements")"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
  echo "runtime/setup.sh: installing requirements/core.txt" >&2
  "$venv/bin/python" -m pip install --quiet --no-input --disable-pip-version-check -r "$requirements" >&2
  printf '%s' "$wanted" > "$stamp"
fi

# `python -m horizon_runtime` must work from any directory (the control plane starts it from the repo
# root), so the venv gets a .pth entry for runtime/ instead of a package install.
site_packages="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
printf '%s\n' "$runtime" > "$site_packages/horizon_runtime.pth"
