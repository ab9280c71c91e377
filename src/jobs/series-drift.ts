// Drift rule and webhooks of stored series (issue 25, docs/stored-series.md). After each scoring (in its
// transaction) the series' rolling accuracy is checked against its drift rule; a change of state —
// drifting or back — is an event, and, with a webhook, a delivery row written in the same transaction
// (so an event is never without its delivery: at-least-once). The deliverer posts due deliveries,
// signed with HMAC-SHA256, and retries failures with exponential backoff; each row is the delivery log.
import { createHmac, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { request as httpRequest } from 'undici';
import type { Schema } from '../store/database.ts';
import { scoredForecasts, seriesDb } from '../store/series.ts';
import { rollingAccuracy } from '../forecasting/stored-series.ts';

export interface DriftSettings { window?: number; min_forecasts?: number; max_mase?: number; max_mase_ratio?: number; coverage_tolerance?: number }

/** The mean backtest MASE of the window's forecasts that were asked with `evaluation` (null: none has one). */
export function backtestMase(rows: { backtest: unknown }[]): number | null {
  const values = rows.map((r) => (r.backtest as { mase?: number | null } | null)?.mase).filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

/** Why the rolling accuracy breaks the rule (empty: it does not). */
export function driftReasons(rule: DriftSettings, accuracy: ReturnType<typeof rollingAccuracy>, backtest: number | null = null): string[] {
  const reasons: string[] = [];
  if (rule.max_mase !== undefined && accuracy.mase !== null && accuracy.mase > rule.max_mase) reasons.push(`rolling MASE ${accuracy.mase.toFixed(3)} is ` +
    `above ${rule.max_mase}`);
  if (rule.max_mase_ratio !== undefined && accuracy.mase !== null && backtest !== null && backtest > 0 && accuracy.mase > rule.max_mase_ratio * backtest) {
    reasons.push(`rolling MASE ${accuracy.mase.toFixed(3)} is ${(accuracy.mase / backtest).toFixed(2)}× the model's own backtest ` +
      `MASE ${backtest.toFixed(3)}, above ${rule.max_mase_ratio}×`);
  }
  if (rule.coverage_tolerance !== undefined) {
    for (const [interval, value] of Object.entries(accuracy.coverage)) {
      const nominal = Number(interval) / 100;
      if (Math.abs(value - nominal) > rule.coverage_tolerance) reasons.push(`rolling coverage of the ${interval} % interval is ${(value * 100).toFixed(1)} ` +
        `%, more than ${rule.coverage_tolerance * 100} points from ${interval} %`);
    }
  }
  return reasons;
}

/** The scorer's afterScore: checks the series' drift rule; an event (and its delivery) when the state changes. */
export async function checkDrift(tx: Kysely<Schema>, accountId: string, seriesId: string): Promise<void> {
  const db = seriesDb(tx);
  const series = await db.selectFrom('stored_series').select(['drift', 'webhook'])
    .where('account_id', '=', accountId).where('series_id', '=', seriesId).executeTakeFirst();
  const rule = series?.drift as DriftSettings | null | undefined;
  if (!rule) return;
  const window = rule.window ?? 10;
  const rows = await scoredForecasts(tx, accountId, { seriesId, limit: window });
  if (rows.length < (rule.min_forecasts ?? 5)) return;
  const accuracy = rollingAccuracy(rows);
  const backtest = backtestMase(rows);
  const reasons = driftReasons(rule, accuracy, backtest);
  const last = await db.selectFrom('series_events').select('kind').where('account_id', '=', accountId).where('series_id', '=', seriesId)
    .orderBy('created_at', 'desc').orderBy('id').limit(1).executeTakeFirst();
  const drifting = last?.kind === 'drift_raised';
  if (drifting === reasons.length > 0) return;
  const kind = reasons.length > 0 ? 'drift_raised' : 'drift_cleared';
  const id = randomUUID();
  const detail = { reasons, window: rows.length, mase: accuracy.mase, wql: accuracy.wql, coverage: accuracy.coverage, backtest_mase: backtest, rule };
  await db.insertInto('series_events').values({ id, account_id: accountId, series_id: seriesId, kind, detail: JSON.stringify(detail) } as never).execute();
  const webhook = series?.webhook as { url: string } | null;
  if (webhook) await db.insertInto('webhook_deliveries').values(
    { id: randomUUID(), event_id: id, account_id: accountId, series_id: seriesId, url: webhook.url } as never,
  ).execute();
}

/** The signature header of a delivery: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>"> with the webhook's secret. */
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export interface DelivererOptions {
  /** first retry after this, doubling per attempt up to maxBackoffMs (HORIZON_WEBHOOK_BACKOFF_MS) */
  backoffMs: number;
  maxBackoffMs?: number;
  /** attempts before a delivery is marked failed */
  maxAttempts?: number;
  pollMs?: number;
  timeoutMs?: number;
  logger?: { warn(o: object, m?: string): void };
}

/** Posts due webhook deliveries; several processes may run one (a claim moves next_attempt_at first). */
export class WebhookDeliverer {
  private readonly db: Kysely<Schema>;
  private readonly options: Required<Omit<DelivererOptions, 'logger'>> & Pick<DelivererOptions, 'logger'>;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(db: Kysely<Schema>, options: DelivererOptions) {
    this.db = db;
    this.options = { maxBackoffMs: 3_600_000, maxAttempts: 12, pollMs: 1000, timeoutMs: 10_000, ...options };
  }

  start(): void {
    // a failed poll (e.g. the database is down) is logged and retried at the next tick, never left to
    // reject unhandled (that would end the process)
    this.timer = setInterval(() => {
      this.running ??= this.deliverDue()
        .catch((error: Error) => this.options.logger?.warn({ err: error.message }, 'webhook delivery poll failed; retrying'))
        .finally(() => { this.running = undefined; });
    }, this.options.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Delivers what is due now, one claim at a time. */
  async deliverDue(): Promise<void> {
    while (!this.stopped) {
      // claim: push next_attempt_at past the request's timeout so no other process takes it meanwhile
      const claimed = await sql<{ id: string; event_id: string; url: string; attempts: number }>`
        UPDATE webhook_deliveries SET next_attempt_at = now() + ${`${Math.ceil(this.options.timeoutMs / 1000) + 5} seconds`}::interval
        WHERE id = (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= now()
          ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING id, event_id, url, attempts`.execute(this.db);
      const delivery = claimed.rows[0];
      if (!delivery) return;
      await this.attempt(delivery);
    }
  }

  private async attempt(delivery: { id: string; event_id: string; url: string; attempts: number }): Promise<void> {
    const db = seriesDb(this.db);
    const event = await db.selectFrom('series_events').innerJoin(
      'stored_series',
      (j) => j.onRef('stored_series.account_id', '=', 'series_events.account_id').onRef('stored_series.series_id', '=', 'series_events.series_id'),
    )
      .select(
        ['series_events.id', 'series_events.kind', 'series_events.series_id', 'series_events.detail', 'series_events.created_at', 'stored_series.webhook'],
      )
      .where('series_events.id', '=', delivery.event_id).executeTakeFirst();
    if (!event) { await db.deleteFrom('webhook_deliveries').where('id', '=', delivery.id).execute(); return; }
    const secret = (event.webhook as { secret?: string } | null)?.secret ?? '';
    const body = JSON.stringify({
      id: event.id, delivery_id: delivery.id, kind: event.kind, series_id: event.series_id, created_at: event.created_at.toISOString(), detail: event.detail,
    });
    const timestamp = String(Math.floor(Date.now() / 1000));
    let status: number | null = null;
    let error: string | null = null;
    try {
      const res = await httpRequest(delivery.url, {
        method: 'POST', body, headersTimeout: this.options.timeoutMs, bodyTimeout: this.options.timeoutMs,
        headers: {
          'content-type': 'application/json', 'x-horizon-event': event.kind, 'x-horizon-delivery': delivery.id, 'x-horizon-timestamp': timestamp,
          'x-horizon-signature': signature(secret, timestamp, body),
        },
      });
      status = res.statusCode;
      await res.body.dump();
    } catch (e) {
      error = (e as Error).message;
    }
    const attempts = delivery.attempts + 1;
    if (status !== null && status >= 200 && status < 300) {
      await db.updateTable('webhook_deliveries').set(
        { status: 'delivered', attempts, last_status: status, last_error: null, delivered_at: sql`now()` } as never,
      ).where('id', '=', delivery.id).execute();
      return;
    }
    const failed = attempts >= this.options.maxAttempts;
    const backoff = Math.min(this.options.maxBackoffMs, this.options.backoffMs * 2 ** (attempts - 1));
    this.options.logger?.warn(
      { delivery_id: delivery.id, attempts, status, err: error }, failed ? 'webhook delivery failed for good' : 'webhook delivery failed, will retry',
    );
    await db.updateTable('webhook_deliveries').set({
      status: failed ? 'failed' : 'pending', attempts, last_status: status, last_error: error ?? `HTTP ${status}`,
      next_attempt_at: sql`now() + ${`${backoff} milliseconds`}::interval`,
    } as never).where('id', '=', delivery.id).execute();
  }
}
