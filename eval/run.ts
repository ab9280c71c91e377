// The evaluation harness: every model over every dataset through the public API (POST /v1/forecast),
// with the official split and horizon, scored with the one metrics implementation (src/forecasting/metrics.ts)
// and printed beside the published numbers (eval/published.ts).
//
//   node eval/run.ts [--models seasonal-naive,auto-ets,chronos-bolt:small] [--datasets m4-hourly,m3-monthly|all]
//                    [--max-series N] [--url URL --key KEY] [--services N] [--concurrency C] [--batch B]
//                    [--context N] [--data DIR] [--name NAME] [--timeout-ms MS]
//   node eval/run.ts --leaderboard [--models auto-ets,auto-theta,seasonal-naive,auto] [--auto-scope request|series]
//                    [--auto-metric mase|wql|smape] [--baseline eval/results/x.md,...]
//
// `auto` is model "auto" (src/forecasting/auto.ts); its candidates are the run's other models (or --auto-candidates).
// --leaderboard ranks, per dataset, every model and auto by MASE and by WQL; --baseline adds the single
// models' rows of earlier runs (their .md or -aggregate.csv) to it instead of running them again.
//
// See eval/README.md for what each column means and how long the statistical models take.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { loadCatalog } from '../src/runtime/catalog.ts';
import { mase, mean, smape, wql, type QuantileForecast } from '../src/forecasting/metrics.ts';
import { DATASETS, DEFAULT_DATA_DIR, datasetAvailable, indexDates, type DatasetSpec, type EvalSeries } from './datasets.ts';
import { PUBLISHED, type PublishedScore } from './published.ts';
import { serviceFromArgs, type Service } from './service.ts';

export const LEVELS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
/** the in-process service's worker-call timeout for the harness (the service default is 120 s) */
const HARNESS_INFERENCE_TIMEOUT_MS = 6 * 3600_000;

export interface EvalOptions {
  models: string[];
  datasets: string[];
  url?: string;
  key?: string;
  maxSeries?: number;
  /** in-process services to spread requests over (each has its own model worker process) */
  services: number;
  /** requests in flight per service */
  concurrency: number;
  /** at most this many series per request */
  batch: number;
  /** and at most this many observations per request (keeps bodies well under the 10 MiB limit) */
  maxPoints: number;
  context?: number;
  dataDir: string;
  outDir: string;
  name: string;
  timeoutMs: number;
  /** print the comparison table at the end (the m4-hourly alias prints its own) */
  quiet?: boolean;
  /** model "auto": candidates (default: the run's other models, else the service's default), scope, metric */
  autoCandidates?: string[];
  autoScope?: 'series' | 'request';
  autoMetric?: 'wql' | 'mase' | 'smape';
  /** print and write the per-dataset ranking of every model and auto */
  leaderboard?: boolean;
  /** earlier runs (.md tables or -aggregate.csv) whose single-model rows join the leaderboard */
  baseline?: string[];
}

interface ModelRef { id: string; size?: string }

interface ModelInfo {
  model_id: string;
  sizes: string[];
  default_size: string;
  size_limits: Record<string, { max_context: number; max_horizon: number }>;
}

export interface SeriesScore { id: string; nTrain: number; nContext: number; mase: number; smape: number; wql: number; nd: number }

export interface PairResult {
  dataset: DatasetSpec;
  model: string;
  size: string;
  seriesTotal: number;
  seriesUsed: number;
  scores?: { mase: number; smape: number; wql: number; nd: number; nonFiniteMase: number };
  series: SeriesScore[];
  published: PublishedScore[];
  forecastS: number;
  requests: number;
  warnings: Map<string, number>;
  contextCut: { cap: number; series: number } | null;
  error?: string;
  /** model "auto": how many series each candidate forecast */
  picks?: Map<string, number>;
}

// ---------------------------------------------------------------------------------------------
// HTTP

interface Prediction { mean: number[]; [level: string]: number[] }
interface ForecastAnswer { series: { prediction: Prediction }[][]; warnings: { message: string }[]; auto?: { series: { model: string; picked_by: string }[] } }

