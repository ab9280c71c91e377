#!/usr/bin/env bash
# Fresh clone → first 200 from POST /v1/forecast, before vs after, in one run (issue 23).
#   bash bench/first-forecast.sh [BEFORE=47030e7] [AFTER=HEAD]
# For each commit: a fresh clone of this repository at that commit (no .tools, node_modules or
# virtualenvs), then the README's command `bash scripts/run.sh`, timed from the start until
# POST /v1/forecast (the README's curl body, model auto-ets) answers 200 with the key the first start
# printed. Also: when the server listened, and (after) when the core group's libraries finished
# installing behind it. Machine-level caches (pip's wheels in /opt/wheels and ~/.cache/pip, npm's
# ~/.npm) are the same for both runs. Clones go under $BENCH_DIR (default a new /tmp dir), removed at
# the end unless KEEP=1.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
before="${1:-47030e7}"
after="${2:-HEAD}"
work="${BENCH_DIR:-$(mktemp -d /tmp/horizon-first-forecast-XXXXXX)}"
port_base="${PORT_BASE:-18960}"
BODY='{"model": "auto-ets", "freq": "MS", "horizon": 6, "quantiles": [0.1, 0.5, 0.9],
  "series": [{"index": ["1949-01-01","1949-02-01","1949-03-01","1949-04-01","1949-05-01","1949-06-01","1949-07-01","1949-08-01"],
              "target": [112, 118, 132, 129, 121, 135, 148, 148]}]}'

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

# one measurement: prints "<label> <commit> first_200_s listen_s core_installed_s"
measure() {
  local label="$1" commit="$2" port="$3" dir="$work/$1"
  rm -rf "$dir"
  git clone -q --no-hardlinks "$here" "$dir" && git -C "$dir" checkout -q "$commit" || { echo "$label: clone failed" >&2; return 1; }
  local sha; sha="$(git -C "$dir" rev-parse --short HEAD)"
  local log="$work/$label.log" t0 t_listen="" t_200="" t_core="" key status
  t0="$(now)"
  # its own session, so that the server and everything it started can be stopped together
  PORT="$port" HORIZON_DATA_DIR="$dir/data" setsid bash "$dir/scripts/run.sh" > "$log" 2>&1 < /dev/null &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    [ -z "$t_listen" ] && grep -q 'horizon: listening on' "$log" && t_listen="$(now)"
    key="$(grep -o 'hzn_[A-Za-z0-9_-]*' "$log" | head -1)"
    [ -n "$key" ] || continue
    status="$(curl -s -o /dev/null -w '%{http_code}' --max-time 60 "localhost:$port/v1/forecast" -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d "$BODY")"
    if [ "$status" = 200 ]; then t_200="$(now)"; break; fi
  done
  [ -n "$t_200" ] || { echo "$label: the server ended before a 200; see $log" >&2; tail -20 "$log" >&2; }
  # a layered setup (after): the rest of core installs behind the server; when all of it is in
  local venv="$dir/runtime/.venv-core" waited=0
  if [ -n "$t_200" ] && [ -f "$venv/.horizon-first" ]; then
    while [ ! -f "$venv/.horizon-requirements" ] && [ "$waited" -lt "${CORE_WAIT_S:-1800}" ]; do
      pgrep -f "$dir/runtime/setup.sh" > /dev/null || break  # the installer ended (failed: no stamp)
      sleep 2; waited=$((waited + 2))
    done
    [ -f "$venv/.horizon-requirements" ] && t_core="$(now)"
  fi
  kill -TERM -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  echo "$label $sha $( [ -n "$t_200" ] && secs "$t0" "$t_200" || echo NA ) $( [ -n "$t_listen" ] && secs "$t0" "$t_listen" || echo NA ) $( [ -n "$t_core" ] && secs "$t0" "$t_core" || echo NA )"
}

echo "first-forecast: $(date -u +%FT%TZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); clones under $work" >&2
# after first: a broken layered setup shows within minutes instead of after the long 'before' run
r_after="$(measure after "$after" "$((port_base + 1))")"
r_before="$(measure before "$before" "$port_base")"
echo "run     commit   first_200_s  listening_s  core_all_installed_s"
printf '%-7s %-8s %12s %12s %21s\n' $r_before
printf '%-7s %-8s %12s %12s %21s\n' $r_after
b="$(echo "$r_before" | cut -d' ' -f3)"; a="$(echo "$r_after" | cut -d' ' -f3)"
[ "$b" != NA ] && [ "$a" != NA ] && awk -v a="$a" -v b="$b" 'BEGIN { printf "after ÷ before (first 200): %.2f\n", a / b }'
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
[ "${KEEP:-0}" = 1 ] || rm -rf "$work"
