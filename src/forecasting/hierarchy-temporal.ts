// Temporal hierarchies (issue 39; docs/api.md "Hierarchies"): `"hierarchy": {"temporal": ["D", "W"]}` on an hourly
// request reconciles each input series with its own sums over coarser periods of Horizon's freqs (H → D: 24 steps,
// W: 168; D → W: 7; MS → Q: 3, Y: 12; Q → Y: 4). The periods are counted back from the series' last step, so that the
// horizon's periods follow the history's (the horizon must cover whole periods of every level); a period with a missing
// step is missing. Each level is forecast as a plain request at its own freq (one series per input series, horizon h/k)
// with the requested model, the series themselves as the request would be; then the worker reconciles every series with
// its levels (hierarchicalforecast's temporal reconciliation, `aggregate_temporal`'s summing matrix). That takes no
// in-sample values: methods and intervals that need residuals fall back to wls_struct and normality, with a warning.
import { HorizonError } from '../errors.ts';
import type { ForecastPlan, ForecastResult } from './forecast.ts';
import type { StoredAutoJob } from './auto.ts';
import { dateAtStep, fillGaps, parseIndex } from './calendar.ts';
import { DEFAULT_QUANTILES, RequestValidationError, type InputSeries, type RequestWarning } from './normalize.ts';
import { reconcileSettings, SERIES_LEVEL, type HierarchyNode, type HierarchyOptions, type HierarchyStructure } from './hierarchy-spec.ts';
import {
  answerForecast, forecastPlanned, planNodes, refuseFields, settingsFor, type Forecast, type HierarchicalPlan, type HierarchyBody, type HierarchyDeps,
  type HierarchyRun,
} from './hierarchy-nodes.ts';
import type { Freq } from '../runtime/catalog.ts';
import type { InferenceClient } from '../runtime/inference.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import { reconcileHierarchy } from '../runtime/hierarchy.ts';

/** The temporal levels of each freq: level → the steps of the request's freq one of its periods sums. */
export const TEMPORAL_STEPS: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  H: { D: 24, W: 168 }, D: { W: 7 }, MS: { Q: 3, Y: 12 }, Q: { Y: 4 },
};

const NO_IN_SAMPLE = 'hierarchicalforecast\'s temporal reconciliation takes no in-sample values';
const invalid = (field: string, reason: string, series?: number) => new RequestValidationError([{ ...(series !== undefined && { series }), field, reason }]);

/** The request's temporal levels, coarsest first, or a 422 naming the level or the horizon. */
export function temporalLevels(temporal: readonly string[], freq: string, horizon: number): { name: Freq; k: number }[] {
  const table = TEMPORAL_STEPS[freq] ?? {};
  const offered = Object.entries(table).map(([name, k]) => `${name} (${k} steps)`).join(', ');
  const levels = temporal.map((name, j) => {
    const k = Object.hasOwn(table, name) ? table[name] : undefined;
    if (k === undefined) {
      throw invalid(`hierarchy.temporal[${j}]`, `${JSON.stringify(name)} is not a coarser period of freq ${freq}: `
        + (offered ? `its temporal levels are ${offered}` : `freq ${freq} has none (H: D, W; D: W; MS: Q, Y; Q: Y)`));
    }
    return { name: name as Freq, k };
  }).sort((a, b) => b.k - a.k);
  const coarsest = levels[0];
  if (horizon % coarsest.k !== 0) {
    throw invalid('horizon', `horizon ${horizon} does not cover whole periods of temporal level ${coarsest.name} (${coarsest.k} steps of ${freq}): `
      + `use a multiple of ${coarsest.k}, e.g. ${Math.max(1, Math.round(horizon / coarsest.k)) * coarsest.k}`);
  }
  return levels;
}

/** A series' sums over periods of k steps counted back from its last step, dated at each period's last step (a day for H). */
function periodSeries(s: InputSeries, freq: Freq, k: number): InputSeries {
  const parsed = parseIndex(freq, s.index);
  // the series were planned (their indexes checked) before they are aggregated
  if (!parsed.ok) throw new Error(`series index not checked: ${parsed.error.reason}`);
  const { steps, grid } = parsed.index;
  const values = fillGaps(s.target, steps);
  const periods = Math.floor(values.length / k);
  const from = values.length - periods * k;
  const target: (number | null)[] = [];
  const index: string[] = [];
  for (let p = 0; p < periods; p++) {
    const slice = values.slice(from + p * k, from + (p + 1) * k);
    target.push(slice.some((v) => v === null) ? null : slice.reduce((acc: number, v) => acc + v!, 0));
    const date = dateAtStep(grid, from + (p + 1) * k - 1);
    index.push(freq === 'H' ? date.slice(0, 10) : date);
  }
  return { target, index };
}

