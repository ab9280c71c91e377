// Prometheus metrics (prom-client), one registry per app so that test servers in one process keep
// their own counts. The control plane counts what it sees (HTTP, quota, jobs, workers); the model
// workers count what only they see (batches, queue wait, inference and load time, resident models)
// and serve it at their own /metrics, which `exposition()` fetches and appends at each scrape: each
// worker sample already carries `runtime_group`, and families are merged so every name appears once.
import { createHash, timingSafeEqual } from 'node:crypto';
import { request } from 'undici';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Kysely } from 'kysely';
import type { Schema } from '../store/database.ts';
import type { WorkerStatus } from '../runtime/supervisor.ts';

declare module 'fastify' {
  interface FastifyInstance { telemetry?: Telemetry }
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface TelemetrySources {
  db: Kysely<Schema>;
  workers: () => WorkerStatus[];
  /** where a group's worker listens (undefined while it is down): its /metrics is scraped */
  workerEndpoint?: (group: string) => string | undefined;
}

const JOB_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;

export class Telemetry {
  readonly registry = new Registry();
  readonly httpRequests: Counter<'method' | 'route' | 'status'>;
  readonly httpDuration: Histogram<'method' | 'route'>;
  readonly quotaUnits: Counter<'account_id' | 'outcome'>;
  private readonly sources: TelemetrySources;

  constructor(sources: TelemetrySources) {
    this.sources = sources;
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.httpRequests = new Counter({
      name: 'horizon_http_requests_total', help: 'HTTP requests answered, by method, ' +
        'route pattern and status', labelNames: ['method', 'route', 'status'], registers,
    });
    this.httpDuration = new Histogram({
      name: 'horizon_http_request_duration_seconds', help: 'Time from request received to response sent, by method and route pattern',
      labelNames: ['method', 'route'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120], registers,
    });
    this.quotaUnits = new Counter({
      name: 'horizon_quota_units_total', help: 'Quota units by account and outcome: charged, refused (429) or refunded (the request failed with a 5xx)',
      labelNames: ['account_id', 'outcome'], registers,
    });
    const db = sources.db;
    const jobs = new Gauge({
      name: 'horizon_jobs', help: 'Jobs (forecast and cross-validation) in the store by state (all replicas; ' +
        'expired jobs are deleted)', labelNames: ['state'], registers,
      async collect() {
        const rows = await db.selectFrom('forecast_jobs').select(['status']).select((eb) => eb.fn.countAll<number>().as('n')).groupBy('status').execute();
        const counts = new Map(rows.map((r) => [String(r.status), Number(r.n)]));
        for (const state of JOB_STATES) this.set({ state }, counts.get(state) ?? 0);
      },
    });
    // running fine-tuning jobs' progress (docs/fine-tuning.md), read from the store like horizon_jobs: every replica's jobs
    const fineTuning = async () => {
      const rows = await db.selectFrom('forecast_jobs').select(['id', 'progress']).where('kind', '=', 'fine-tuning').where('status', '=', 'running').execute();
      return rows.map(
        (r) => ({ job_id: r.id, ...(r.progress as { step?: number; steps?: number; loss?: number | null; validation_loss?: number | null } | null) }),
      );
    };
    for (const [name, help, field] of [
      ['horizon_fine_tuning_step', 'Last training step a running fine-tuning job reported', 'step'],
      ['horizon_fine_tuning_steps', 'Steps a running fine-tuning job trains for', 'steps'],
      ['horizon_fine_tuning_loss', 'Last training loss a running fine-tuning job reported', 'loss'],
      ['horizon_fine_tuning_validation_loss', 'Last validation loss a running fine-tuning job reported', 'validation_loss'],
    ] as const) {
      new Gauge({
        name, help, labelNames: ['job_id'], registers,
        async collect() {
          this.reset();
          for (const job of await fineTuning()) if (typeof job[field] === 'number') this.set({ job_id: job.job_id }, job[field]);
        },
      });
    }
    new Gauge({
      name: 'horizon_job_queue_depth', help: 'Jobs (forecast and cross-validation) accepted and not yet started', registers,
      // its own read of the jobs gauge (the registry collects metrics concurrently, in no set order)
      async collect() { this.set((await jobs.get()).values.find((v) => v.labels.state === 'queued')?.value ?? 0); },
    });
    new Gauge({
      name: 'horizon_worker_up', help: '1 while the model worker of a runtime group is ready, else 0 (label worker: which, with ' +
        'HORIZON_WORKERS_PER_GROUP > 1)', labelNames: ['runtime_group', 'worker'], registers,
      collect() { for (const w of sources.workers()) this.set(workerLabels(w, sources.workers()), w.state === 'ready' ? 1 : 0); },
    });
    new Counter({
      name: 'horizon_worker_restarts_total', help: 'Restarts of the model worker of a runtime group (crash, kill or ' +
        'failed health checks)', labelNames: ['runtime_group', 'worker'], registers,
      collect() {
        this.reset();
        for (const w of sources.workers()) this.inc(workerLabels(w, sources.workers()), w.restarts);
      },
    });
  }

