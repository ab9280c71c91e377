// Prometheus gauges of stored-forecast accuracy (issue 25): rolling WQL and interval coverage per model,
// over the latest scored forecasts of every account, read from the store at each scrape (so every replica
// exports the same numbers). Label values are bounded: model is a catalog id, "auto", or "other" (private
// models, whose ids are per account); interval is one of NOMINAL_INTERVALS.
import { Gauge, type Registry } from 'prom-client';
import { sql, type Kysely } from 'kysely';
import type { Schema } from '../store/database.ts';
import type { Catalog } from '../runtime/catalog.ts';
import { scoredForecasts } from '../store/series.ts';
import { rollingAccuracy } from '../forecasting/stored-series.ts';
import { seriesDb } from '../store/series.ts';

/** The central intervals exported ("80" = quantiles 0.1 and 0.9); others are left out of the metric. */
export const NOMINAL_INTERVALS = ['50', '80', '90', '95', '98'];
/** Scored forecasts per model in the rolling window of the metrics. */
export const METRIC_WINDOW = 1000;

export function registerAccuracyMetrics(registry: Registry, db: Kysely<Schema>, catalog: Catalog): void {
  if (registry.getSingleMetric('horizon_forecast_rolling_wql')) return;
  const known = new Set([...catalog.models.map((m) => m.id), 'auto']);
  const label = (model: string) => (known.has(model) ? model : 'other');
  const registers = [registry];
  let cached: { at: number; value: Promise<Map<string, ReturnType<typeof rollingAccuracy>>> } | undefined;
  // one read per scrape for the gauges below (prom-client collects them concurrently)
  const read = () => {
    if (!cached || Date.now() - cached.at > 1000) cached = { at: Date.now(), value: (async () => {
      const models = await seriesDb(db).selectFrom('stored_forecasts').select('model').distinct().where('scored_at', 'is not', null).execute();
      const byLabel = new Map<string, Awaited<ReturnType<typeof scoredForecasts>>>();
      for (const { model } of models) {
        const rows = await scoredForecasts(db, undefined, { model, limit: METRIC_WINDOW });
        byLabel.set(label(model), [...(byLabel.get(label(model)) ?? []), ...rows]);
      }
      return new Map([...byLabel].map(
        ([model, rows]) => [model, rollingAccuracy(rows.sort((a, b) => b.issued_at.getTime() - a.issued_at.getTime()).slice(0, METRIC_WINDOW))],
      ));
    })() };
    return cached.value;
  };
  new Gauge({
    name: 'horizon_forecast_rolling_wql', help: `WQL of the latest ${METRIC_WINDOW} scored stored forecasts per model (pooled: Σ ` +
      `quantile loss / Σ |actual|)`, labelNames: ['model'], registers,
    async collect() {
      this.reset();
      for (const [model, acc] of await read()) if (acc.wql !== null) this.set({ model }, acc.wql);
    },
  });
  new Gauge({
    name: 'horizon_forecast_rolling_coverage', help: `Fraction of actuals inside each central interval, latest ${METRIC_WINDOW} scored stored forecasts per ` +
      `model (interval: nominal level in percent)`, labelNames: ['model', 'interval'], registers,
    async collect() {
      this.reset();
      for (const [model, acc] of await read()) {
        for (const [interval, value] of Object.entries(acc.coverage)) if (NOMINAL_INTERVALS.includes(interval)) this.set({ model, interval }, value);
      }
    },
  });
  new Gauge({
    name: 'horizon_series_drifting', help: 'Stored series whose latest drift event raised drift (their drift rule is broken now)', registers,
    async collect() {
      const result = await sql<{ n: number }>`SELECT count(*)::int AS n
        FROM (SELECT DISTINCT ON (account_id, series_id) kind FROM series_events ORDER BY account_id, series_id, created_at DESC, id) latest
        WHERE kind = 'drift_raised'`.execute(db);
      this.set(Number(result.rows[0]?.n ?? 0));
    },
  });
  new Gauge({
    name: 'horizon_forecast_rolling_scored', help: `Scored stored forecasts in the rolling window per model (at ` +
      `most ${METRIC_WINDOW})`, labelNames: ['model'], registers,
    async collect() {
      this.reset();
      for (const [model, acc] of await read()) this.set({ model }, acc.forecasts);
    },
  });
}
