"""deploy/kserve's manifests against KServe's own CRD schemas, pinned offline in test/kserve/schemas (the openAPIV3Schema
of serving.kserve.io_clusterservingruntimes.yaml v1alpha1 and serving.kserve.io_inferenceservices.yaml v1beta1 from
kserve/kserve config/crd/full, gzipped JSON: schemas/README.md). Strict, as `kubectl apply --validate=strict`: a field
the schema does not name is an error (the API server would drop it silently), except where the schema preserves
unknown fields. The CRDs embed Kubernetes' own container, probe, env and resource schemas, so those parts are
checked too."""
from __future__ import annotations

import copy
import gzip
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

HERE = Path(__file__).resolve().parent
DEPLOY = HERE.parents[1] / "deploy" / "kserve"
MANIFESTS = {
    "cluster-serving-runtime.yaml": ("serving.kserve.io/v1alpha1", "ClusterServingRuntime", "serving.kserve.io_clusterservingruntimes.v1alpha1"),
    "inference-service.yaml": ("serving.kserve.io/v1beta1", "InferenceService", "serving.kserve.io_inferenceservices.v1beta1"),
}


def strict(schema: Any) -> Any:
    """The schema with additionalProperties: false on every object that lists its properties and does not preserve
    unknown fields (a structural CRD schema prunes unknown fields instead of refusing them)."""
    if isinstance(schema, dict):
        out = {k: strict(v) for k, v in schema.items()}
        if "properties" in schema and not schema.get("x-kubernetes-preserve-unknown-fields") and "additionalProperties" not in schema:
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [strict(s) for s in schema]
    return schema


def schema_of(name: str) -> dict[str, Any]:
    with gzip.open(HERE / "schemas" / f"{name}.json.gz", "rt") as fh:
        schema = strict(json.load(fh))
    # metadata is ObjectMeta, which the CRD leaves to the API server: name required, labels and annotations string maps
    schema["properties"]["metadata"] = {"type": "object", "required": ["name"], "properties": {
        "name": {"type": "string", "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "maxLength": 63},
        "namespace": {"type": "string"},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
    }, "additionalProperties": False}
    return schema


def errors(document: Any, schema: dict[str, Any]) -> list[str]:
    validator = jsonschema.Draft7Validator(schema)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]


@pytest.mark.parametrize("file", sorted(MANIFESTS))
def test_manifest_matches_kserve_crd(file: str) -> None:
    api_version, kind, schema_name = MANIFESTS[file]
    document = yaml.safe_load((DEPLOY / file).read_text())
    assert (document["apiVersion"], document["kind"]) == (api_version, kind)
    assert errors(document, schema_of(schema_name)) == []


def test_a_misspelt_field_is_refused() -> None:
    """The check can fail: a typo in the container (Kubernetes' schema inside the CRD) and in KServe's own spec."""
    runtime = yaml.safe_load((DEPLOY / "cluster-serving-runtime.yaml").read_text())
    broken = copy.deepcopy(runtime)
    broken["spec"]["containers"][0]["readinessProbe"]["httpGet"]["paht"] = "/v1/status"
    broken["spec"]["supportedModelFormat"] = broken["spec"].pop("supportedModelFormats")
    found = errors(broken, schema_of(MANIFESTS["cluster-serving-runtime.yaml"][2]))
    assert any("paht" in e for e in found), found
    assert any("supportedModelFormat'" in e for e in found), found
    service = yaml.safe_load((DEPLOY / "inference-service.yaml").read_text())
    service["spec"]["predictor"]["model"]["env"][0]["valueFrom"]["secretKeyRef"]["key"] = 3
    assert errors(service, schema_of(MANIFESTS["inference-service.yaml"][2])), "a number where the schema wants a string"


def test_the_inference_service_runs_the_runtime() -> None:
    runtime = yaml.safe_load((DEPLOY / "cluster-serving-runtime.yaml").read_text())
    service = yaml.safe_load((DEPLOY / "inference-service.yaml").read_text())
    model = service["spec"]["predictor"]["model"]
    assert model["runtime"] == runtime["metadata"]["name"]
    assert model["modelFormat"]["name"] in [f["name"] for f in runtime["spec"]["supportedModelFormats"]]
    container = runtime["spec"]["containers"][0]
    assert container["ports"][0]["containerPort"] == 8080 and container["readinessProbe"]["httpGet"]["path"] == "/v1/status"
