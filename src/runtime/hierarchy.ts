// The control plane's side of the core worker's hierarchy endpoints (docs/runtime-protocol.md "Hierarchies"):
// POST /hierarchy/aggregate and POST /hierarchy/reconcile through the inference client's plumbing (the worker picked, the
// request id, the protocol errors mapped to the registry), value arrays as base64 float64 both ways (wire.ts).
import type { InferenceClient } from './inference.ts';
import type {
  HierarchyAggregateRequest, HierarchyAggregateResponse, HierarchyForecast, HierarchyNode, HierarchyReconcileRequest, HierarchyReconcileResponse,
} from './worker-protocol.ts';
import { decodeFloat64, encodeFloat64 } from './wire.ts';

export type {
  HierarchyAggregateRequest, HierarchyAggregateResponse, HierarchyForecast, HierarchyInSample, HierarchyNode, HierarchyReconcileRequest,
  HierarchyReconcileResponse, HierarchySeries,
} from './worker-protocol.ts';

/** The runtime group whose worker reconciles (hierarchicalforecast is in core.txt), whatever group served the forecasts. */
export const HIERARCHY_GROUP = 'core';

/** A forecast and a node as the worker answers them with "encoding": "base64". */
type WireForecast = { mean: string; quantiles: Record<string, string> };
type WireNode = Omit<HierarchyNode, 'target'> & { target: string };
const nullable = (values: number[]): (number | null)[] => values.map((v) => (Number.isNaN(v) ? null : v));
const encodeForecast = (f: HierarchyForecast) => ({
  mean: encodeFloat64(f.mean), quantiles: Object.fromEntries(Object.entries(f.quantiles).map(([q, v]) => [q, encodeFloat64(v)])),
});
const decodeForecast = (f: WireForecast): HierarchyForecast => ({
  mean: decodeFloat64(f.mean), quantiles: Object.fromEntries(Object.entries(f.quantiles).map(([q, v]) => [q, decodeFloat64(v)])),
});

/** The nodes of a hierarchy from its bottom series (labels + levels, explicit aggregates or temporal levels): each node's
 * summed target (null where none of its series has a value), S and tags. */
export async function aggregateHierarchy(inference: InferenceClient, request: HierarchyAggregateRequest): Promise<HierarchyAggregateResponse> {
  const body = { ...request, encoding: 'base64', series: request.series.map((s) => ({ ...s, target: encodeFloat64(s.target) })) };
  const answer = await inference.post<Omit<HierarchyAggregateResponse, 'nodes'> & { nodes: WireNode[] }>(
    HIERARCHY_GROUP, '/hierarchy/aggregate', body,
  );
  return { ...answer, nodes: answer.nodes.map((n) => ({ ...n, target: nullable(decodeFloat64(n.target)) })) };
}

/** The base forecasts of every node made coherent: one reconciled forecast per node (in `base`'s order), the method and
 * intervals actually used and the warnings of any fallback. */
export async function reconcileHierarchy(inference: InferenceClient, request: HierarchyReconcileRequest): Promise<HierarchyReconcileResponse> {
  const body = {
    ...request,
    encoding: 'base64',
    base: request.base.map(encodeForecast),
    in_sample: request.in_sample?.map((s) => ({
      ...s, target: encodeFloat64(s.target), fitted: s.fitted === null || s.fitted === undefined ? null : encodeFloat64(s.fitted),
    })) ?? null,
  };
  const answer = await inference.post<Omit<HierarchyReconcileResponse, 'reconciled'> & { reconciled: WireForecast[] }>(
    HIERARCHY_GROUP, '/hierarchy/reconcile', body,
  );
  return { ...answer, reconciled: answer.reconciled.map(decodeForecast) };
}
