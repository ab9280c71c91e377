// Scores stored forecasts in the background (issue 25): an append wakes the scorer for its series; a
// sweep at start-up and every `sweepMs` finds what a crash or another replica left unscored. Each
// forecast is scored in one transaction whose conditional update (scored_at IS NULL) makes it count
// exactly once, however many processes or wake-ups race on it.
import type { Kysely } from 'kysely';
import type { Schema } from '../store/database.ts';
import { dueForecasts, getSeries, recordScore, seriesWithPendingForecasts, seriesWithPendingForecastsAmong } from '../store/series.ts';
import { scoreStoredForecast } from '../forecasting/stored-series.ts';

export interface ScorerLogger { info(o: object, m?: string): void; warn(o: object, m?: string): void }

/** What runs after a forecast is scored, in its transaction (drift events and their webhooks). */
export type AfterScore = (tx: Kysely<Schema>, accountId: string, seriesId: string) => Promise<void>;

export class SeriesScorer {
  private readonly db: Kysely<Schema>;
  private readonly logger?: ScorerLogger;
  private readonly sweepMs: number;
  private readonly afterScore?: AfterScore;
  private timer?: NodeJS.Timeout;
  /** series keys with a scoring under way, and those woken again meanwhile */
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private stopped = false;
  /** forecasts this process scored (tests and logs) */
  scored = 0;

  constructor(db: Kysely<Schema>, options: { logger?: ScorerLogger; sweepMs?: number; afterScore?: AfterScore } = {}) {
    this.db = db;
    this.logger = options.logger;
    this.sweepMs = options.sweepMs ?? 30_000;
    this.afterScore = options.afterScore;
  }

  start(): void {
    void this.sweep();
    this.timer = setInterval(() => void this.sweep(), this.sweepMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await Promise.allSettled([...this.running.values()]);
  }

  /** Scores what the series now covers, after the caller's append committed; never throws. */
  wake(accountId: string, seriesId: string): Promise<void> {
    const key = `${accountId}\u0000${seriesId}`;
    const current = this.running.get(key);
    if (current) { this.again.add(key); return current; }
    const run = (async () => {
      do {
        this.again.delete(key);
        await this.scoreSeries(accountId, seriesId).catch(
          (error: Error) => this.logger?.warn({ series_id: seriesId, err: error.message }, 'scoring stored forecasts failed; the sweep retries'),
        );
      } while (this.again.has(key) && !this.stopped);
    })().finally(() => this.running.delete(key));
    this.running.set(key, run);
    return run;
  }

  /** After a bulk append: one query finds which of the series have forecasts waiting, and only those are
   * scored. (A wake per series would run two queries per series; on the embedded store they run on the
   * event loop, and 10,000 of them held up every answer for seconds.) */
  async wakeMany(accountId: string, seriesIds: string[]): Promise<void> {
    try {
      const waiting = await seriesWithPendingForecastsAmong(this.db, accountId, seriesIds);
      for (const id of waiting) void this.wake(accountId, id);
    } catch (error) {
      this.logger?.warn({ err: (error as Error).message }, 'scoring stored forecasts failed; the sweep retries');
    }
  }

  /** Every series with unscored forecasts (a crash between an append and its scoring loses nothing). */
  async sweep(): Promise<void> {
    if (this.stopped) return;
    try {
      for (const { account_id, series_id } of await seriesWithPendingForecasts(this.db, 10_000)) {
        if (this.stopped) return;
        await this.wake(account_id, series_id);
      }
    } catch (error) {
      this.logger?.warn({ err: (error as Error).message }, 'stored-forecast sweep failed');
    }
  }

  private async scoreSeries(accountId: string, seriesId: string): Promise<void> {
    const series = await getSeries(this.db, accountId, seriesId);
    if (!series) return;
    const due = await dueForecasts(this.db, accountId, seriesId, series.target.length);
    for (const forecast of due) {
      const scored = scoreStoredForecast(forecast, series.target);
      if (!scored) continue;
      const counted = await this.db.transaction().execute(async (trx) => {
        const tx = trx as unknown as Kysely<Schema>;
        if (!(await recordScore(tx, forecast.id, scored.actuals, scored.scores))) return false;
        await this.afterScore?.(tx, accountId, seriesId);
        return true;
      });
      if (counted) this.scored += 1;
    }
  }
}