class HttpError extends Error {
  readonly status: number;
  readonly retryAfterS?: number;
  constructor(status: number, body: string, retryAfterS?: number) {
    super(`answered ${status}: ${body.slice(0, 1000)}`);
    this.status = status;
    this.retryAfterS = retryAfterS;
  }
}

async function call<T>(service: Service, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await request(`${service.url}${path}`, {
        method,
        body: body === undefined ? undefined : JSON.stringify(body),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${service.key}` },
        // the service's own inference timeout decides; the client waits for it
        headersTimeout: 0, bodyTimeout: 0,
      });
      const text = await res.body.text();
      if (res.statusCode !== 200) {
        const retry = Number(res.headers['retry-after']);
        throw new HttpError(res.statusCode, text, Number.isFinite(retry) ? retry : undefined);
      }
      return JSON.parse(text) as T;
    } catch (error) {
      // 503 = no worker right now (e.g. being restarted): wait as told; connection errors: retry too
      const retriable = error instanceof HttpError ? error.status === 503 : true;
      if (!retriable || attempt >= 8) throw error;
      const waitS = error instanceof HttpError && error.retryAfterS !== undefined ? error.retryAfterS : Math.min(30, 2 ** attempt);
      process.stderr.write(`  ${method} ${path}: ${(error as Error).message.slice(0, 200)}; retry ${attempt} in ${waitS} s\n`);
      await new Promise((r) => setTimeout(r, waitS * 1000));
    }
  }
}

// ---------------------------------------------------------------------------------------------

function parseModel(spec: string): ModelRef {
  const [id, size] = spec.split(':');
  return size ? { id, size } : { id };
}

/** `n` of `items`, evenly spaced (all of them when n is absent or not smaller). */
function sample<T>(items: T[], n: number | undefined): T[] {
  if (n === undefined || n >= items.length) return items;
  return Array.from({ length: n }, (_, i) => items[Math.floor((i * items.length) / n)]);
}

function batches(series: EvalSeries[], maxSeries: number, maxPoints: number, context: number): EvalSeries[][] {
  const out: EvalSeries[][] = [];
  let current: EvalSeries[] = [];
  let points = 0;
  for (const s of series) {
    const n = Math.min(s.train.length, context);
    if (current.length && (current.length >= maxSeries || points + n > maxPoints)) { out.push(current); current = []; points = 0; }
    current.push(s);
    points += n;
  }
  if (current.length) out.push(current);
  return out;
}

export function publishedFor(dataset: string, model: string, size: string): PublishedScore[] {
  const table = PUBLISHED[dataset] ?? {};
  return table[`${model}:${size}`] ?? table[model] ?? [];
}

function signed(x: number, digits: number): string {
  const s = Math.abs(x).toFixed(digits);
  return `${x < 0 && Number(s) !== 0 ? '-' : '+'}${s}`;
}

/** Model warnings with their numbers replaced, so that "N observations ..." messages group. */
function warningKind(message: string): string {
  return message.replace(/\d+(\.\d+)?/g, 'N');
}

async function evaluatePair(services: Service[], spec: DatasetSpec, model: ModelRef, size: string, info: ModelInfo, opts: EvalOptions, allSeries: EvalSeries[]): Promise<PairResult> {
  const used = sample(allSeries, opts.maxSeries);
  const cap = info.size_limits[size]?.max_context ?? Number.POSITIVE_INFINITY;
  const context = Math.min(opts.context ?? cap, cap);
  const longer = used.filter((s) => s.train.length > context).length;
  const result: PairResult = {
    dataset: spec, model: model.id, size, seriesTotal: allSeries.length, seriesUsed: used.length,
    series: [], published: publishedFor(spec.key, model.id, size), forecastS: 0, requests: 0, warnings: new Map(),
    contextCut: longer ? { cap: context, series: longer } : null,
  };
  const work = batches(used, opts.batch, opts.maxPoints, context);
  result.requests = work.length;
  const predictions = new Map<EvalSeries, Prediction>();
  const t0 = performance.now();
  let done = 0;
  let failed: Error | undefined;
  let lastReport = t0;
  const forecast = async (service: Service, batch: EvalSeries[]) => {
    const isAuto = model.id === 'auto';
    const body = {
      model: model.id, ...(isAuto ? {
        ...(opts.autoCandidates?.length ? { auto_candidates: opts.autoCandidates } : {}),
        ...(opts.autoScope ? { auto_scope: opts.autoScope } : {}), ...(opts.autoMetric ? { auto_metric: opts.autoMetric } : {}),
      } : { model_size: size }),
      freq: spec.freq, horizon: spec.horizon, quantiles: LEVELS,
      ...(opts.context !== undefined ? { context: opts.context } : {}),
      // only the last `context` observations: the service would cut them the same way
      series: batch.map((s) => {
        const keep = Math.min(s.train.length, context);
        return { target: s.train.slice(-keep), index: indexDates(spec.freq, s.start, s.train.length).slice(-keep) };
      }),
    };
    const answer = await call<ForecastAnswer>(service, 'POST', '/v1/forecast', body);
    batch.forEach((s, i) => predictions.set(s, answer.series[i][0].prediction));
    for (const pick of answer.auto?.series ?? []) {
      const key = pick.picked_by === 'fallback' ? `${pick.model} (fallback)` : pick.model;
      result.picks ??= new Map();
      result.picks.set(key, (result.picks.get(key) ?? 0) + 1);
    }
    for (const w of answer.warnings) {
      const kind = warningKind(w.message);
      result.warnings.set(kind, (result.warnings.get(kind) ?? 0) + 1);
    }
    done += batch.length;
    const now = performance.now();
    if (now - lastReport > 30_000) {
      lastReport = now;
      const elapsed = (now - t0) / 1000;
      process.stderr.write(`  ${spec.key} ${model.id}: ${done}/${used.length} series in ${elapsed.toFixed(0)} s (about ${((elapsed / done) * (used.length - done)).toFixed(0)} s left)\n`);
    }
  };
  // `concurrency` requests in flight per service, all pulling from one queue
  let next = 0;
  await Promise.all(services.flatMap((service) => Array.from({ length: opts.concurrency }, async () => {
    while (!failed && next < work.length) {
      const batch = work[next++];
      try { await forecast(service, batch); } catch (error) { failed ??= error as Error; }
    }
  })));
  result.forecastS = (performance.now() - t0) / 1000;
  if (failed) {
    result.error = failed.message.replace(/\s+/g, ' ').slice(0, 500);
    return result;
  }

  const items: QuantileForecast[] = [];
  const pointItems: QuantileForecast[] = [];
  for (const s of used) {
    const p = predictions.get(s)!;
    // MASE and sMAPE of the median (the 0.5 quantile; for the statistical models it is `mean`), as published
    const point = p['0.5'] ?? p.mean;
    const item = { actual: s.test, quantiles: new Map(LEVELS.map((q) => [q, p[String(q)]])) };
    // every quantile = the point forecast: WQL then equals ND = sum|y - yhat| / sum|y|
    const pointItem = { actual: s.test, quantiles: new Map(LEVELS.map((q) => [q, point])) };
    items.push(item);
    pointItems.push(pointItem);
    result.series.push({
      id: s.id, nTrain: s.train.length, nContext: Math.min(s.train.length, context),
      mase: mase(s.test, point, s.train, spec.m), smape: smape(s.test, point),
      wql: s.test.some((y) => y !== 0) ? wql([item], LEVELS) : Number.NaN,
      nd: s.test.some((y) => y !== 0) ? wql([pointItem], LEVELS) : Number.NaN,
    });
  }
  const finiteMase = result.series.map((r) => r.mase).filter(Number.isFinite);
  result.scores = {
    // a series whose training part is constant has MASE scale 0 (infinite MASE); counted, left out
    mase: mean(finiteMase), nonFiniteMase: result.series.length - finiteMase.length,
    smape: mean(result.series.map((r) => r.smape)),
    wql: wql(items, LEVELS), nd: wql(pointItems, LEVELS),
  };
  return result;
}

// ---------------------------------------------------------------------------------------------
// reporting

const COLUMNS = ['dataset', 'model', 'series', 'MASE', 'pub', 'diff', 'WQL', 'pub', 'diff', 'sMAPE%', 'pub', 'diff', 'ND', 'pub', 'diff', 'time s', 'published source'];

function tableRows(results: PairResult[]): string[][] {
  const rows: string[][] = [];
  const f = (x: number | undefined, d: number) => (x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(d));
  const df = (a: number | undefined, b: number | undefined, d: number) => (a === undefined || b === undefined || !Number.isFinite(a) ? '' : signed(a - b, d));
  for (const r of results) {
    const name = r.size === 'default' || r.size === 'auto' ? r.model : `${r.model}:${r.size}`;
    const n = r.seriesUsed === r.seriesTotal ? String(r.seriesUsed) : `${r.seriesUsed}/${r.seriesTotal}`;
    const time = r.forecastS.toFixed(1);
    const s = r.scores;
    const pubs = r.published.length ? r.published : [undefined];
    pubs.forEach((p, i) => {
      const mark = p?.leak ? ' *' : '';
      const source = p ? `${p.source}${mark}` : 'no published number';
      if (r.error && i === 0) {
        rows.push([r.dataset.key, name, n, `ERROR: ${r.error.slice(0, 160)}`, '', '', '', '', '', '', '', '', '', '', '', time, source]);
        return;
      }
      const ours = i === 0;
      rows.push([
        ours ? r.dataset.key : '', ours ? name : '', ours ? n : '',
        ours ? f(s?.mase, 4) : '', f(p?.mase, 4), df(s?.mase, p?.mase, 4),
        ours ? f(s?.wql, 4) : '', f(p?.wql, 4), df(s?.wql, p?.wql, 4),
        ours ? f(s?.smape, 3) : '', f(p?.smape, 3), df(s?.smape, p?.smape, 3),
        ours ? f(s?.nd, 4) : '', f(p?.nd, 4), df(s?.nd, p?.nd, 4),
        ours ? time : '', source,
      ]);
    });
  }
  return rows;
}

export function consoleTable(results: PairResult[]): string {
  const rows = [COLUMNS, ...tableRows(results)];
  const widths = COLUMNS.map((_, c) => Math.max(...rows.map((r) => (r[c].startsWith('ERROR') ? 0 : r[c].length))));
  return rows.map((r) => r.map((cell, c) => (c < 2 || c === COLUMNS.length - 1 || cell.startsWith('ERROR') ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd()).join('\n');
}

function markdownTable(results: PairResult[]): string {
  const rows = tableRows(results);
  return [`| ${COLUMNS.join(' | ')} |`, `|${COLUMNS.map((_, c) => (c < 2 || c === COLUMNS.length - 1 ? '---' : '---:')).join('|')}|`,
    ...rows.map((r) => `| ${r.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`)].join('\n');
}

function csvCell(v: unknown): string {
  if (v === undefined || v === null) return '';
  const s = typeof v === 'number' ? (Number.isFinite(v) ? String(v) : '') : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Facts about a pair that explain a difference from the published number. */
function pairNotes(r: PairResult, seasonLength: Record<string, number>): string[] {
  const notes: string[] = [];
  const runtimeSeason = seasonLength[r.dataset.freq];
  const statistical = ['seasonal-naive', 'auto-ets', 'auto-arima', 'auto-theta'].includes(r.model);
  if (statistical && runtimeSeason !== r.dataset.m) {
    notes.push(`the runtime fits season length ${runtimeSeason} (catalog season_length.${r.dataset.freq}); the published baselines and MASE use m = ${r.dataset.m}`);
  }
  if (r.contextCut) notes.push(`${r.contextCut.series} of ${r.seriesUsed} series are longer than the context ${r.contextCut.cap}: the model saw their last ${r.contextCut.cap} observations`);
  if (r.picks) notes.push(`auto picked: ${[...r.picks].sort((a, b) => b[1] - a[1]).map(([m, k]) => `${m} ×${k}`).join(', ')}`);
  for (const [kind, count] of r.warnings) notes.push(`model warning ×${count}: "${kind}"`);
  if (r.scores?.nonFiniteMase) notes.push(`${r.scores.nonFiniteMase} series have a constant training part (MASE scale 0) and are left out of the mean MASE`);
  for (const p of r.published) {
    if (p.leak) notes.push(`${p.source}: the model saw this dataset in training (in-domain / leakage flag)`);
    if (p.note) notes.push(`${p.source}: ${p.note}`);
    if (p.fev_inference_s) notes.push(`${p.source}: fev's inference time ${p.fev_inference_s} s on a 16-vCPU ml.m6i.4xlarge`);
  }
  if (r.seriesUsed < r.seriesTotal) notes.push(`evaluated on ${r.seriesUsed} of ${r.seriesTotal} series (--max-series, evenly spaced): not comparable 1:1 with a full-dataset number; full run ≈ ${((r.forecastS * r.seriesTotal) / r.seriesUsed).toFixed(0)} s (extrapolated)`);
  return notes;
}

function gitDescription(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'runtime', 'catalog'], { encoding: 'utf8' }).trim() ? ' (src/runtime/catalog with uncommitted changes)' : '';
    return `${head}${dirty}`;
  } catch {
    return 'unknown';
  }
}

