// What the /infer wire encoding costs around a model call: the control plane's round trip to the
// worker for one large batch, value arrays as JSON numbers (the baseline, what the control plane sent
// before) against base64 float64 (src/runtime/wire.ts, what it sends now), in the same run.
//
//   node bench/wire-encoding.ts        # --series 256 --length 512 --horizon 64 --calls 20
//
// Each call is timed as the control plane makes it: build the body (JSON.stringify, or encode and
// stringify), POST it over a keep-alive undici Pool, read and parse the answer (JSON.parse, or parse
// and decode to number arrays). Model `naive` (a few ms for 256 series), so what differs is the
// encoding. Alternating calls (json, base64, json, ...) after one warm-up each; medians printed with
// the ratio json ÷ base64 (> 1: base64 is faster) and the worker's own `infer_ms` (the same in both).
// Measures, never asserts.
import { performance } from 'node:perf_hooks';
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { startService } from '../eval/service.ts';
import { decodeInferResponse, encodeInferRequest } from '../src/runtime/wire.ts';
import type { InferRequest } from '../src/runtime/inference.ts';
import { seriesValues } from './series.ts';

const { values: args } = parseArgs({ options: {
  series: { type: 'string', default: '256' }, length: { type: 'string', default: '512' },
  horizon: { type: 'string', default: '64' }, calls: { type: 'string', default: '20' },
} });
const [S, L, H, CALLS] = [args.series, args.length, args.horizon, args.calls].map(Number);

const request: InferRequest = {
  model: 'naive', size: 'default', freq: 'D', horizon: H, quantiles: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
  series: Array.from({ length: S }, (_, i) => ({ target: seriesValues(i, L), past_covariates: {}, future_covariates: {}, static_covariates: {} })),
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const loadBefore = loadavg()[0];
const service = await startService();
try {
  const pool = new Pool(service.server!.supervisor.endpoint('core')!, { connections: 1, keepAliveTimeout: 60_000 });
  async function call(encoding: 'json' | 'base64'): Promise<{ ms: number; inferMs: number; bytesOut: number; bytesIn: number; mean0: number }> {
    const t0 = performance.now();
    const body = JSON.stringify(encoding === 'json' ? request : encodeInferRequest(request));
    const res = await pool.request({ path: '/infer', method: 'POST', body, headers: { 'content-type': 'application/json' } });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`${encoding}: ${res.statusCode} ${text.slice(0, 300)}`);
    const answer = encoding === 'json' ? JSON.parse(text) : decodeInferResponse(JSON.parse(text));
    return { ms: performance.now() - t0, inferMs: answer.timing.infer_ms, bytesOut: body.length, bytesIn: text.length, mean0: answer.predictions[0].mean[0] };
  }
  const [warmJson, warmBase64] = [await call('json'), await call('base64')];
  if (warmJson.mean0 !== warmBase64.mean0) throw new Error(`the encodings disagree: ${warmJson.mean0} vs ${warmBase64.mean0}`);
  const runs = { json: [] as Awaited<ReturnType<typeof call>>[], base64: [] as Awaited<ReturnType<typeof call>>[] };
  for (let k = 0; k < CALLS; k++) for (const encoding of ['json', 'base64'] as const) runs[encoding].push(await call(encoding));
  await pool.close();

  console.log(`/infer round trip from the control plane — naive, ${S} series × ${L} values, horizon ${H}, 9 levels; median of ${CALLS} alternating calls`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}; load average ${loadBefore.toFixed(2)} before the run`);
  console.log('encoding  round trip ms  worker infer_ms  request MB  answer MB');
  for (const encoding of ['json', 'base64'] as const) {
    const r = runs[encoding];
    console.log(`${encoding.padEnd(8)}  ${median(r.map((x) => x.ms)).toFixed(1).padStart(13)}  ${median(r.map((x) => x.inferMs)).toFixed(1).padStart(15)}  ${(r[0].bytesOut / 1e6).toFixed(2).padStart(10)}  ${(r[0].bytesIn / 1e6).toFixed(2).padStart(9)}`);
  }
  const ratio = median(runs.json.map((x) => x.ms)) / median(runs.base64.map((x) => x.ms));
  const outside = (r: typeof runs.json) => median(r.map((x) => x.ms - x.inferMs));
  console.log(`round trip json ÷ base64: ${ratio.toFixed(2)}; time outside the model call: json ${outside(runs.json).toFixed(1)} ms, base64 ${outside(runs.base64).toFixed(1)} ms`);
} finally {
  await service.close();
}
