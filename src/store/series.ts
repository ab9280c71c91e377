// Stored series, their stored forecasts and scores (migration 010, issue 25). The tables are typed here
// (withTables) rather than in database.ts: nothing else reads them.
import { sql, type Generated, type Kysely, type Transaction } from 'kysely';
import type { Schema } from './database.ts';
import { seriesCache, type CachedHistory } from './series-cache.ts';

export interface StoredSeriesTable {
  account_id: string;
  series_id: string;
  freq: string;
  grid: unknown;
  /** float64 little-endian, NaN = missing (encodeTarget) */
  target: Uint8Array;
  schedule: unknown | null;
  drift: unknown | null;
  webhook: unknown | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface StoredForecastsTable {
  id: string;
  account_id: string;
  series_id: string;
  model: string;
  model_size: string;
  first_step: number;
  horizon: number;
  quantiles: unknown;
  season_length: number;
  context: number;
  request: unknown;
  prediction: unknown;
  forecast_index: unknown;
  issued_at: Generated<Date>;
  scored_at: Date | null;
  actuals: unknown | null;
  scores: unknown | null;
  /** the model's backtest on the series at issue time ({mase, wql, holdout}), when the forecast asked for one */
  backtest: unknown | null;
}

export interface SeriesEventsTable {
  id: string;
  account_id: string;
  series_id: string;
  kind: string;
  detail: unknown;
  created_at: Generated<Date>;
}

export interface WebhookDeliveriesTable {
  id: string;
  event_id: string;
  account_id: string;
  series_id: string;
  url: string;
  status: Generated<'pending' | 'delivered' | 'failed'>;
  attempts: Generated<number>;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: Generated<Date>;
  delivered_at: Date | null;
  created_at: Generated<Date>;
}

export interface SeriesSchema extends Schema {
  stored_series: StoredSeriesTable;
  stored_forecasts: StoredForecastsTable;
  series_events: SeriesEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
}

export type SeriesDb = Kysely<SeriesSchema>;
export const seriesDb = (db: Kysely<Schema>): SeriesDb => db.withTables<Omit<SeriesSchema, keyof Schema>>() as SeriesDb;

export interface SeriesRow {
  account_id: string;
  series_id: string;
  freq: string;
  grid: unknown;
  target: (number | null)[];
  schedule: unknown | null;
  drift: unknown | null;
  webhook: unknown | null;
  created_at: Date;
  updated_at: Date;
}

export interface SeriesSummary { series_id: string; freq: string; points: number; created_at: Date; updated_at: Date }

/** A history as stored: float64 little-endian, NaN for a missing value. */
export function encodeTarget(values: readonly (number | null)[]): Buffer {
  const bytes = Buffer.allocUnsafe(values.length * 8);
  for (let k = 0; k < values.length; k++) bytes.writeDoubleLE(values[k] ?? NaN, k * 8);
  return bytes;
}

export function decodeTarget(stored: Uint8Array | string): (number | null)[] {
  const bytes = typeof stored === 'string' ? Buffer.from(stored, 'base64') : stored;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Array<number | null>(bytes.byteLength / 8);
  for (let k = 0; k < out.length; k++) {
    const v = view.getFloat64(k * 8, true);
    out[k] = Number.isNaN(v) ? null : v;
  }
  return out;
}

/** The columns of a series row; the history as base64 text: PGlite decodes a bytea result column about
 * 10× slower than the same bytes as text (bench/README.md, stored-series). */
const SERIES_COLUMNS = [
  'account_id', 'series_id', 'freq', 'grid', 'schedule', 'drift', 'webhook', 'created_at', 'updated_at', sql<string>`encode(target, 'base64')`.as('target'),
] as const;

/** A row as read: the history decoded. */
function decoded<T extends { target: unknown }>(row: T): T & { target: (number | null)[] } {
  return { ...row, target: decodeTarget(row.target as Uint8Array | string) };
}

export async function getSeries(db: Kysely<Schema>, accountId: string, seriesId: string): Promise<SeriesRow | undefined> {
  const row = await seriesDb(db).selectFrom('stored_series').select([...SERIES_COLUMNS])
    .where('account_id', '=', accountId).where('series_id', '=', seriesId).executeTakeFirst();
  return row && decoded(row);
}

/** What a forecast by reference or a bulk append needs of many series: the fewest columns (a PGlite row
 * costs per column decoded), the grid parsed once per distinct grid (`gridKey`: its JSON text), the history
 * as its stored bytes (float64 little-endian, NaN = missing; decodeTarget makes the array): a large forecast
 * copies the bytes into one Float64Array without building 10,000 arrays of numbers first. */
export type SeriesHistory = CachedHistory;

export const historyPoints = (h: Pick<SeriesHistory, 'bytes'>): number => h.bytes.byteLength / 8;

/** The histories of `seriesIds` (absent: no such series for this account). The embedded store answers
 * from its cache what it holds (series-cache.ts); a read inside a transaction or `forUpdate` reads the store. */
export async function readHistories(
  db: Kysely<Schema> | Transaction<Schema>, accountId: string, seriesIds: string[], options: { forUpdate?: boolean } = {},
): Promise<Map<string, SeriesHistory>> {
  if (seriesIds.length === 0) return new Map();
  const cache = options.forUpdate ? undefined : seriesCache(db);
  const cached = cache?.lookup(accountId, seriesIds);
  const wanted = [...new Set(seriesIds)].filter((id) => !cached?.has(id));
  if (wanted.length === 0) return cached!;
  const token = cache?.readStarted();
  const read = await readStoredHistories(db, accountId, wanted, options);
  if (cache) cache.fill(token!, accountId, read.values());
  if (!cached?.size) return read;
  for (const [id, h] of read) cached.set(id, h);
  return cached;
}

/** JSON.parse of a grid's text, once per distinct text (10,000 series of one grid share one object). */
function gridParser(): (text: string) => unknown {
  const grids = new Map<string, unknown>();
  return (text) => { let g = grids.get(text); if (g === undefined) grids.set(text, g = JSON.parse(text)); return g; };
}

async function readStoredHistories(
  db: Kysely<Schema> | Transaction<Schema>, accountId: string, seriesIds: string[], options: { forUpdate?: boolean },
): Promise<Map<string, SeriesHistory>> {
  const lock = options.forUpdate ? sql` ORDER BY series_id FOR UPDATE` : sql``;
  const { rows } = await sql<{ series_id: string; freq: string; grid: string; target: string; schedule: string | null }>`
    SELECT series_id, freq, grid::text AS grid, encode(target, 'base64') AS target, schedule::text AS schedule FROM stored_series
    WHERE account_id = ${accountId} AND series_id = ANY(${seriesIds}::text[])${lock}`.execute(db);
  const parsed = gridParser();
  return new Map(rows.map((r) => [r.series_id, {
    series_id: r.series_id, freq: r.freq, grid: parsed(r.grid), gridKey: r.grid, bytes: Buffer.from(r.target, 'base64'),
    schedule: r.schedule === null ? null : JSON.parse(r.schedule),
  }]));
}

/** Runs the transaction `work` that writes the series `seriesIds` (and changes their cache entries inside,
 * before its COMMIT, so that the next transaction sees them); when it fails, their cache entries go. */
async function writing<T>(db: Kysely<Schema>, accountId: string, seriesIds: () => Iterable<string>, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    seriesCache(db)?.forget(accountId, seriesIds());
    throw error;
  }
}

