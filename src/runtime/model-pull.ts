// Pulls run the official huggingface_hub client in the model runtime's virtualenv
// (runtime/horizon_runtime/pull.py), which prints one JSON event per line. This module starts it and
// reads its events, for the CLI (`horizon models pull`) and for the server's auto-pull (PullManager:
// one download per model size however many requests ask, progress for GET /v1/warmup).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { groupPython, installedGroups, RUNTIME_DIR } from './supervisor.ts';

export type PullEvent =
  | {
    event: 'resolved'; model: string; size: string; repo: string; revision: string; commit: string; gated: boolean; endpoint: string; bytes_total: number;
    files: { path: string; size: number }[];
  }
  | { event: 'waiting'; reason: string }
  | { event: 'up_to_date'; dir: string; commit: string; bytes_total: number }
  | { event: 'file_start'; path: string; size: number; resume_from: number }
  | { event: 'progress'; path: string; bytes: number; size: number }
  | { event: 'file_done'; path: string; size: number; skipped: boolean }
  | { event: 'installed'; dir: string; commit: string; bytes_total: number; seconds: number }
  | { event: 'error'; code: string; message: string };

/** Exit codes of a pull (pull.py's PULL_EXIT; the CLI passes them on; README "Getting a model"). */
export const PULL_EXIT = { ok: 0, unexpected: 1, usage: 2, network: 3, not_found: 4, access: 5, verification: 6, license: 7 } as const;

export interface PullOptions {
  modelDir: string;
  model: string;
  size: string;
  revision?: string;
  force?: boolean;
  env?: NodeJS.ProcessEnv;
  onEvent?: (event: PullEvent) => void;
  /** stops the download (its .part files stay: the next pull resumes them) */
  signal?: AbortSignal;
}

export interface PullOutcome { exitCode: number; error?: { code: string; message: string }; commit?: string; upToDate: boolean }

/** The interpreter that runs pulls: a runtime group's virtualenv that has huggingface_hub (core first). */
export function pullPython(): string | undefined {
  const [group] = installedGroups(['core', 'timesfm1']);
  return group ? groupPython(group) : undefined;
}

export function runPull(options: PullOptions): Promise<PullOutcome> {
  const python = pullPython();
  if (!python) {
    return Promise.resolve({ exitCode: PULL_EXIT.unexpected, upToDate: false, error: { code: 'runtime_not_installed', message: 'no model runtime virtualenv ' +
      'is installed: run bash scripts/setup.sh' } });
  }
  const args = ['-m', 'horizon_runtime.pull', '--model-dir', options.modelDir, '--model', options.model, '--size', options.size];
  if (options.revision) args.push('--revision', options.revision);
  if (options.force) args.push('--force');
  const child = spawn(python, args, { cwd: RUNTIME_DIR, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  options.signal?.addEventListener('abort', () => child.kill('SIGTERM'), { once: true });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
  const outcome: PullOutcome = { exitCode: 1, upToDate: false };
  createInterface({ input: child.stdout }).on('line', (line) => {
    let event: PullEvent;
    try { event = JSON.parse(line) as PullEvent; } catch { return; } // a library's stray print
    if (event.event === 'error') outcome.error = { code: event.code, message: event.message };
    if (event.event === 'installed' || event.event === 'up_to_date') outcome.commit = event.commit;
    if (event.event === 'up_to_date') outcome.upToDate = true;
    options.onEvent?.(event);
  });
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ ...outcome, error: { code: 'unexpected', message: error.message } }));
    child.on('close', (code, signal) => {
      outcome.exitCode = code ?? 1;
      if (code !== 0 && !outcome.error) {
        const last = stderr.trim().split('\n').pop() ?? '';
        outcome.error = { code: 'unexpected', message: `the pull exited with ${signal ?? `code ${code}`}${last ? `: ${last}` : ''}` };
      }
      resolve(outcome);
    });
  });
}

/** What GET /v1/warmup shows of a pull under way. */
export interface PullProgress {
  model: string;
  size: string;
  state: 'pulling' | 'installed' | 'failed';
  bytes_done: number;
  bytes_total: number | null;
  files_done: number;
  files_total: number | null;
  started_at: string;
  error?: { code: string; message: string };
}

interface Pull { progress: PullProgress; done: Promise<void>; fileBytes: Map<string, number> }

/** The server's pulls: at most one per (model, size) in this process (pull.py's lock file serialises
 * processes), progress kept for warm-up answers, `onInstalled` run before waiters are released. */
export class PullManager {
  private readonly pulls = new Map<string, Pull>();
  private readonly modelDir: string;
  private readonly onInstalled: (model: string, size: string) => Promise<void>;
  private readonly env?: NodeJS.ProcessEnv;
  private readonly stopping = new AbortController();

  constructor(options: { modelDir: string; onInstalled: (model: string, size: string) => Promise<void>; env?: NodeJS.ProcessEnv }) {
    this.modelDir = options.modelDir;
    this.onInstalled = options.onInstalled;
    this.env = options.env;
  }

  get(model: string, size: string): PullProgress | undefined {
    return this.pulls.get(`${model}/${size}`)?.progress;
  }

  /** The pull of this size: the running one, else a new one (also after a failure, which `take` reports first). */
  start(model: string, size: string): PullProgress {
    const key = `${model}/${size}`;
    const existing = this.pulls.get(key);
    if (existing && existing.progress.state !== 'failed') return existing.progress;
    const progress: PullProgress = {
      model, size, state: 'pulling', bytes_done: 0, bytes_total: null, files_done: 0, files_total: null, started_at: new Date().toISOString(),
    };
    const fileBytes = new Map<string, number>();
    const onEvent = (event: PullEvent) => {
      if (event.event === 'resolved') { progress.bytes_total = event.bytes_total; progress.files_total = event.files.length; }
      if (event.event === 'progress' || event.event === 'file_done') {
        fileBytes.set(event.path, event.event === 'progress' ? event.bytes : event.size);
        progress.bytes_done = [...fileBytes.values()].reduce((a, b) => a + b, 0);
        if (event.event === 'file_done') progress.files_done += 1;
      }
      if (event.event === 'up_to_date') { progress.bytes_done = event.bytes_total; progress.files_done = progress.files_total ?? 0; }
    };
    const done = runPull({ modelDir: this.modelDir, model, size, env: this.env, onEvent, signal: this.stopping.signal }).then(async (outcome) => {
      if (outcome.error) {
        progress.state = 'failed';
        progress.error = outcome.error;
        throw new Error(outcome.error.message);
      }
      await this.onInstalled(model, size);
      progress.state = 'installed';
    });
    done.catch(() => undefined); // waiters see the failure; an unawaited pull must not crash the process
    this.pulls.set(key, { progress, done, fileBytes });
    return progress;
  }

  /** Resolves when the size is installed (starting its pull if none runs); rejects with the pull's error. */
  async ensure(model: string, size: string): Promise<void> {
    this.start(model, size);
    await this.pulls.get(`${model}/${size}`)!.done;
  }

  /** A finished pull's state, forgotten once read (so a failure is reported once and the next request retries). */
  take(model: string, size: string): PullProgress | undefined {
    const key = `${model}/${size}`;
    const pull = this.pulls.get(key);
    if (pull && pull.progress.state !== 'pulling') this.pulls.delete(key);
    return pull?.progress;
  }

  /** Stops every running pull (shutdown); their partial files stay for the next pull to resume. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.pulls.values()].map((p) => p.done));
  }
}