/** Per series: a node per temporal level (coarsest first, the parent of the next), then the series itself. */
function temporalStructure(seriesCount: number, levels: { name: Freq }[]): HierarchyStructure {
  const nodes: HierarchyNode[] = [];
  for (let i = 0; i < seriesCount; i++) {
    let parent: string | null = null;
    for (const { name } of levels) {
      nodes.push({ id: `series[${i}]/${name}`, level: name, parent, series: [i] });
      parent = `series[${i}]/${name}`;
    }
    nodes.push({ id: `series[${i}]`, level: SERIES_LEVEL, parent, series: [i] });
  }
  return { nodes, levels: [...levels.map((l) => l.name), SERIES_LEVEL], strict: true, seriesCount };
}

/** Every 4xx of a temporal hierarchy, before anything is charged or stored: the series' plan, each level's, the settings. */
export function planTemporal(body: HierarchyBody, registry: ModelRegistry, deps: HierarchyDeps): HierarchicalPlan {
  refuseFields(body);
  const { temporal, ...crossSectional } = body.hierarchy!;
  if (Object.keys(crossSectional).length) {
    throw invalid('hierarchy.temporal', 'temporal levels reconcile each series with its own periods: send them without labels, levels or aggregates');
  }
  const levels = temporalLevels(temporal!, body.freq, body.horizon);
  const structure = temporalStructure(body.series.length, levels);
  const { method, intervals, level } = reconcileSettings(body as HierarchyOptions, structure);
  // the series first, as a plain request of them: their 422s name them as sent
  const series = planNodes(body, body.series, registry, deps);
  const planned = levels.map(({ name, k }) => {
    const periods = body.series.map((s, i) => {
      const sums = periodSeries(s, body.freq as Freq, k);
      if (sums.target.length === 0) throw invalid('hierarchy.temporal', `series ${i} spans fewer steps than one period of ${name} (${k} steps)`, i);
      return sums;
    });
    try {
      return { name, k, plan: planNodes({ ...body, freq: name, horizon: body.horizon / k }, periods, registry, deps) };
    } catch (error) {
      if (!(error instanceof RequestValidationError)) throw error;
      throw new RequestValidationError(error.errors.map((e) => (e.series === undefined ? { ...e, field: `${e.field} (temporal level ${name})` } : {
        ...e, field: `hierarchy.temporal`, reason: `node "series[${e.series}]/${name}" (series ${e.series} summed per ${name}): ${e.reason}`,
      })));
    }
  });
  const run: HierarchyRun = {
    structure, method, intervals, quantiles: body.quantiles ?? [...DEFAULT_QUANTILES], index: [], noFit: NO_IN_SAMPLE, temporal: planned,
    ...(level && { level }),
  };
  return { ...series, hierarchy: run };
}

/** Runs a planned temporal hierarchy: every level's forecast, the reconciliation of each series with its levels, the answer. */
export async function runTemporal(plan: HierarchicalPlan, inference: InferenceClient, registry: ModelRegistry, deps: HierarchyDeps): Promise<ForecastResult> {
  const { hierarchy: run, ...series } = plan;
  const levels = run.temporal!;
  const [own, ...coarse] = await Promise.all([series, ...levels.map((l) => l.plan)].map(
    (p: ForecastPlan | StoredAutoJob) => forecastPlanned(p, inference, registry, deps, false),
  ));
  const predictions = run.structure.nodes.map((node) => {
    const i = node.series[0];
    const l = levels.findIndex((level) => level.name === node.level);
    return (l < 0 ? own : coarse[l]).result.series[i][0];
  });
  const base: Forecast[] = predictions.map(({ prediction: { mean, ...quantiles } }) => ({ mean, quantiles }));
  const settings = settingsFor(run, false);
  const answer = await reconcileHierarchy(inference, {
    temporal: levels.map(({ name, k }) => ({ name, k })), method: settings.method, intervals: settings.intervals, reconcile_level: run.level ?? null,
    quantiles: [...new Set(Object.keys(base[0].quantiles).map(Number))].sort((a, b) => a - b), seed: 0, base, in_sample: null,
  });
  if (answer.reconciled.length !== base.length) {
    throw new HorizonError('inference_failed', `the reconciliation returned ${answer.reconciled.length} forecasts for ${base.length} nodes`);
  }
  const nodes = run.structure.nodes.map((node, k) => ({
    ...node, index: predictions[k].index,
    base: answerForecast(base[k], run.quantiles, base[k].mean.length), reconciled: answerForecast(answer.reconciled[k], run.quantiles, base[k].mean.length),
  }));
  const level = (name: string) => (w: RequestWarning) => ({ ...w, message: `temporal level ${name}: ${w.message}` });
  return {
    ...own.result,
    series: nodes.filter((n) => n.level === SERIES_LEVEL).map((n) => [{ prediction: n.reconciled, index: n.index }]),
    warnings: [...own.result.warnings, ...coarse.flatMap((c, l) => c.result.warnings.map(level(levels[l].name)))],
    hierarchy: { method: answer.method, intervals: answer.intervals, warnings: [...settings.warnings, ...answer.warnings], nodes },
  };
}
