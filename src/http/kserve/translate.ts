// KServe time-series requests onto POST /v1/forecast and its answer back (docs/api.md "KServe time-series protocol").
// Each univariate input is one Horizon series; each variate of a multivariate input (series[t][v]: step t, variate v)
// is one Horizon series of its own. Dates: start_timestamp dates the first value on the frequency's grid.
import type { Static } from '@fastify/type-provider-typebox';
import type { Freq } from '../../runtime/catalog.ts';
import type { FieldError } from '../../errors.ts';
import { dateAtStep, parseIndex } from '../../forecasting/calendar.ts';
import type { KServeForecastRequest } from './schemas.ts';

export type KServeRequest = Static<typeof KServeForecastRequest>;

/** KServe's Frequency → Horizon's freq; second and minute have no Horizon grid. */
const FREQ: Record<string, Freq | undefined> = {
  hour: 'H', H: 'H', day: 'D', D: 'D', week: 'W', W: 'W', month: 'MS', M: 'MS', quarter: 'Q', Q: 'Q', year: 'Y', Y: 'Y',
};

/** The first date of a series sent without start_timestamp (documented): the answer's dates are on this calendar. */
export const SYNTHETIC_START = '2000-01-01T00:00:00Z';

/** Where Horizon series k came from: input i, and its variate v for a multivariate input. */
export interface SeriesOrigin { input: number; variate?: number }

/** The /v1/forecast body of a KServe request and the origin of each of its series; every field error at once. */
export function forecastBody(body: KServeRequest): { horizon: Record<string, unknown>; origins: SeriesOrigin[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const series: { index: string[]; target: number[] }[] = [];
  const origins: SeriesOrigin[] = [];
  const freqs = new Set<Freq>();
  body.inputs.forEach((input, i) => {
    const freq = FREQ[input.frequency];
    if (!freq) {
      errors.push({ field: `inputs[${i}].frequency`, reason: `"${input.frequency}": Horizon forecasts hourly (hour/H), daily (day/D), weekly (week/W), ` +
        'monthly (month/M), quarterly (quarter/Q) and yearly (year/Y) series; second and minute grids are not served' });
      return;
    }
    freqs.add(freq);
    const columns = variates(input, i, errors);
    if (!columns) return;
    const index = dates(freq, input.start_timestamp ?? SYNTHETIC_START, columns[0]?.length ?? 0, `inputs[${i}].start_timestamp`, errors);
    if (!index) return;
    columns.forEach((target, v) => {
      series.push({ index, target });
      origins.push(input.type === 'multivariate_time_series' ? { input: i, variate: v } : { input: i });
    });
  });
  if (freqs.size > 1) {
    errors.push({ field: 'inputs', reason: `the inputs have ${freqs.size} frequencies (${[...freqs].join(', ')}): one forecast call takes one frequency; ` +
      'send each frequency in its own request' });
  }
  const quantiles = body.options.quantiles ?? undefined;
  const horizon = { series, horizon: body.options.horizon, freq: [...freqs][0] ?? 'D', model: body.model, ...(quantiles ? { quantiles } : {}) };
  return { horizon, origins, errors };
}

/** An input's values as Horizon targets: one column for a univariate input, one per variate for a multivariate one. */
function variates(input: KServeRequest['inputs'][number], i: number, errors: FieldError[]): number[][] | undefined {
  const rows = input.series as (number | number[])[];
  const nested = rows.some((r) => Array.isArray(r));
  if (input.type === 'univariate_time_series') {
    const reason = 'univariate_time_series takes a list of numbers; a list of lists is multivariate_time_series';
    if (nested) errors.push({ field: `inputs[${i}].series`, reason });
    return nested ? undefined : [rows as number[]];
  }
  if (!rows.every((r) => Array.isArray(r)) || rows.length === 0) {
    errors.push({ field: `inputs[${i}].series`, reason: 'multivariate_time_series takes a non-empty list of steps, each a list of one value per variate' });
    return undefined;
  }
  const width = (rows[0] as number[]).length;
  const ragged = rows.findIndex((r) => (r as number[]).length !== width);
  if (width === 0 || ragged !== -1) {
    errors.push({ field: `inputs[${i}].series`, reason: width === 0 ? 'step 0 has no variates' : `step ${ragged} has ${(rows[ragged] as number[]).length} ` +
      `values but step 0 has ${width}: every step holds one value per variate` });
    return undefined;
  }
  return Array.from({ length: width }, (_, v) => rows.map((r) => (r as number[])[v]));
}

/** `length` dates on the freq's grid from `start`; a 422 on `field` when start is no date of that grid. */
function dates(freq: Freq, start: string, length: number, field: string, errors: FieldError[]): string[] | undefined {
  const parsed = parseIndex(freq, [start]);
  if (!parsed.ok) {
    errors.push({ field, reason: parsed.error.reason });
    return undefined;
  }
  return Array.from({ length }, (_, k) => dateAtStep(parsed.index.grid, k));
}

/** A /v1 field name in KServe's terms: series[k]… → inputs[i].series (variate v), horizon → options.horizon. */
export function kserveField(field: string, origins: SeriesOrigin[]): string {
  const series = /^series\[(\d+)\](?:\.(\w+))?/.exec(field);
  if (series) {
    const origin = origins[Number(series[1])];
    if (!origin) return field;
    const part = series[2] === 'index' ? 'start_timestamp' : 'series';
    return `inputs[${origin.input}].${part}${origin.variate === undefined ? '' : ` (variate ${origin.variate})`}`;
  }
  if (field === 'horizon' || field.startsWith('quantiles')) return `options.${field}`;
  if (field === 'freq') return 'inputs[].frequency';
  return field;
}

/** A forecast date as KServe writes it: YYYY-MM-DDTHH:MM:SSZ (Horizon reads and writes UTC). */
export function isoStamp(date: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(date)) return `${date}T00:00:00Z`;
  return date.endsWith('Z') ? date : `${date}Z`;
}

