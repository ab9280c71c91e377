// Starts and supervises the local model-runtime workers, `workersPerGroup` (HORIZON_WORKERS_PER_GROUP,
// default 1) per runtime group: spawn, wait for the READY line, health-check, restart a crashed or hung
// worker with exponential backoff, stop on shutdown. Each worker is its group's virtualenv running
// `python -m horizon_runtime`; the workers of a group are independent processes (each restarted on its
// own), among which the InferenceClient spreads calls (endpoints()).
// src/runtime/ is the control plane's side of the model runtime (TypeScript: these workers' supervisor, the
// inference client, the catalog and registry); runtime/ at the repository root is the Python workers themselves.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { EventEmitter } from 'node:events';
import { request } from 'undici';
import { CATALOG_PATH } from './catalog.ts';

export const RUNTIME_DIR = fileURLToPath(new URL('../../runtime/', import.meta.url));

export function groupPython(group: string): string {
  return join(RUNTIME_DIR, `.venv-${group}`, 'bin', 'python');
}

export function installedGroups(groups: string[]): string[] {
  return groups.filter((g) => existsSync(groupPython(g)));
}

export interface WorkerModels { model: string; sizes: string[]; loaded: string[] }
/** sizes of a model this worker's libraries serve but whose weights it did not find */
export interface MissingWeights { model: string; sizes: string[] }

export type WorkerState = 'starting' | 'ready' | 'backoff' | 'stopped';

export interface WorkerStatus {
  group: string;
  /** which of the group's workers (0 .. workersPerGroup - 1) */
  worker: number;
  state: WorkerState;
  pid?: number;
  /** where it listens, while ready */
  url?: string;
  restarts: number;
  lastError?: string;
}

interface Logger { info(o: object, m?: string): void; warn(o: object, m?: string): void; error(o: object, m?: string): void }

/** A worker's stderr line into the control plane's log: its JSON lines (runtime/horizon_runtime/logs.py)
 * keep their fields, anything else (a library printing, a traceback as the process dies) goes as text. */
export function relayWorkerLine(logger: Logger, group: string, line: string): void {
  if (!line.trim()) return;
  let parsed: Record<string, unknown> | undefined;
  if (line.startsWith('{')) {
    try { parsed = JSON.parse(line) as Record<string, unknown>; } catch { parsed = undefined; }
  }
  if (!parsed) { logger.warn({ runtime_group: group, stream: 'stderr' }, line); return; }
  // the control plane's logger writes its own level, time, pid and msg
  const { level, time: _time, pid, msg, ...fields } = parsed;
  const entry = { ...fields, runtime_group: group, worker_pid: pid };
  const text = typeof msg === 'string' ? msg : '';
  const n = typeof level === 'number' ? level : 30;
  if (n >= 50) logger.error(entry, text);
  else if (n >= 40) logger.warn(entry, text);
  else logger.info(entry, text);
}

export interface SupervisorOptions {
  groups: string[];
  env?: Record<string, string | undefined>;
  readyTimeoutMs?: number;
  healthIntervalMs?: number;
  /** consecutive failed health checks before the worker is restarted */
  healthFailures?: number;
  /** whether calls to the worker at this URL are in flight: while they are, missed health checks do not
   * count (a long statistical fit holds the worker's GIL, so /health cannot answer; the calls themselves
   * end at the inference timeout at the latest, and then the checks count again) */
  busy?: (baseUrl: string) => boolean;
  /** how often the workers' model lists are re-read, so weights pulled while running show up */
  modelsRefreshMs?: number;
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  /** worker processes per group (HORIZON_WORKERS_PER_GROUP) */
  workersPerGroup?: number;
  logger?: Logger;
}

class Worker {
  state: WorkerState = 'starting';
  child?: ChildProcess;
  baseUrl?: string;
  models: WorkerModels[] = [];
  missingWeights: MissingWeights[] = [];
  restarts = 0;
  lastError?: string;
  backoffMs: number;
  healthTimer?: NodeJS.Timeout;
  modelsTimer?: NodeJS.Timeout;
  restartTimer?: NodeJS.Timeout;
  failedChecks = 0;
  readonly group: string;
  readonly index: number;
  constructor(group: string, index: number, backoffMs: number) { this.group = group; this.index = index; this.backoffMs = backoffMs; }
}

export class Supervisor extends EventEmitter {
  /** each group's workers, index order */
  private readonly workers = new Map<string, Worker[]>();
  private readonly options: Required<Omit<SupervisorOptions, 'env' | 'logger' | 'busy'>> & Pick<SupervisorOptions, 'env' | 'logger' | 'busy'>;
  private stopping = false;
  /** whenReady()'s callers, woken when a worker of their group is ready (a set, not 'ready' listeners: many jobs may wait) */
  private readonly readyWaiters = new Set<{ group: string; resolve(): void; reject(error: unknown): void }>();

