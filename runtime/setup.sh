#!/usr/bin/env bash
# Creates one virtualenv per runtime group (runtime/.venv-<group>) from requirements/<group>.txt:
# `core` (statistical models and every foundation model whose pins agree) and `timesfm1` (TimesFM 1.0,
# whose package shares its name with the timesfm 3.x in core). docs/runtime-groups.md says why.
#   runtime/setup.sh                every group
#   runtime/setup.sh core           only the named groups
#   runtime/setup.sh --first core   only the group's first stage (requirements/<group>-first.txt: what
#                                   the worker needs to serve the statistical models); scripts/run.sh
#                                   serves after it and installs the rest behind the running server
#   runtime/setup.sh --with ray,test core
#                                   also a group's extras (requirements/<group>-<extra>.txt where there is
#                                   one): `ray` for Ray Serve replicas (core-ray.txt, timesfm1-ray.txt),
#                                   `test` for the tests (core-test.txt: pytest). Production (scripts/run.sh,
#                                   the image by default) installs none: no test parts, no Ray where unused
# Idempotent: a group's install is skipped while the stamp in its venv matches its requirements file
# and the interpreter. While a full install runs, <venv>/.horizon-installing holds its start time
# (GET /v1/models says which models wait for it). One install per venv at a time (flock).
# Needs no stdin, so it runs the same on a fresh machine and in CI.
set -euo pipefail
runtime="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-python3}"

if ! "$python" -c 'import sys; sys.exit(not ((3, 11) <= sys.version_info < (3, 12)))'; then
  # 3.11 exactly: timesfm 1.3.0 (group timesfm1) requires <3.12, and the torch wheel pinned is cp311.
  echo "runtime/setup.sh: $python is $("$python" --version 2>&1); Python 3.11 is required" >&2
  exit 1
fi

first=0
extras=()
while [ $# -gt 0 ]; do
  case "$1" in
    --first) first=1; shift ;;
    --with) IFS=',' read -r -a extras <<< "${2:-}"; shift 2 ;;
    *) break ;;
  esac
done
for extra in "${extras[@]}"; do
  compgen -G "$runtime/requirements/*-$extra.txt" > /dev/null || { echo "runtime/setup.sh: no extra \"$extra\" (requirements/<group>-$extra.txt)" >&2; exit 1; }
done
groups=("$@")
if [ ${#groups[@]} -eq 0 ]; then
  for file in "$runtime"/requirements/*.txt; do
    case "$file" in *-first.txt) continue ;; esac  # a group's first stage, not a group
    case "$file" in *-ray.txt|*-test.txt) continue ;; esac  # a group's extras (--with), not groups
    groups+=("$(basename "$file" .txt)")
  done
fi

# pip_install VENV FILE: the pinned FILE into VENV without resolving, checked; says how long it took (setup's time is
# part of CI's). With HORIZON_UV (a uv binary; scripts/setup-test.sh sets it, and pip's index settings as UV_* variables)
# uv installs the same pinned files, ~3x faster: it downloads, unpacks and byte-compiles in parallel. Serving's own
# setup (scripts/setup.sh, the image) uses pip.
pip_install() {
  local t0=$SECONDS
  if [ -n "${HORIZON_UV:-}" ]; then
    "$HORIZON_UV" pip install --quiet --python "$1/bin/python" --no-deps --compile-bytecode -r "$2" >&2
  else
    "$1/bin/python" -m pip install --quiet --no-input --disable-pip-version-check --no-deps -r "$2" >&2
  fi
  "$1/bin/python" -m pip check >&2
  echo "runtime/setup.sh: $(basename "$2") into $(basename "$1") in $(( SECONDS - t0 )) s" >&2
}

for group in "${groups[@]}"; do
  venv="$runtime/.venv-$group"
  requirements="$runtime/requirements/$group.txt"
  stamp="$venv/.horizon-requirements"
  [ -f "$requirements" ] || { echo "runtime/setup.sh: no $requirements" >&2; exit 1; }
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
  # one installer per venv: scripts/run.sh's install behind the server and a later setup wait for each other
  exec 9>"$venv/.horizon-lock"
  flock 9
  if [ "$first" -eq 1 ] && [ -f "$runtime/requirements/$group-first.txt" ]; then
    first_requirements="$runtime/requirements/$group-first.txt"
    first_wanted="$("$venv/bin/python" --version 2>&1)
$(cat "$first_requirements")"
    if { [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; } && { [ ! -f "$venv/.horizon-first" ] || [ "$(cat "$venv/.horizon-first")" != "$first_wanted" ]; }; then
      echo "runtime/setup.sh: installing requirements/$group-first.txt (the statistical models; the rest can install while serving)" >&2
      pip_install "$venv" "$first_requirements"
      printf '%s' "$first_wanted" > "$venv/.horizon-first"
    fi
  elif [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    echo "runtime/setup.sh: installing requirements/$group.txt" >&2
    date -u +%Y-%m-%dT%H:%M:%SZ > "$venv/.horizon-installing"
    trap 'rm -f "$venv/.horizon-installing"' EXIT  # a failed install is not "installing" any more
    # --no-deps: every file is the complete, ==-pinned set pip resolved once (regeneration recipe in
    # the file's header); resolving ~150 pins again is slow and pip 23 can crash doing it.
    pip_install "$venv" "$requirements"
    printf '%s' "$wanted" > "$stamp"
    rm -f "$venv/.horizon-installing"
  fi
  # the extras asked for, each over the full group (never with --first) and stamped on its own
  for extra in "${extras[@]}"; do
    extra_requirements="$runtime/requirements/$group-$extra.txt"
    [ "$first" -eq 0 ] && [ -f "$extra_requirements" ] || continue
    extra_wanted="$("$venv/bin/python" --version 2>&1)
$(cat "$extra_requirements")"
    if [ ! -f "$venv/.horizon-extra-$extra" ] || [ "$(cat "$venv/.horizon-extra-$extra")" != "$extra_wanted" ]; then
      echo "runtime/setup.sh: installing requirements/$group-$extra.txt (extra $extra)" >&2
      pip_install "$venv" "$extra_requirements"
      printf '%s' "$extra_wanted" > "$venv/.horizon-extra-$extra"
    fi
  done
  exec 9>&-
  # `python -m horizon_runtime` must work from any directory (the control plane starts it from the repo
  # root), so the venv gets a .pth entry for runtime/ instead of a package install.
  site_packages="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')"
  printf '%s\n' "$runtime" > "$site_packages/horizon_runtime.pth"
done
