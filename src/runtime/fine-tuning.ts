// Fine-tuning runs in a process of its own per job (runtime/horizon_runtime/finetune.py, in the core
// group's virtualenv): training never shares a worker's GIL, device queue or event loop with
// inference. At most HORIZON_FINETUNE_CONCURRENCY run at once in this process (default 1: one device,
// one training). The process prints JSON events; a cancel is SIGTERM (it stops at its next training
// step and removes its temporary directory), SIGKILL after a grace period; whatever way it ends
// without `done`, its temporary directory and any half-installed model directory are removed here.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { HorizonError } from '../errors.ts';
import { CATALOG_PATH } from './catalog.ts';
import { groupPython, installedGroups, RUNTIME_DIR } from './supervisor.ts';

export interface FineTuneSeries {
  target: (number | null)[];
  past_covariates?: Record<string, (number | null)[]>;
  known_covariates?: string[];
  static_covariates?: Record<string, number>;
  /** inline fine-tuning: the known covariates' values over the horizon */
  future_covariates?: Record<string, number[]>;
}

export interface FineTuneSpec {
  model: string;
  size: string;
  model_id: string;
  horizon: number;
  steps: number;
  learning_rate: number;
  mode: 'full' | 'lora';
  validation_windows: number;
  batch_size?: number;
  series: FineTuneSeries[];
  /** false (inline fine-tuning of one forecast request): forecast `forecast_quantiles` (ascending) with the
   * trained pipeline and install nothing; the summary then carries `predictions` */
  install?: boolean;
  forecast_quantiles?: number[];
}

export interface FineTuneProgress { step: number; steps: number; loss: number | null; validation_loss: number | null }

export interface FineTuneSummary {
  series: number; steps: number; mode: string; learning_rate: number; horizon: number; validation_windows: number;
  validation_wql_before: number | null; validation_wql_after: number | null;
  final_loss: number | null; final_validation_loss: number | null; train_seconds: number; steps_per_second: number | null; device: string;
  /** with install: false, per series: mean and one row per forecast_quantiles level */
  predictions?: { mean: number[]; quantiles: number[][]; warnings: string[] }[];
}

type Event =
  | { event: 'started'; device: string }
  | ({ event: 'progress' } & FineTuneProgress)
  | { event: 'done'; model_id: string; summary: FineTuneSummary }
  | { event: 'cancelled' }
  | { event: 'error'; code: string; detail: string };

const EXIT_CANCELLED = 3;
const KILL_GRACE_MS = 5_000;

/** Private model directories: HORIZON_MODEL_DIR/private/<id>/ (what the workers look up). */
export function privateModelDir(modelDir: string, id: string): string {
  return join(modelDir, 'private', id);
}

export class FineTuner {
  private readonly modelDir: string;
  private readonly concurrency: number;
  private readonly env: NodeJS.ProcessEnv;
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly children = new Map<string, ChildProcess>();
  private stopping = false;

  constructor(options: { modelDir: string; concurrency: number; env?: NodeJS.ProcessEnv }) {
    this.modelDir = options.modelDir;
    this.concurrency = Math.max(1, options.concurrency);
    this.env = options.env ?? {};
    this.sweep();
  }

  /** The fine-tuning processes running now, by job id (the tests kill one with SIGKILL). */
  pids(): Map<string, number> {
    return new Map([...this.children].map(([job, child]) => [job, child.pid!]));
  }

  /** Temporary directories of fine-tuning processes that are gone (this host's; a crash of the server
   * leaves them): named .tmp-<id>-<pid>. */
  private sweep(): void {
    let names: string[];
    try { names = readdirSync(join(this.modelDir, 'private')); } catch { return; }
    for (const name of names) {
      const pid = Number(/^\.tmp-ft-[0-9a-f]+-(\d+)$/.exec(name)?.[1]);
      if (!pid) continue;
      let alive = true;
      try { process.kill(pid, 0); } catch { alive = false; }
      if (!alive) rmSync(join(this.modelDir, 'private', name), { recursive: true, force: true });
    }
  }