export function machineDescription(): string {
  const c = cpus();
  return `${c.length} × ${c[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
}

// ---------------------------------------------------------------------------------------------

export async function runEvaluation(opts: EvalOptions): Promise<PairResult[]> {
  const started = performance.now();
  const wanted = opts.datasets.includes('all') ? DATASETS.map((d) => d.key) : opts.datasets;
  const specs: DatasetSpec[] = [];
  for (const key of wanted) {
    const spec = DATASETS.find((d) => d.key === key);
    if (!spec) throw new Error(`unknown dataset "${key}"; known: ${DATASETS.map((d) => d.key).join(', ')}, all`);
    if (!datasetAvailable(spec, opts.dataDir)) {
      console.log(`skipped ${key}: ${spec.files.join(', ')} not found under ${opts.dataDir}`);
      continue;
    }
    specs.push(spec);
  }
  const models = opts.models.map(parseModel);

  const t0 = performance.now();
  const services: Service[] = [];
  try {
    const count = opts.url ? 1 : opts.services;
    services.push(...(await Promise.all(Array.from({ length: count }, () => serviceFromArgs(opts, { inferenceTimeoutMs: opts.timeoutMs })))));
  } catch (error) {
    await Promise.all(services.map((s) => s.close()));
    throw error;
  }
  const startupS = (performance.now() - t0) / 1000;
  const results: PairResult[] = [];
  const loaded = new Map<string, EvalSeries[]>();
  try {
    const { models: served } = await call<{ models: ModelInfo[] }>(services[0], 'GET', '/v1/models');
    for (const model of models) {
      // model "auto" is no catalog model: no size, no context cap (its candidates cut their own), no warm-up of its own
      const info = model.id === 'auto' ? { model_id: 'auto', sizes: ['auto'], default_size: 'auto', size_limits: {} } : served.find((m) => m.model_id === model.id);
      const size = model.size ?? info?.default_size ?? 'default';
      const fail = (error: string) => {
        for (const spec of specs) results.push({ dataset: spec, model: model.id, size, seriesTotal: 0, seriesUsed: 0, series: [], published: publishedFor(spec.key, model.id, size), forecastS: 0, requests: 0, warnings: new Map(), contextCut: null, error });
        console.log(`${model.id}${model.size ? `:${model.size}` : ''}: ${error}`);
      };
      if (!info) { fail(`not served by this deployment (GET /v1/models lists ${served.map((m) => m.model_id).join(', ')})`); continue; }
      if (!info.sizes.includes(size)) { fail(`unknown size "${size}" (sizes: ${info.sizes.join(', ')})`); continue; }
      // load the model on every worker first, so that the forecast time below is inference only
      const w0 = performance.now();
      try {
        if (model.id !== 'auto') await Promise.all(services.map((s) => call(s, 'GET', `/v1/warmup?${new URLSearchParams({ model: model.id, model_size: size })}`)));
      } catch (error) {
        fail(`warm-up failed: ${(error as Error).message.slice(0, 300)}`);
        continue;
      }
      console.log(`${model.id} (${size}): warm-up ${((performance.now() - w0) / 1000).toFixed(2)} s`);
      for (const spec of specs) {
        if (!loaded.has(spec.key)) loaded.set(spec.key, spec.load(opts.dataDir));
        const r = await evaluatePair(services, spec, model, size, info, opts, loaded.get(spec.key)!);
        results.push(r);
        const s = r.scores;
        const p = r.published[0];
        console.log(r.error
          ? `  ${spec.key.padEnd(18)} ERROR after ${r.forecastS.toFixed(1)} s: ${r.error.slice(0, 300)}`
          : `  ${spec.key.padEnd(18)} ${String(r.seriesUsed).padStart(5)} series  MASE ${s!.mase.toFixed(4)}${p?.mase !== undefined ? ` (published ${p.mase.toFixed(4)})` : ''}  WQL ${s!.wql.toFixed(4)}  sMAPE ${s!.smape.toFixed(3)}  ${r.forecastS.toFixed(1)} s`);
      }
    }
  } finally {
    await Promise.all(services.map((s) => s.close()));
  }
  const totalS = (performance.now() - started) / 1000;

  // ---- files
  mkdirSync(opts.outDir, { recursive: true });
  const base = resolve(opts.outDir, opts.name);
  writeFileSync(`${base}-series.csv`, ['dataset,model,size,id,n_train,n_context,mase,smape,wql,nd',
    ...results.flatMap((r) => r.series.map((s) => [r.dataset.key, r.model, r.size, s.id, s.nTrain, s.nContext, s.mase, s.smape, s.wql, s.nd].map(csvCell).join(',')))].join('\n') + '\n');
  const aggregateHeader = 'dataset,model,size,freq,horizon,m,series,series_total,mase,smape,wql,nd,published_source,published_mase,published_smape,published_wql,published_nd,diff_mase,diff_smape,diff_wql,diff_nd,leak,forecast_s,s_per_series,extrapolated_full_s,requests,warnings,error';
  const d = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined ? undefined : a - b);
  writeFileSync(`${base}-aggregate.csv`, [aggregateHeader, ...results.flatMap((r) => (r.published.length ? r.published : [undefined]).map((p) => [
    r.dataset.key, r.model, r.size, r.dataset.freq, r.dataset.horizon, r.dataset.m, r.seriesUsed, r.seriesTotal,
    r.scores?.mase, r.scores?.smape, r.scores?.wql, r.scores?.nd,
    p?.source, p?.mase, p?.smape, p?.wql, p?.nd,
    d(r.scores?.mase, p?.mase), d(r.scores?.smape, p?.smape), d(r.scores?.wql, p?.wql), d(r.scores?.nd, p?.nd),
    p?.leak ? 'yes' : '', r.forecastS, r.seriesUsed ? r.forecastS / r.seriesUsed : undefined,
    r.seriesUsed ? (r.forecastS * r.seriesTotal) / r.seriesUsed : undefined, r.requests,
    [...r.warnings].map(([k, n]) => `${n}x ${k}`).join('; '), r.error,
  ].map(csvCell).join(',')))].join('\n') + '\n');

  const seasonLength = loadCatalog().season_length;
  const md: string[] = [];
  md.push(`# Evaluation run \`${opts.name}\``, '');
  md.push(`- date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; machine: ${machineDescription()}; commit ${gitDescription()}`);
  md.push(`- command: \`node eval/run.ts ${process.argv.slice(2).join(' ')}\``);
  md.push(`- service: ${opts.url ? opts.url : `${services.length} in-process service(s), inference timeout ${opts.timeoutMs} ms`}; ${opts.concurrency} request(s) in flight per service, ≤ ${opts.batch} series and ≤ ${opts.maxPoints} observations per request${opts.context ? `; context ${opts.context}` : ''}`);
  md.push(`- whole evaluation: ${totalS.toFixed(1)} s (service start ${startupS.toFixed(1)} s)`, '');
  md.push('MASE and sMAPE of the median (0.5 quantile), WQL over the quantiles 0.1…0.9, ND = Σ|y−ŷ|/Σ|y|; `diff` = ours − published; `*` = the published model saw this dataset in training. See eval/README.md.', '');
  md.push(markdownTable(results), '');
  md.push('## Notes per dataset and model', '');
  for (const r of results) {
    const notes = [...(r.dataset.note ? [`dataset: ${r.dataset.note}`] : []), ...pairNotes(r, seasonLength)];
    if (r.error) notes.unshift(`ERROR: ${r.error}`);
    md.push(`- **${r.dataset.key} / ${r.size === 'default' || r.size === 'auto' ? r.model : `${r.model}:${r.size}`}** (freq ${r.dataset.freq}, h ${r.dataset.horizon}, m ${r.dataset.m}; ${r.forecastS.toFixed(1)} s, ${r.requests} requests)`);
    for (const n of notes) md.push(`  - ${n}`);
  }
  const board = opts.leaderboard ? leaderboard(results, specs, opts.baseline ?? []) : undefined;
  if (board) md.push('', '## Leaderboard', '', board.markdown);
  writeFileSync(`${base}.md`, md.join('\n') + '\n');

  if (!opts.quiet) {
    console.log('');
    console.log(consoleTable(results));
    console.log('');
    console.log('MASE/sMAPE of the median, WQL over 0.1..0.9, ND = sum|y-yhat|/sum|y|; diff = ours - published; * = published model saw the dataset in training.');
  }
  if (board) console.log(`\n${board.console}`);
  console.log(`whole evaluation: ${totalS.toFixed(1)} s (service start ${startupS.toFixed(1)} s); files: ${base}.md, ${base}-aggregate.csv, ${base}-series.csv`);
  return results;
}