interface HorizonSeries { prediction: Record<string, number[]>; index: string[] }

/** /v1/forecast's answer as KServe's ForecastResponse: one output per input, its one content item per input series. */
export function forecastResponse(
  request: KServeRequest, answer: { series: HorizonSeries[][] }, origins: SeriesOrigin[], id: string,
): Record<string, unknown> {
  const asked = request.options.quantiles ?? undefined;
  const perInput = request.inputs.map(() => [] as HorizonSeries[]);
  answer.series.forEach((s, k) => perInput[origins[k].input].push(s[0]));
  const outputs = request.inputs.map((input, i) => {
    const parts = perInput[i];
    const multi = input.type === 'multivariate_time_series';
    // multivariate: step t holds one value per variate, as the input did
    const join = (key: string) => (multi ? parts[0].prediction[key].map((_, t) => parts.map((p) => p.prediction[key][t])) : parts[0].prediction[key]);
    const quantiles = asked ? Object.fromEntries(asked.map((q) => [String(q), join(String(q))])) : undefined;
    return {
      type: 'time_series_forecast', id: `${id}-${i}`, status: 'completed', error: null,
      content: [{
        type: input.type, name: input.name, mean_forecast: join('mean'), frequency: input.frequency, start_timestamp: isoStamp(parts[0].index[0]),
        ...(quantiles ? { quantiles } : {}),
      }],
    };
  });
  const observed = request.inputs.reduce((n, input) => n + (input.series as unknown[]).flat().length, 0);
  const forecast = origins.length * request.options.horizon;
  return {
    id, created_at: Math.floor(Date.now() / 1000), status: 'completed', error: null, model: request.model, outputs,
    usage: { prompt_tokens: observed, completion_tokens: forecast, total_tokens: observed + forecast },
  };
}