  /** Records one answered request; `route` is the route pattern (never the URL: ids would explode the series). */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpRequests.inc({ method, route, status: String(status) });
    this.httpDuration.observe({ method, route }, seconds);
  }

  /** The control plane's metrics followed by every ready worker's (each sample labelled with its
   * `worker` where a group has several). */
  async exposition(): Promise<string> {
    const own = await this.registry.metrics();
    const workers = this.sources.workers();
    const texts = await Promise.all(workers.filter((w) => w.state === 'ready').map(async (w) => {
      const text = await this.scrapeWorker(w.url ?? this.sources.workerEndpoint?.(w.group));
      const labels = workerLabels(w, workers);
      return text === undefined || labels.worker === undefined ? text : labelSamples(text, `worker="${labels.worker}"`);
    }));
    return own + mergeExpositions(texts.filter((t): t is string => t !== undefined));
  }

  private async scrapeWorker(url: string | undefined): Promise<string | undefined> {
    if (!url) return undefined;
    try {
      const res = await request(`${url}/metrics`, { headersTimeout: 2_000, bodyTimeout: 2_000 });
      const text = await res.body.text();
      return res.statusCode === 200 ? text : undefined;
    } catch {
      return undefined; // a worker going down between status and scrape: horizon_worker_up says so next time
    }
  }
}

/** runtime_group, and worker (its index) only where the group has more than one worker: with one
 * worker per group (the default) the series are what they always were. */
function workerLabels(w: WorkerStatus, all: WorkerStatus[]): { runtime_group: string; worker?: string } {
  return all.filter((o) => o.group === w.group).length > 1 ? { runtime_group: w.group, worker: String(w.worker) } : { runtime_group: w.group };
}

/** Adds a label to every sample line of a Prometheus text exposition. */
export function labelSamples(text: string, label: string): string {
  return text.split('\n').map((line) => {
    if (!line || line.startsWith('#')) return line;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{([^}]*)\})?( .*)$/.exec(line);
    if (!match) return line;
    const [, name, , labels, rest] = match;
    return `${name}{${labels ? `${labels},` : ''}${label}}${rest}`;
  }).join('\n');
}

/** Concatenates Prometheus text expositions so that each family (its HELP, TYPE and samples) appears once. */
export function mergeExpositions(texts: string[]): string {
  const families = new Map<string, { header: string[]; samples: string[] }>();
  for (const text of texts) {
    let current: { header: string[]; samples: string[] } | undefined;
    for (const line of text.split('\n')) {
      if (!line.trim()) continue;
      const meta = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (meta) {
        let family = families.get(meta[2]);
        if (!family) families.set(meta[2], family = { header: [], samples: [] });
        if (!family.header.some((h) => h.startsWith(`# ${meta[1]} `))) family.header.push(line);
        current = family;
      } else if (!line.startsWith('#')) {
        current?.samples.push(line);
      }
    }
  }
  return [...families.values()].map((f) => [...f.header, ...f.samples].join('\n') + '\n').join('');
}

/** Constant-time check of a bearer token against the configured one (digests: equal lengths always). */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer +(\S+)\s*$/i.exec(header ?? '')?.[1] ?? '';
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(presented), digest(token)) && presented.length > 0;
}