// ---------------------------------------------------------------------------------------------
// leaderboard: per dataset, every model and auto ranked by MASE and by WQL

interface BoardRow { model: string; mase: number; wql: number; source: string }

/** Single-model rows of an earlier run: its -aggregate.csv, or the table of its .md. */
export function readBaseline(file: string): Map<string, BoardRow[]> {
  const out = new Map<string, BoardRow[]>();
  const add = (dataset: string, row: BoardRow) => {
    const rows = out.get(dataset) ?? [];
    if (!rows.some((r) => r.model === row.model)) rows.push(row);
    out.set(dataset, rows);
  };
  const text = readFileSync(file, 'utf8');
  const source = basename(file);
  if (file.endsWith('.csv')) {
    const [header, ...lines] = text.trim().split('\n');
    const cols = header.split(',');
    const at = (cells: string[], name: string) => cells[cols.indexOf(name)];
    for (const line of lines) {
      const cells = line.split(','); // the first columns hold no commas
      const model = at(cells, 'size') === 'default' ? at(cells, 'model') : `${at(cells, 'model')}:${at(cells, 'size')}`;
      if (at(cells, 'model') !== 'auto' && at(cells, 'mase')) add(at(cells, 'dataset'), { model, mase: Number(at(cells, 'mase')), wql: Number(at(cells, 'wql')), source });
    }
    return out;
  }
  // the run's markdown table: | dataset | model | series | MASE | pub | diff | WQL | ...
  let dataset = '';
  let model = '';
  for (const line of text.split('\n')) {
    if (!line.startsWith('| ') || line.startsWith('| dataset')) continue;
    const cells = line.slice(2, -2).split(' | ').map((c) => c.trim());
    if (cells[0]) dataset = cells[0];
    if (cells[1]) model = cells[1];
    if (!cells[3] || !/^[0-9.]+$/.test(cells[3]) || model === 'auto') continue;
    add(dataset, { model, mase: Number(cells[3]), wql: Number(cells[6]), source });
  }
  return out;
}