export async function getManySeries(db: Kysely<Schema>, accountId: string, seriesIds: string[]): Promise<Map<string, SeriesRow>> {
  if (seriesIds.length === 0) return new Map();
  // one array parameter: an IN list of 10,000 parameters is planned in time quadratic in its length
  const rows = await seriesDb(db).selectFrom('stored_series').select([...SERIES_COLUMNS]).where('account_id', '=', accountId).where(
    sql<boolean>`series_id = ANY(${[...new Set(seriesIds)]}::text[])`,
  ).execute();
  return new Map(rows.map((r) => [r.series_id, decoded(r)]));
}

export async function listSeries(db: Kysely<Schema>, accountId: string, options: { limit: number; after?: string }): Promise<SeriesSummary[]> {
  let query = seriesDb(db).selectFrom('stored_series')
    .select(['series_id', 'freq', 'created_at', 'updated_at', sql<number>`length(target) / 8`.as('points')])
    .where('account_id', '=', accountId);
  if (options.after !== undefined) query = query.where('series_id', '>', options.after);
  const rows = await query.orderBy('series_id').limit(options.limit).execute();
  return rows.map((r) => ({ ...r, points: Number(r.points) }));
}

export async function countSeries(db: Kysely<Schema> | Transaction<Schema>, accountId: string): Promise<number> {
  const row = await seriesDb(db as Kysely<Schema>).selectFrom('stored_series').select(
    (eb) => eb.fn.countAll<number>().as('n'),
  ).where('account_id', '=', accountId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface SeriesWrite {
  freq: string; grid: unknown; target: (number | null)[]; schedule: unknown | null; drift: unknown | null; webhook: unknown | null;
}

/**
 * Creates or replaces a series. A replacement drops the forecasts not yet scored (they would be scored
 * against a different history); scored ones stay in the accuracy record. `maxSeries` is checked in the
 * transaction that creates, under a lock on the account row, so concurrent creations cannot overshoot it.
 */
export async function putSeries(
  db: Kysely<Schema>, accountId: string, seriesId: string, write: SeriesWrite, maxSeries: number,
): Promise<{ created: boolean } | { limit: number }> {
  return await writing(db, accountId, () => [seriesId], () => db.transaction().execute(async (trx) => {
    seriesCache(db)?.replaced(accountId, seriesId); // read again from the store (its grid text is the store's)
    const tx = seriesDb(trx as unknown as Kysely<Schema>);
    await sql`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`.execute(tx);
    const existing = await tx.selectFrom('stored_series').select('series_id')
      .where('account_id', '=', accountId).where('series_id', '=', seriesId).executeTakeFirst();
    const values = {
      freq: write.freq, grid: JSON.stringify(write.grid), target: encodeTarget(write.target),
      schedule: write.schedule === null ? null : JSON.stringify(write.schedule),
      drift: write.drift === null ? null : JSON.stringify(write.drift),
      webhook: write.webhook === null ? null : JSON.stringify(write.webhook),
    };
    if (existing) {
      await tx.updateTable('stored_series').set(
        { ...values, updated_at: sql`now()` } as never,
      ).where('account_id', '=', accountId).where('series_id', '=', seriesId).execute();
      await tx.deleteFrom('stored_forecasts').where('account_id', '=', accountId).where('series_id', '=', seriesId).where('scored_at', 'is', null).execute();
      return { created: false };
    }
    if (maxSeries > 0 && (await countSeries(trx, accountId)) >= maxSeries) return { limit: maxSeries };
    await tx.insertInto('stored_series').values({ account_id: accountId, series_id: seriesId, ...values } as never).execute();
    return { created: true };
  }));
}

export async function deleteSeries(db: Kysely<Schema>, accountId: string, seriesId: string): Promise<boolean> {
  seriesCache(db)?.replaced(accountId, seriesId);
  const result = await seriesDb(db).deleteFrom('stored_series').where('account_id', '=', accountId).where('series_id', '=', seriesId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Appends to a series under a row lock: `decide` sees the stored row and returns the values to add at
 * its end (or throws, e.g. a 422); nothing is written when it returns none.
 */
export async function appendToSeries<T extends { append: (number | null)[] }>(
  db: Kysely<Schema>, accountId: string, seriesId: string, decide: (row: SeriesRow) => T,
): Promise<{ row: SeriesRow; decision: T } | undefined> {
  return await writing(db, accountId, () => [seriesId], () => db.transaction().execute(async (trx) => {
    const tx = seriesDb(trx as unknown as Kysely<Schema>);
    const stored = await tx.selectFrom('stored_series').select([...SERIES_COLUMNS])
      .where('account_id', '=', accountId).where('series_id', '=', seriesId).forUpdate().executeTakeFirst();
    if (!stored) return undefined;
    const row = decoded(stored);
    const decision = decide(row);
    if (decision.append.length > 0) {
      const added = encodeTarget(decision.append);
      await tx.updateTable('stored_series')
        .set({ target: sql`target || ${added}`, updated_at: sql`now()` } as never)
        .where('account_id', '=', accountId).where('series_id', '=', seriesId).execute();
      seriesCache(db)?.appended(accountId, seriesId, added);
    }
    return { row, decision };
  }));
}

export type ForecastInsert = Omit<StoredForecastsTable, 'issued_at' | 'scored_at' | 'actuals' | 'scores'>;

/** Idempotent by id (a job redelivered after storing its forecasts stores nothing twice). */
export async function insertForecasts(db: Kysely<Schema>, rows: ForecastInsert[]): Promise<void> {
  const json = (v: unknown) => JSON.stringify(v);
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows.slice(i, i + 500).map(
      (r) => ({ ...r, quantiles: json(r.quantiles), request: json(r.request), prediction: json(r.prediction), forecast_index: json(r.forecast_index) }),
    );
    await seriesDb(db).insertInto('stored_forecasts').values(chunk as never).onConflict((oc) => oc.column('id').doNothing()).execute();
  }
}

export type ForecastRow = Omit<StoredForecastsTable, 'issued_at'> & { issued_at: Date };

/** Forecasts of a series whose every step the series now covers and that are not scored yet. */
export async function dueForecasts(db: Kysely<Schema>, accountId: string, seriesId: string, points: number): Promise<ForecastRow[]> {
  return await seriesDb(db).selectFrom('stored_forecasts').selectAll()
    .where('account_id', '=', accountId).where('series_id', '=', seriesId).where('scored_at', 'is', null)
    .where(sql<boolean>`first_step + horizon <= ${points}`)
    .orderBy('first_step').execute() as ForecastRow[];
}

/** Series with at least one unscored forecast: the sweep's work list (after a restart or a lost wake-up). */
export async function seriesWithPendingForecasts(db: Kysely<Schema>, limit: number): Promise<{ account_id: string; series_id: string }[]> {
  return await seriesDb(db).selectFrom('stored_forecasts').select(['account_id', 'series_id']).distinct()
    .where('scored_at', 'is', null).limit(limit).execute();
}

/** Which of these series of an account have unscored forecasts. */
export async function seriesWithPendingForecastsAmong(db: Kysely<Schema>, accountId: string, seriesIds: string[]): Promise<string[]> {
  if (seriesIds.length === 0) return [];
  const rows = await seriesDb(db).selectFrom('stored_forecasts').select('series_id').distinct()
    .where('account_id', '=', accountId).where('scored_at', 'is', null).where(sql<boolean>`series_id = ANY(${seriesIds}::text[])`).execute();
  return rows.map((r) => r.series_id);
}

/** Writes a forecast's actuals and scores once: false when it was already scored (by this or another process). */
export async function recordScore(db: Kysely<Schema> | Transaction<Schema>, id: string, actuals: (number | null)[], scores: unknown): Promise<boolean> {
  const result = await seriesDb(db as Kysely<Schema>).updateTable('stored_forecasts')
    .set({ scored_at: sql`now()`, actuals: JSON.stringify(actuals), scores: JSON.stringify(scores) } as never)
    .where('id', '=', id).where('scored_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The latest scored forecasts, newest first (by when they were made): the rolling window. */
export async function scoredForecasts(
  db: Kysely<Schema>, accountId: string | undefined, filter: { seriesId?: string; model?: string; limit: number },
): Promise<ForecastRow[]> {
  let query = seriesDb(db).selectFrom('stored_forecasts').selectAll().where('scored_at', 'is not', null);
  if (accountId !== undefined) query = query.where('account_id', '=', accountId);
  if (filter.seriesId !== undefined) query = query.where('series_id', '=', filter.seriesId);
  if (filter.model !== undefined) query = query.where('model', '=', filter.model);
  return await query.orderBy('issued_at', 'desc').orderBy('first_step', 'desc').orderBy('id').limit(filter.limit).execute() as ForecastRow[];
}

export async function seriesForecasts(db: Kysely<Schema>, accountId: string, seriesId: string, limit: number): Promise<ForecastRow[]> {
  return await seriesDb(db).selectFrom('stored_forecasts').selectAll().where('account_id', '=', accountId).where('series_id', '=', seriesId)
    .orderBy('issued_at', 'desc').orderBy('first_step', 'desc').limit(limit).execute() as ForecastRow[];
}

export async function seriesEvents(db: Kysely<Schema>, accountId: string, seriesId: string, limit: number) {
  return await seriesDb(db).selectFrom('series_events').selectAll().where('account_id', '=', accountId).where('series_id', '=', seriesId)
    .orderBy('created_at', 'desc').limit(limit).execute();
}

/**
 * Appends to many series of one account in one transaction (all or nothing): `decide` sees each stored
 * row (locked) and returns what to add; the additions are written by one UPDATE. Missing ids are
 * reported to `decide` as undefined rows.
 */
/** A stored series as an append sees it: `target` holds the stored values only where `reaches` said the
 * append may touch them (else it is just the length: a date after the end never reads a stored value). */
export interface AppendHead { series_id: string; freq: string; grid: unknown; target: ArrayLike<number | null>; schedule: unknown | null }

export async function appendToManySeries<T extends { append: (number | null)[] }>(
  db: Kysely<Schema>, accountId: string, seriesIds: string[],
  reaches: (head: { series_id: string; grid: unknown; points: number }) => boolean, decide: (rows: Map<string, AppendHead>) => T[],
): Promise<{ rows: Map<string, AppendHead>; decisions: T[] }> {
  const cache = seriesCache(db);
  return await writing(db, accountId, () => seriesIds, () => db.transaction().execute(async (trx) => {
    const tx = seriesDb(trx as unknown as Kysely<Schema>);
    const rows = new Map<string, AppendHead>();
    // the embedded store's heads come from its cache (no other transaction runs meanwhile: exact)
    for (const [id, h] of cache?.lookup(accountId, seriesIds) ?? []) rows.set(
      id, { series_id: id, freq: h.freq, grid: h.grid, target: { length: historyPoints(h) }, schedule: h.schedule },
    );
    const unread = [...new Set(seriesIds)].filter((id) => !rows.has(id));
    if (unread.length > 0) {
      // lock and read the heads only: reading every history (10,000 × its values) cost more than the append itself
      const { rows: heads } = await sql<{ series_id: string; freq: string; grid: string; points: number; schedule: string | null }>`
        SELECT series_id, freq, grid::text AS grid, length(target) / 8 AS points, schedule::text AS schedule FROM stored_series
        WHERE account_id = ${accountId} AND series_id = ANY(${unread}::text[]) ORDER BY series_id FOR UPDATE`.execute(trx);
      const parsed = gridParser();
      for (const h of heads) rows.set(h.series_id, {
        series_id: h.series_id, freq: h.freq, grid: parsed(h.grid), target: { length: Number(h.points) },
        schedule: h.schedule === null ? null : JSON.parse(h.schedule),
      });
    }
    // a retried append repeats stored dates: those series' values are read to compare
    const overlapping = [...rows.values()].filter((r) => reaches({ series_id: r.series_id, grid: r.grid, points: r.target.length })).map((r) => r.series_id);
    for (const [id, full] of await readHistories(trx, accountId, overlapping)) rows.get(id)!.target = decodeTarget(full.bytes);
    const decisions = decide(rows);
    const changes = seriesIds.map((id, i) => ({ series_id: id, added: encodeTarget(decisions[i].append) })).filter((c) => c.added.byteLength > 0);
    if (changes.length > 0) {
      await sql`UPDATE stored_series AS s SET target = s.target || decode(v.vals, 'hex'), updated_at = now()
        FROM jsonb_to_recordset(${JSON.stringify(
          changes.map((c) => ({ series_id: c.series_id, vals: c.added.toString('hex') })),
        )}::jsonb) AS v(series_id text, vals text)
        WHERE s.account_id = ${accountId} AND s.series_id = v.series_id`.execute(tx);
      for (const c of changes) cache?.appended(accountId, c.series_id, c.added);
    }
    return { rows, decisions };
  }));
}

/** Per series: the first step of its latest stored forecast (series without one are absent). */
export async function latestForecastSteps(db: Kysely<Schema>, accountId: string, seriesIds: string[]): Promise<Map<string, number>> {
  if (seriesIds.length === 0) return new Map();
  const rows = await seriesDb(db).selectFrom('stored_forecasts').select(['series_id', (eb) => eb.fn.max('first_step').as('step')])
    .where('account_id', '=', accountId).where(sql<boolean>`series_id = ANY(${seriesIds}::text[])`).groupBy('series_id').execute();
  return new Map(rows.map((r) => [r.series_id, Number(r.step)]));
}

export async function webhookDeliveries(db: Kysely<Schema>, accountId: string, seriesId: string, limit: number) {
  return await seriesDb(db).selectFrom('webhook_deliveries').selectAll().where('account_id', '=', accountId).where('series_id', '=', seriesId)
    .orderBy('created_at', 'desc').limit(limit).execute();
}
