"""python -m horizon_runtime.serve config|deploy|status|shutdown: the runtime groups on a Ray cluster.

  config    prints the Serve config file (YAML) of the chosen groups, for `serve deploy FILE` or to edit
            (replicas, autoscaling_config, ray_actor_options.num_gpus ...) before deploying it
  deploy    deploys them on the running cluster (--address, default: the one `ray start` made here) and
            starts Serve's HTTP proxy on --host:--port; returns once every replica is up
  status    prints serve.status() of the cluster
  shutdown  removes the applications and Serve (the Ray cluster stays up)

Each group is one application named after it, route prefix /<group>, whose replicas run the group's own
virtualenv (runtime_env py_executable: runtime/.venv-<group>/bin/python, which holds ray[serve] at the
same version) and find the runtime package through runtime_env env_vars PYTHONPATH; so every node needs
the checkout at the same path (or the same image). Weights come from HORIZON_MODEL_DIR (same layout as
the local worker), read on the node a replica runs on.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

RUNTIME_DIR = Path(__file__).resolve().parents[2]
GROUPS = ("core", "timesfm1")


def group_python(group: str) -> str:
    return str(RUNTIME_DIR / f".venv-{group}" / "bin" / "python")


def application_configs(args: argparse.Namespace) -> list[dict]:
    """One Serve application per group, as in a Serve config file's `applications` list."""
    env = {"PYTHONPATH": str(RUNTIME_DIR), "HORIZON_MODEL_DIR": str(Path(args.model_dir).resolve())}
    apps = []
    for group in args.groups:
        deployment: dict = {
            "name": "GroupDeployment",
            "max_ongoing_requests": args.max_ongoing_requests,
            "ray_actor_options": {"num_cpus": args.num_cpus, "num_gpus": args.num_gpus},
        }
        if args.max_replicas:
            deployment["autoscaling_config"] = {
                "min_replicas": args.replicas, "max_replicas": args.max_replicas,
                "target_ongoing_requests": args.target_ongoing_requests,
            }
        else:
            deployment["num_replicas"] = args.replicas
        apps.append({
            "name": group,
            "route_prefix": f"/{group}",
            "import_path": "horizon_runtime.serve.app:build",
            "args": {"group": group, "catalog": str(Path(args.catalog).resolve()), "max_series": args.max_series,
                     "max_wait_ms": args.max_wait_ms, "memory_budget_mb": args.memory_budget_mb},
            "runtime_env": {"py_executable": group_python(group), "env_vars": dict(env)},
            "deployments": [deployment],
        })
    return apps


def serve_config(args: argparse.Namespace) -> dict:
    return {
        "proxy_location": "HeadOnly",
        "http_options": {"host": args.host, "port": args.port},
        "applications": application_configs(args),
    }


def deploy(args: argparse.Namespace) -> None:
    import ray
    from ray import serve

    from .app import GroupDeployment

    ray.init(address=args.address, namespace="serve", logging_level="WARNING")
    serve.start(proxy_location="HeadOnly", http_options={"host": args.host, "port": args.port})
    for app in application_configs(args):
        deployment = app["deployments"][0]
        options = {key: value for key, value in deployment.items() if key != "name"}
        options["ray_actor_options"] = {**deployment["ray_actor_options"], "runtime_env": app["runtime_env"]}
        a = app["args"]
        bound = GroupDeployment.options(**options).bind(
            a["group"], a["catalog"], a["max_series"], a["max_wait_ms"], a["memory_budget_mb"]
        )
        serve.run(bound, name=app["name"], route_prefix=app["route_prefix"])  # returns once its replicas are up
        print(f"deployed {app['name']} at http://{args.host}:{args.port}{app['route_prefix']}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m horizon_runtime.serve", description=__doc__.splitlines()[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__.split("\n", 1)[1])
    parser.add_argument("command", choices=("config", "deploy", "status", "shutdown"))
    parser.add_argument("--address", default="auto", help="Ray cluster address (default: auto, the local `ray start`)")
    parser.add_argument("--groups", default="core", type=lambda s: [g for g in s.split(",") if g],
                        help=f"comma-separated runtime groups ({', '.join(GROUPS)}); default core")
    parser.add_argument("--host", default="127.0.0.1", help="Serve HTTP proxy host (0.0.0.0 for other machines)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--replicas", type=int, default=1, help="replicas per group (the minimum with --max-replicas)")
    parser.add_argument("--max-replicas", type=int, default=0, help="> 0: autoscale between --replicas and this")
    parser.add_argument("--target-ongoing-requests", type=float, default=2.0, help="autoscaling target per replica")
    parser.add_argument("--max-ongoing-requests", type=int, default=64)
    parser.add_argument("--num-cpus", type=float, default=1.0, help="CPUs each replica reserves")
    parser.add_argument("--num-gpus", type=float, default=0.0, help="GPUs each replica reserves (fractions share one)")
    parser.add_argument("--max-series", type=int, default=int(os.environ.get("HORIZON_BATCH_MAX_SERIES") or 256))
    parser.add_argument("--max-wait-ms", type=float, default=float(os.environ.get("HORIZON_BATCH_MAX_WAIT_MS") or 2.0))
    parser.add_argument("--memory-budget-mb", type=float, default=float(os.environ.get("HORIZON_MODEL_MEMORY_MB") or 0))
    parser.add_argument("--model-dir", default=os.environ.get("HORIZON_MODEL_DIR") or "./models")
    parser.add_argument("--catalog", default=str(RUNTIME_DIR.parent / "catalog" / "models.json"))
    args = parser.parse_args()
    unknown = [g for g in args.groups if g not in GROUPS]
    if unknown:
        parser.error(f"unknown runtime group(s) {', '.join(unknown)}; groups: {', '.join(GROUPS)}")

    if args.command == "config":
        import yaml

        yaml.safe_dump(serve_config(args), sys.stdout, sort_keys=False)
    elif args.command == "deploy":
        deploy(args)
    else:
        import ray
        from ray import serve

        ray.init(address=args.address, namespace="serve", logging_level="WARNING")
        if args.command == "status":
            status = serve.status()
            print(json.dumps({
                name: {"status": str(app.status.value), "message": app.message, "deployments": {
                    d: {"status": str(dep.status.value), "replicas": dict(dep.replica_states), "message": dep.message}
                    for d, dep in app.deployments.items()}}
                for name, app in status.applications.items()
            }, indent=2))
        else:
            serve.shutdown()
            print("serve shut down", flush=True)


if __name__ == "__main__":
    main()