export function leaderboard(results: PairResult[], specs: DatasetSpec[], baselines: string[]): { console: string; markdown: string } {
  const lines: string[] = [];
  const md: string[] = ['| dataset | rank by MASE | rank by WQL | auto vs best single: MASE | WQL |', '|---|---|---|---|---|'];
  const fromFiles = baselines.map(readBaseline);
  const pct = (a: number, b: number) => `${a <= b ? '' : '+'}${(100 * (a / b - 1)).toFixed(1)} %`;
  for (const spec of specs) {
    const rows: BoardRow[] = results.filter((r) => r.dataset.key === spec.key && r.scores)
      .map((r) => ({ model: r.size === 'default' || r.size === 'auto' ? r.model : `${r.model}:${r.size}`, mase: r.scores!.mase, wql: r.scores!.wql, source: 'this run' }));
    for (const file of fromFiles) for (const row of file.get(spec.key) ?? []) if (!rows.some((r) => r.model === row.model)) rows.push(row);
    if (!rows.length) continue;
    const by = (key: 'mase' | 'wql') => [...rows].sort((a, b) => a[key] - b[key]).map((r, i) => `${i + 1}. ${r.model} ${r[key].toFixed(4)}${r.source === 'this run' ? '' : ` (${r.source})`}`);
    const auto = rows.find((r) => r.model === 'auto');
    const singles = rows.filter((r) => r.model !== 'auto');
    const gap = auto && singles.length
      ? [pct(auto.mase, Math.min(...singles.map((r) => r.mase))), pct(auto.wql, Math.min(...singles.map((r) => r.wql)))]
      : ['-', '-'];
    lines.push(`${spec.key}`, `  by MASE: ${by('mase').join('  ')}`, `  by WQL:  ${by('wql').join('  ')}`, `  auto vs best single model: MASE ${gap[0]}, WQL ${gap[1]}`);
    md.push(`| ${spec.key} | ${by('mase').join('<br>')} | ${by('wql').join('<br>')} | ${gap[0]} | ${gap[1]} |`);
  }
  return { console: ['Leaderboard (lower is better)', ...lines].join('\n'), markdown: md.join('\n') };
}

