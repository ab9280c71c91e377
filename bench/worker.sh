# Sourced by the bench shell scripts (needs PY and DEVICE set, the repo root as the working directory).

# On a device machine (DEVICE=cuda): the wheels carried in bench/results/wheels/ (bench/README.md) into
# /tmp, first on PYTHONPATH; a CPU run here uses the venv as it is.
install_carried_wheels() {
  if [ "$DEVICE" = cuda ] && compgen -G "bench/results/wheels/*.whl" >/dev/null; then
    "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/horizon-bench-site bench/results/wheels/*.whl
    export PYTHONPATH=/tmp/horizon-bench-site${PYTHONPATH:+:$PYTHONPATH}
  fi
}

# start_worker PREFIX [NAME=VALUE ...]: a core-group runtime worker as the control plane starts it
# (docs/runtime-protocol.md), with the given environment on top; stdout/stderr in PREFIX.stdout/.log.
# Sets worker_pid and worker_port once it printed READY; fails with its log otherwise.
start_worker() {
  local prefix=$1
  shift
  env "$@" "$PY" -m horizon_runtime --group core --host 127.0.0.1 --port 0 --catalog catalog/models.json \
    > "$prefix.stdout" 2> "$prefix.log" &
  worker_pid=$!
  for _ in $(seq 1 600); do grep -q '^READY' "$prefix.stdout" && break; sleep 0.1; done
  worker_port=$(sed -n 's/^READY .*"port": \([0-9]*\).*/\1/p' "$prefix.stdout")
  [ -n "$worker_port" ] || { echo "worker $prefix did not start"; cat "$prefix.log"; return 1; }
}
