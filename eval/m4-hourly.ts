// M4-Hourly through the public API: 414 series, official train/test split, horizon 48, freq H.
// Every forecast goes over real HTTP through POST /v1/forecast, so the number checks the whole
// path (validation, normalisation, worker, response shaping), not just the model.
//
//   node eval/m4-hourly.ts [--model seasonal-naive] [--model-size S] [--batch 50] [--concurrency 2]
//                          [--url URL --key KEY]
//
// Prints MASE (m = 24), sMAPE (%) and WQL beside the published numbers; per-series scores go to
// eval/results/m4-hourly-<model>.csv (git-ignored).
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { mase, smape, wql, mean, type QuantileForecast } from '../src/metrics.ts';
import { serviceFromArgs } from './service.ts';

const DATA = '/work/shared/datasets/m4';
const HORIZON = 48;
const SEASON = 24;
const LEVELS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];
// M4-info.csv (the real start dates) is absent, so every series starts at one arbitrary fixed hour;
// none of the served models uses calendar features, so the choice does not change the forecasts.
const START_MS = Date.UTC(2000, 0, 1);

// Published M4-Hourly scores by model id: MASE, sMAPE (%), WQL. seasonal-naive/naive MASE and sMAPE
// are the official M4 ones (data.md C1, = GIFT-Eval to 4 dp); everything else and all WQL values
// are GIFT-Eval (C2). The naive baselines' WQL is not comparable 1:1 (GIFT-Eval derives their
// quantiles its own way). Foundation-model rows are the same model family, not necessarily the
// same size/checkpoint as ours.
const PUBLISHED: Record<string, { mase: number; smape: number; wql: number; source: string }> = {
  'seasonal-naive': { mase: 1.1932, smape: 13.912, wql: 0.0376, source: 'M4 official sNaive (WQL: GIFT-Eval)' },
  naive: { mase: 11.6077, smape: 43.003, wql: 0.1365, source: 'M4 official Naive (WQL: GIFT-Eval)' },
  'auto-arima': { mase: 1.03, smape: 13.70, wql: 0.0337, source: 'GIFT-Eval auto_arima' },
  'auto-ets': { mase: 1.61, smape: 17.20, wql: 0.0696, source: 'GIFT-Eval auto_ets' },
  'auto-theta': { mase: 2.46, smape: 20.30, wql: 0.0414, source: 'GIFT-Eval auto_theta' },
  'chronos-2': { mase: 0.7884, smape: 8.47, wql: 0.0232, source: 'GIFT-Eval chronos-2' },
  'timesfm-2': { mase: 0.7336, smape: 8.61, wql: 0.0236, source: 'GIFT-Eval TimesFM-2.5' },
  tirex: { mase: 0.7222, smape: 7.85, wql: 0.0202, source: 'GIFT-Eval TiRex' },
  'moirai-2': { mase: 0.8085, smape: 8.57, wql: 0.0236, source: 'GIFT-Eval Moirai2' },
  'tabpfn-ts': { mase: 0.7386, smape: 8.75, wql: 0.0296, source: 'GIFT-Eval tabpfn_ts' },
};

interface Series { id: string; train: number[]; test: number[] }