  constructor(options: SupervisorOptions) {
    super();
    this.options = {
      readyTimeoutMs: 180_000, healthIntervalMs: 5_000, modelsRefreshMs: 2_000, healthFailures: 3, backoffInitialMs: 500, backoffMaxMs: 30_000,
      workersPerGroup: 1,
      ...options,
    };
    const n = this.options.workersPerGroup;
    if (!Number.isInteger(n) || n < 1) throw new Error(`workersPerGroup must be an integer ≥ 1, got ${n}`);
    for (const g of options.groups) this.workers.set(g, Array.from({ length: n }, (_, i) => new Worker(g, i, this.options.backoffInitialMs)));
  }

  private all(): Worker[] { return [...this.workers.values()].flat(); }

  /** Starts every worker and resolves when each is ready (or has failed its first start). */
  async start(): Promise<void> {
    await Promise.all(this.all().map((w) => this.launch(w).catch(() => undefined)));
  }

  /** The first ready worker of the group (undefined while none is). */
  endpoint(group: string): string | undefined {
    return this.endpoints(group)[0];
  }

  /** Every ready worker of the group, index order: the InferenceClient picks one per call. */
  endpoints(group: string): string[] {
    return (this.workers.get(group) ?? []).filter((w) => w.state === 'ready' && w.baseUrl).map((w) => w.baseUrl!);
  }