  private async slot(signal: AbortSignal, wait: boolean): Promise<void> {
    if (!wait && this.running >= this.concurrency) {
      throw new HorizonError('no_worker', `every fine-tuning slot of this server is busy (HORIZON_FINETUNE_CONCURRENCY=${this.concurrency}); retry later, or ` +
        `queue POST /v1/fine-tuning-jobs`, { headers: { 'retry-after': '30' } });
    }
    while (this.running >= this.concurrency) {
      if (signal.aborted) throw new HorizonError('job_cancelled', 'the job was cancelled');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running += 1;
  }

  private release(): void {
    this.running -= 1;
    this.waiting.shift()?.();
  }

  /**
   * Runs one fine-tuning to completion: resolves with the training summary once the model is installed.
   * Throws HorizonError: `job_cancelled` when `signal` aborted it, `no_worker` when the process died
   * (a kill, out of memory: transient, the job queue retries it), `fine_tuning_failed` otherwise.
   */
  async run(
    jobId: string, spec: FineTuneSpec, onProgress: (p: FineTuneProgress) => void, signal: AbortSignal, options: { wait?: boolean } = {},
  ): Promise<FineTuneSummary> {
    const [group] = installedGroups(['core']);
    if (!group) throw new HorizonError('fine_tuning_failed', 'the core runtime virtualenv (runtime/.venv-core) is not installed: run bash scripts/setup.sh');
    await this.slot(signal, options.wait ?? true);
    const specDir = join(tmpdir(), `horizon-finetune-${jobId}-${process.pid}`);
    mkdirSync(specDir, { recursive: true });
    const specPath = join(specDir, 'spec.json');
    writeFileSync(specPath, JSON.stringify({ ...spec, model_dir: this.modelDir, catalog: CATALOG_PATH }), { mode: 0o600 });
    let child: ChildProcess | undefined;
    try {
      child = spawn(groupPython(group), ['-m', 'horizon_runtime.finetune', specPath], {
        cwd: RUNTIME_DIR, env: { ...process.env, ...this.env, HORIZON_MODEL_DIR: this.modelDir, PYTHONUNBUFFERED: '1' }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.children.set(jobId, child);
      const running = child;
      let killTimer: NodeJS.Timeout | undefined;
      const cancel = () => {
        running.kill('SIGTERM');
        killTimer = setTimeout(() => running.kill('SIGKILL'), KILL_GRACE_MS);
      };
      if (signal.aborted) cancel(); else signal.addEventListener('abort', cancel, { once: true });
      let stderr = '';
      running.stderr!.on('data', (chunk: Buffer) => { stderr = (stderr + chunk.toString()).slice(-4000); });
      let done: Extract<Event, { event: 'done' }> | undefined;
      let failure: Extract<Event, { event: 'error' }> | undefined;
      createInterface({ input: running.stdout! }).on('line', (line) => {
        let event: Event;
        try { event = JSON.parse(line) as Event; } catch { return; } // a library's stray print
        if (event.event === 'progress') onProgress({ step: event.step, steps: event.steps, loss: event.loss, validation_loss: event.validation_loss });
        else if (event.event === 'done') done = event;
        else if (event.event === 'error') failure = event;
      });
      const [code, exitSignal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => {
        running.on('error', () => resolve([null, null]));
        running.on('close', (c, s) => resolve([c, s]));
      });
      clearTimeout(killTimer);
      signal.removeEventListener('abort', cancel);
      if (code === 0 && done) return done.summary;
      // not installed: nothing of this attempt may stay (a kill right after the rename leaves the model directory)
      rmSync(privateModelDir(this.modelDir, spec.model_id), { recursive: true, force: true });
      rmSync(join(this.modelDir, 'private', `.tmp-${spec.model_id}-${running.pid}`), { recursive: true, force: true });
      if (this.stopping) throw new HorizonError('no_worker', 'the server stopped while the job ran; it runs again (from its first step) on a running server');
      if (signal.aborted) throw new HorizonError('job_cancelled', 'the job was cancelled');
      if (code === EXIT_CANCELLED) throw new HorizonError('job_cancelled', 'the fine-tuning process was stopped');
      if (failure) throw new HorizonError(
        failure.code === 'weights_missing' ? 'weights_missing' : 'fine_tuning_failed', `fine-tuning failed: ${failure.detail}`,
      );
      const last = stderr.trim().split('\n').pop() ?? '';
      throw new HorizonError('no_worker', `the fine-tuning process ended with ${exitSignal ?? `exit code ${code}`} before it ` +
        `finished${last ? ` (${last.slice(0, 300)})` : ''}`);
    } finally {
      if (child) this.children.delete(jobId);
      rmSync(specDir, { recursive: true, force: true });
      this.release();
    }
  }

  /** Server shutdown: stops every training (SIGTERM, SIGKILL after the grace period); their jobs are delivered again. */
  async stop(): Promise<void> {
    this.stopping = true;
    const exits = [...this.children.values()].map((child) => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('close', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS).unref();
    }));
    await Promise.all(exits);
  }

  /** Removes a private model's weights (DELETE /v1/models/{id}); renamed first, so no worker sees half a directory. */
  remove(id: string): void {
    const dir = privateModelDir(this.modelDir, id);
    const doomed = join(this.modelDir, 'private', `.deleted-${id}-${process.pid}`);
    try {
      rmSync(doomed, { recursive: true, force: true });
      renameSyncSafe(dir, doomed);
      rmSync(doomed, { recursive: true, force: true });
    } catch {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

function renameSyncSafe(from: string, to: string): void {
  try { renameSync(from, to); } catch (error) { if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error; }
}
