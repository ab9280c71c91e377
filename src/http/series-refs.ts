// Forecast by reference (issue 25): `series_ids` instead of `series` on POST /v1/forecast and
// /v1/forecast-jobs. A preValidation hook reads the caller's stored series and puts them in the body as
// inline series, so the request then goes through exactly the inline path: the same schema check,
// normalisation, budget, charge and answer. `store: true` keeps each forecast for scoring.
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HorizonError, type FieldError } from '../errors.ts';
import { RequestValidationError } from '../forecasting/normalize.ts';
import { forecastRecords, inlineSeries, SERIES_ID_PATTERN, type SeriesRefs } from '../forecasting/stored-series.ts';
import type { Grid } from '../forecasting/calendar.ts';
import type { Freq } from '../runtime/catalog.ts';
import { decodeTarget, historyPoints, insertForecasts, readHistories } from '../store/series.ts';
import { ownerOf } from './auth.ts';
import { LargeBody } from './large-forecast.ts';
import { storedSeriesPayload } from '../forecasting/stored-payload.ts';
import type { AppContext } from './app-types.ts';

declare module 'fastify' {
  interface FastifyRequest { seriesRefs?: SeriesRefs }
}

const SERIES_ID = new RegExp(SERIES_ID_PATTERN);
/** One by-reference request reads at most this many series (the bench's 10,000 fit). */
export const MAX_SERIES_IDS = 100_000;
/** JSON bytes of one point of an inline series: a quoted date, a number and separators ("2026-11-26", 123.456). */
const JSON_BYTES_PER_POINT = 24;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The preValidation hook of the forecast routes that take series_ids. */
export function seriesRefsHook(deps: AppContext) {
  return async function resolveSeriesRefs(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    let body = request.body;
    // a large body stays bytes for a forecast thread, which knows nothing of stored series: one that names
    // series_ids (or has no series at all) is parsed here instead
    if (body instanceof LargeBody) {
      if (!body.bytes.includes('"series_ids"') && body.bytes.includes('"series"')) return;
      try { body = JSON.parse(body.bytes.toString('utf8')); } catch (error) { throw new HorizonError(
        'bad_json', `the body is not valid JSON (${(error as Error).message})`,
      ); }
      request.body = body;
    }
    if (!isRecord(body)) return;
    const { series_ids: ids, store } = body;
    const errors: FieldError[] = [];
    if (store !== undefined && typeof store !== 'boolean') errors.push({ field: 'store', reason: `must be true or false, got ${JSON.stringify(store)}` });
    if (ids === undefined) {
      if (store === true) errors.push({ field: 'store', reason: 'store: true keeps forecasts of stored series: it needs series_ids (PUT ' +
        '/v1/series/{id} stores a series)' });
      if (body.series === undefined) errors.push({ field: 'series', reason: 'required: the series to forecast (or series_ids, the ids of stored series)' });
      if (errors.length) throw new RequestValidationError(errors);
      delete body.store;
      return;
    }
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_SERIES_IDS) {
      errors.push({ field: 'series_ids', reason: `must be an array of 1 to ${MAX_SERIES_IDS} stored series ids` });
    } else {
      const bad = ids.findIndex((id) => typeof id !== 'string' || !SERIES_ID.test(id));
      if (bad >= 0) errors.push({ field: `series_ids[${bad}]`, reason: `${JSON.stringify(ids[bad])} is not a series id (1-128 of letters, ` +
        `digits and _ . : -)` });
      const seen = new Map<string, number>();
      ids.forEach((id, i) => {
        if (typeof id === 'string' && seen.has(id) && !errors.some((e) => e.field.startsWith('series_ids['))) errors.push(
          { field: `series_ids[${i}]`, reason: `${JSON.stringify(id)} repeats series_ids[${seen.get(id)}]` },
        );
        seen.set(id as string, i);
      });
    }
    if (body.series !== undefined) errors.push({ field: 'series_ids', reason: 'send either series (inline) or series_ids (stored series), not both' });
    if (errors.length) throw new RequestValidationError(errors);
    const owner = ownerOf(request);
    const names = ids as string[];
    const rows = await readHistories(deps.database.db, owner.accountId, names);
    const missing = names.findIndex((id) => !rows.has(id));
    // another account's series does not exist for this one: the same 404 as an unknown id
    if (missing >= 0) throw new HorizonError('not_found', `no stored series "${names[missing]}" for this account (series_ids[${missing}])`);
    const ordered = names.map((id) => rows.get(id)!);
    const freq = ordered[0].freq as Freq;
    const other = ordered.findIndex((r) => r.freq !== freq);
    if (other >= 0) throw new RequestValidationError([{ field: `series_ids[${other}]`, reason: `series "${names[other]}" has freq ${ordered[other].freq}, ` +
      `series "${names[0]}" has ${freq}: one request forecasts one freq` }]);
    if (body.freq !== undefined && body.freq !== freq) throw new RequestValidationError([{ field: 'freq', reason: `the stored series have freq ${freq}, ` +
      `not ${JSON.stringify(body.freq)} (freq may be left out with series_ids)` }]);
    body.freq = freq;
    delete body.series_ids;
    delete body.store;
    request.seriesRefs = { ids: names, firstSteps: ordered.map(historyPoints), freq, store: store === true };
    // a large by-reference forecast (not kept) takes the inline path's forecast thread too, its series sent as
    // numbers: the thread rebuilds the body a client would have sent and validates, normalises and encodes it
    // off the event loop (large-forecast.ts, stored-payload.ts). Its size is estimated (a date and a value are
    // about JSON_BYTES_PER_POINT bytes of JSON) rather than written out to be measured.
    const minBytes = deps.config.requestThreadMinBytes ?? 0;
    if (store !== true && deps.answerThreads && minBytes > 0 && request.routeOptions.url === '/v1/forecast'
      && ordered.reduce((n, r) => n + historyPoints(r), 0) * JSON_BYTES_PER_POINT >= minBytes) {
      request.body = new LargeBody(Buffer.alloc(0), storedSeriesPayload(body, ordered));
      return;
    }
    const dates = new Map<string, string[]>();
    body.series = ordered.map((r) => inlineSeries(r.grid as Grid, decodeTarget(r.bytes), dates));
  };
}

/** Stores a sync by-reference forecast's results (store: true) before the answer is sent. */
export async function storeSyncForecasts(
  deps: AppContext, request: FastifyRequest, asked: { horizon: number; quantiles: number[]; context?: number }, result: unknown,
): Promise<void> {
  const refs = request.seriesRefs;
  if (!refs?.store) return;
  const records = forecastRecords(
    ownerOf(request).accountId, refs, asked, result as Parameters<typeof forecastRecords>[3], deps.registry.catalog, () => randomUUID(),
  );
  await insertForecasts(deps.database.db, records);
}