  /** Resolves once the group has a ready worker (at once while it has one). Rejects when `signal` aborts, when the
   * supervisor stops, and at once for a group it does not run (no worker of it will come). Jobs wait on it while
   * a worker restarts (src/jobs/worker-wait.ts). */
  whenReady(group: string, signal?: AbortSignal): Promise<void> {
    if (!this.workers.has(group)) return Promise.reject(new Error(`runtime group "${group}" has no local worker`));
    if (this.endpoints(group).length) return Promise.resolve();
    if (this.stopping) return Promise.reject(new Error('the worker supervisor is stopping'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => settle(() => reject(signal!.reason));
      const settle = (how: () => void) => { this.readyWaiters.delete(waiter); signal?.removeEventListener('abort', onAbort); how(); };
      const waiter = { group, resolve: () => settle(resolve), reject: (error: unknown) => settle(() => reject(error)) };
      this.readyWaiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** A group's model list: its first ready worker's (they all run the same code on the same weights), else the last known. */
  private representative(group: string): Worker | undefined {
    const ws = this.workers.get(group) ?? [];
    return ws.find((w) => w.state === 'ready') ?? ws[0];
  }

  /** Model ids served by each ready (or last-known) worker, by group. */
  modelsByGroup(): Map<string, WorkerModels[]> {
    return new Map([...this.workers.keys()].map((g) => [g, this.representative(g)?.models ?? []]));
  }

  /** Sizes whose weights the ready workers did not find, by group. */
  missingWeightsByGroup(): Map<string, MissingWeights[]> {
    return new Map([...this.workers.keys()].map((g) => [g, this.representative(g)?.missingWeights ?? []]));
  }

  /** One entry per worker process (group by group, index order). */
  status(): WorkerStatus[] {
    return this.all().map((w) => ({
      group: w.group, worker: w.index, state: w.state, pid: w.child?.pid, url: w.state === 'ready' ? w.baseUrl : undefined, restarts: w.restarts,
      lastError: w.lastError,
    }));
  }

  /** Re-reads the model lists of a group's workers (after a load changed what is resident). */
  async refreshModels(group: string): Promise<void> {
    await Promise.all((this.workers.get(group) ?? []).map((w) => this.refreshWorker(w)));
  }

  private async refreshWorker(w: Worker): Promise<void> {
    if (w.baseUrl && w.state === 'ready') ({ models: w.models, missingWeights: w.missingWeights } = await fetchModels(w.baseUrl));
  }

  async refreshAll(): Promise<void> {
    await Promise.all([...this.workers.keys()].map((g) => this.refreshModels(g).catch(() => undefined)));
  }

  /** Kills a worker (the group's `index`th, default the first) as if it crashed (tests and operators use
   * it to exercise recovery). */
  kill(group: string, signal: NodeJS.Signals = 'SIGKILL', index = 0): number | undefined {
    const w = this.workers.get(group)?.[index];
    if (!w?.child) return undefined;
    if (w.state === 'ready') w.state = 'backoff'; // hand out no endpoint of a process being killed
    w.child.kill(signal);
    return w.child.pid;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const waiter of [...this.readyWaiters]) waiter.reject(new Error('the worker supervisor is stopping'));
    await Promise.all(this.all().map(async (w) => {
      clearInterval(w.healthTimer);
      clearInterval(w.modelsTimer);
      clearTimeout(w.restartTimer);
      w.state = 'stopped';
      const child = w.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }));
  }

  private async launch(w: Worker): Promise<void> {
    if (this.stopping) return;
    w.state = 'starting';
    const python = groupPython(w.group);
    const child = spawn(python, ['-m', 'horizon_runtime', '--group', w.group, '--host', '127.0.0.1', '--port', '0', '--catalog', CATALOG_PATH], {
      cwd: RUNTIME_DIR,
      env: { ...process.env, ...this.options.env, PYTHONUNBUFFERED: '1' },
      // stdin stays a pipe: the worker exits when it closes, so a kill -9 of this server leaves no orphan;
      // stderr (its JSON log lines) is relayed into this process's log stream
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const logger = this.options.logger;
    const errLines = createInterface({ input: child.stderr! });
    errLines.on('line', (line) => { if (logger) relayWorkerLine(logger, w.group, line); else process.stderr.write(`${line}\n`); });
    const name = this.options.workersPerGroup > 1 ? `${w.group}#${w.index}` : w.group;
    w.child = child;
    w.failedChecks = 0;
    const ready = new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker ${name} printed no READY line ` +
        `within ${this.options.readyTimeoutMs} ms`)), this.options.readyTimeoutMs);
      const lines = createInterface({ input: child.stdout! });
      lines.on('line', (line) => {
        if (!line.startsWith('READY ')) return;
        clearTimeout(timer);
        try {
          const { port } = JSON.parse(line.slice(6)) as { port: number };
          resolve(`http://127.0.0.1:${port}`);
        } catch (error) { reject(error as Error); }
      });
      child.once('error', (error) => { clearTimeout(timer); reject(error); });
      child.once('exit', (code, signal) => { clearTimeout(timer); reject(new Error(`worker ${name} exited before READY (code ${code}, signal ${signal})`)); });
    });
    child.once('exit', (code, signal) => this.onExit(w, child, code, signal));
    try {
      w.baseUrl = await ready;
      ({ models: w.models, missingWeights: w.missingWeights } = await fetchModels(w.baseUrl));
      w.state = 'ready';
      w.lastError = undefined;
      this.options.logger?.info(
        { group: w.group, worker: w.index, pid: child.pid, url: w.baseUrl, models: w.models.map((m) => m.model) }, 'model worker ready',
      );
      w.healthTimer = setInterval(() => void this.checkHealth(w, child), this.options.healthIntervalMs);
      w.healthTimer.unref();
      // path lookups only (docs/runtime-protocol.md): cheap enough to notice `models pull` within seconds
      w.modelsTimer = setInterval(() => { if (w.child === child) void this.refreshWorker(w).catch(() => undefined); }, this.options.modelsRefreshMs);
      w.modelsTimer.unref();
      // a worker that stays up for a minute has recovered: later crashes start the backoff afresh
      setTimeout(() => { if (w.child === child && w.state === 'ready') w.backoffMs = this.options.backoffInitialMs; }, 60_000).unref();
      this.emit('ready', w.group);
      for (const waiter of [...this.readyWaiters]) if (waiter.group === w.group) waiter.resolve();
    } catch (error) {
      w.lastError = (error as Error).message;
      this.options.logger?.error({ group: w.group, worker: w.index, err: w.lastError }, 'model worker failed to start');
      // the exit handler schedules the retry; a process that never spawned has no exit to wait for
      if (child.pid === undefined) this.onExit(w, child, null, null);
      else child.kill('SIGKILL');
      throw error;
    }
  }

  private async checkHealth(w: Worker, child: ChildProcess): Promise<void> {
    if (w.child !== child || w.state !== 'ready' || !w.baseUrl) return;
    try {
      const res = await request(`${w.baseUrl}/health`, { headersTimeout: 2_000, bodyTimeout: 2_000 });
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`health answered ${res.statusCode}`);
      w.failedChecks = 0;
    } catch (error) {
      if (this.options.busy?.(w.baseUrl)) return;
      w.failedChecks += 1;
      if (w.failedChecks >= this.options.healthFailures) {
        this.options.logger?.warn({ group: w.group, worker: w.index, err: (error as Error).message }, 'model worker unhealthy, restarting');
        this.kill(w.group, 'SIGKILL', w.index);
      }
    }
  }

  private onExit(w: Worker, child: ChildProcess, code: number | null, signal: string | null): void {
    if (w.child !== child) return;
    clearInterval(w.healthTimer);
    clearInterval(w.modelsTimer);
    if (this.stopping) { w.state = 'stopped'; return; }
    w.state = 'backoff';
    w.restarts += 1;
    w.lastError = `exited (code ${code}, signal ${signal})`;
    const delay = w.backoffMs;
    w.backoffMs = Math.min(w.backoffMs * 2, this.options.backoffMaxMs);
    this.options.logger?.warn({ group: w.group, worker: w.index, code, signal, restartInMs: delay }, 'model worker exited, restarting');
    this.emit('exit', w.group);
    w.restartTimer = setTimeout(() => void this.launch(w).catch(() => undefined), delay);
    w.restartTimer.unref();
  }
}

async function fetchModels(baseUrl: string): Promise<{ models: WorkerModels[]; missingWeights: MissingWeights[] }> {
  const res = await request(`${baseUrl}/models`, { headersTimeout: 10_000, bodyTimeout: 10_000 });
  const body = await res.body.json() as { models: WorkerModels[]; missing_weights?: MissingWeights[] };
  return { models: body.models, missingWeights: body.missing_weights ?? [] };
}