export const DEFAULT_OPTIONS = {
  services: 1, concurrency: 2, batch: 64, maxPoints: 200_000, dataDir: DEFAULT_DATA_DIR,
  outDir: fileURLToPath(new URL('./results/', import.meta.url)), timeoutMs: HARNESS_INFERENCE_TIMEOUT_MS,
};

function stamp(): string {
  return new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
}

async function main(): Promise<void> {
  const { values: a } = parseArgs({
    options: {
      models: { type: 'string' },
      leaderboard: { type: 'boolean', default: false },
      'auto-candidates': { type: 'string' },
      'auto-scope': { type: 'string' },
      'auto-metric': { type: 'string' },
      baseline: { type: 'string' },
      datasets: { type: 'string', default: 'all' },
      'max-series': { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
      services: { type: 'string', default: String(DEFAULT_OPTIONS.services) },
      concurrency: { type: 'string', default: String(DEFAULT_OPTIONS.concurrency) },
      batch: { type: 'string', default: String(DEFAULT_OPTIONS.batch) },
      'max-points': { type: 'string', default: String(DEFAULT_OPTIONS.maxPoints) },
      context: { type: 'string' },
      data: { type: 'string', default: DEFAULT_OPTIONS.dataDir },
      out: { type: 'string', default: DEFAULT_OPTIONS.outDir },
      name: { type: 'string' },
      'timeout-ms': { type: 'string', default: String(process.env.HORIZON_INFERENCE_TIMEOUT_MS ?? DEFAULT_OPTIONS.timeoutMs) },
    },
  });
  const int = (name: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got "${v}"`);
    return n;
  };
  const split = (v: string | undefined) => (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const models = split(a.models ?? (a.leaderboard ? 'auto-ets,auto-theta,seasonal-naive,auto' : 'seasonal-naive'));
  const scope = a['auto-scope'];
  if (scope !== undefined && scope !== 'series' && scope !== 'request') throw new Error(`--auto-scope must be series or request, got "${scope}"`);
  const metric = a['auto-metric'];
  if (metric !== undefined && !['wql', 'mase', 'smape'].includes(metric)) throw new Error(`--auto-metric must be wql, mase or smape, got "${metric}"`);
  // auto's candidates: as given, else the run's other models, else the service's default
  const others = models.filter((m) => m !== 'auto');
  await runEvaluation({
    models,
    leaderboard: a.leaderboard, baseline: split(a.baseline),
    autoCandidates: a['auto-candidates'] ? split(a['auto-candidates']) : others.length ? others : undefined,
    autoScope: scope as 'series' | 'request' | undefined, autoMetric: metric as 'wql' | 'mase' | 'smape' | undefined,
    datasets: a.datasets!.split(',').map((s) => s.trim()).filter(Boolean),
    url: a.url, key: a.key,
    maxSeries: int('max-series', a['max-series']),
    services: int('services', a.services)!, concurrency: int('concurrency', a.concurrency)!,
    batch: int('batch', a.batch)!, maxPoints: int('max-points', a['max-points'])!,
    context: int('context', a.context), dataDir: a.data!, outDir: a.out!,
    name: a.name ?? `run-${stamp()}`, timeoutMs: int('timeout-ms', a['timeout-ms'])!,
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