/** M4 wide CSV: `"V1"` header, then `"H1","619",...`; rows are right-padded with empty cells. */
function readWide(path: string): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  for (const line of readFileSync(path, 'utf8').split('\n').slice(1)) {
    if (!line.trim()) continue;
    const cells = line.trim().split(',').map((c) => c.replace(/"/g, ''));
    rows.set(cells[0], cells.slice(1).filter((c) => c !== '').map(Number));
  }
  return rows;
}

function loadM4Hourly(): Series[] {
  const train = readWide(`${DATA}/Hourly-train.csv`);
  const test = readWide(`${DATA}/Hourly-test.csv`);
  return [...train].map(([id, values]) => {
    const actual = test.get(id);
    if (!actual || actual.length !== HORIZON) throw new Error(`${id}: test window has ${actual?.length} values, expected ${HORIZON}`);
    return { id, train: values, test: actual };
  });
}

function hourlyIndex(n: number): string[] {
  return Array.from({ length: n }, (_, i) => new Date(START_MS + i * 3_600_000).toISOString().slice(0, 16));
}

interface Prediction { mean: number[]; [level: string]: number[] }

async function forecastBatch(url: string, key: string, model: string, size: string | undefined, batch: Series[]): Promise<Prediction[]> {
  const body = {
    model, ...(size ? { model_size: size } : {}), freq: 'H', horizon: HORIZON, quantiles: LEVELS,
    series: batch.map((s) => ({ target: s.train, index: hourlyIndex(s.train.length) })),
  };
  const res = await request(`${url}/v1/forecast`, {
    method: 'POST', body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    headersTimeout: 600_000, bodyTimeout: 600_000,
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`POST /v1/forecast answered ${res.statusCode}: ${text.slice(0, 2000)}`);
  const json = JSON.parse(text) as { series: { prediction: Prediction }[][] };
  return json.series.map((s) => s[0].prediction);
}

async function warmup(url: string, key: string, model: string, size: string | undefined): Promise<void> {
  const query = new URLSearchParams({ model, ...(size ? { model_size: size } : {}) });
  const res = await request(`${url}/v1/warmup?${query}`, { headers: { authorization: `Bearer ${key}` }, headersTimeout: 600_000 });
  const text = await res.body.text();
  if (res.statusCode !== 200) throw new Error(`GET /v1/warmup answered ${res.statusCode}: ${text.slice(0, 2000)}`);
}

/** Runs `fn` over `items` with at most `limit` calls in flight, keeping the order of results. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) { const i = next++; results[i] = await fn(items[i]); }
  }));
  return results;
}

const { values: args } = parseArgs({
  options: {
    model: { type: 'string', default: 'seasonal-naive' },
    'model-size': { type: 'string' },
    batch: { type: 'string', default: '50' },
    // 2 in flight keeps the worker busy while the control plane encodes/decodes the next batch
    concurrency: { type: 'string', default: '2' },
    url: { type: 'string' },
    key: { type: 'string' },
  },
});
const model = args.model!;
const batchSize = Number(args.batch);

const series = loadM4Hourly();
const startup = performance.now();
const service = await serviceFromArgs(args);
const startupMs = performance.now() - startup;
try {
  const batches: Series[][] = [];
  for (let i = 0; i < series.length; i += batchSize) batches.push(series.slice(i, i + batchSize));
  // load the model first so that the forecast runtime below is inference, not checkpoint loading
  const warm = performance.now();
  await warmup(service.url, service.key, model, args['model-size']);
  const warmupMs = performance.now() - warm;
  const t0 = performance.now();
  const predictions = (await mapLimit(batches, Number(args.concurrency), (b) => forecastBatch(service.url, service.key, model, args['model-size'], b))).flat();
  const forecastMs = performance.now() - t0;

  const rows = series.map((s, i) => ({
    id: s.id,
    mase: mase(s.test, predictions[i].mean, s.train, SEASON),
    smape: smape(s.test, predictions[i].mean),
  }));
  const quantileItems: QuantileForecast[] = series.map((s, i) => ({
    actual: s.test, quantiles: new Map(LEVELS.map((q) => [q, predictions[i][String(q)]])),
  }));
  const ours = { mase: mean(rows.map((r) => r.mase)), smape: mean(rows.map((r) => r.smape)), wql: wql(quantileItems, LEVELS) };

  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  const csv = new URL(`./results/m4-hourly-${model}${args['model-size'] ? `-${args['model-size']}` : ''}.csv`, import.meta.url);
  writeFileSync(csv, ['id,mase,smape', ...rows.map((r) => `${r.id},${r.mase},${r.smape}`)].join('\n') + '\n');

  const published = PUBLISHED[model];
  const signed = (x: number, digits: number) => { const s = Math.abs(x).toFixed(digits); return `${x < 0 && Number(s) !== 0 ? '-' : '+'}${s}`; };
  const line = (name: string, value: number, ref: number | undefined, digits: number) =>
    `  ${name.padEnd(6)} ${value.toFixed(digits).padStart(9)}  ${ref === undefined ? '        -' : ref.toFixed(digits).padStart(9)}  ${ref === undefined ? '' : signed(value - ref, digits)}`;
  console.log(`M4-Hourly: ${series.length} series, h = ${HORIZON}, MASE m = ${SEASON}, model ${model}${args['model-size'] ? ` (${args['model-size']})` : ''}, via ${args.url ? service.url : 'in-process service'}`);
  console.log(`  metric        ours  published  diff`);
  console.log(line('MASE', ours.mase, published?.mase, 4));
  console.log(line('sMAPE', ours.smape, published?.smape, 3));
  console.log(line('WQL', ours.wql, published?.wql, 4));
  console.log(`  published: ${published?.source ?? 'no published M4-Hourly number for this model id'}`);
  console.log(`runtime: forecasts ${(forecastMs / 1000).toFixed(2)} s (${batches.length} requests of ≤ ${batchSize} series, ${args.concurrency} in flight), ` +
    `model warm-up ${(warmupMs / 1000).toFixed(2)} s${args.url ? '' : `, service start ${(startupMs / 1000).toFixed(2)} s`}`);
  console.log(`per-series scores: ${csv.pathname}`);
} finally {
  await service.close();
}
