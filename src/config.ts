// Configuration from the environment, read once at start-up. Every variable is in the README table.
import { resolve } from 'node:path';
import { availableParallelism } from 'node:os';
import { existsSync } from 'node:fs';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** foundation-model weights, <dir>/<model-id>/<size>/ (where `horizon models pull` installs them) */
  modelDir: string;
  /** HORIZON_AUTO_PULL=1: a request for a size without weights starts its pull from the Hub */
  autoPull: boolean;
  defaultModel?: string;
  /** HORIZON_NIXTLA_DEFAULT_MODEL: the model a TimeGPT name (timegpt-*, azureai) runs on /nixtla; default "auto" */
  nixtlaDefaultModel: string;
  /** model ids whose non-commercial / gated licence the operator has accepted ("*" = all) */
  acceptedLicenses: string[];
  /** prism's members; empty = served foundation models, else the statistical ones */
  prismMembers: string[];
  /** HORIZON_PRISM_BACKTEST: 'forward' (default: one fit per member and series where the model allows) or 'refit' (v3) */
  prismBacktest: 'forward' | 'refit';
  /** HORIZON_POOL_BUDGET_MS: the estimated ms of one core per series a statistical model may cost to join the pool
   * prism combines and auto chooses from (src/forecasting/model-pool.ts); unset = its default */
  poolBudgetMs?: number;
  /** model "auto": HORIZON_AUTO_CANDIDATES (id or id:size); empty = served foundation models, then statistical ones */
  autoCandidates: string[];
  /** model "auto": cross-validation windows (HORIZON_AUTO_WINDOWS, 1-3) */
  autoWindows?: number;
  /** model "auto": how statistical candidates are cross-validated (HORIZON_AUTO_REFIT form | 1 | 0; src/forecasting/auto.ts AUTO_DEFAULT_REFIT) */
  autoRefit?: boolean | 'form';
  bodyLimitBytes: number;
  /** Ray Serve HTTP address (HORIZON_INFERENCE_URL): inference on the cluster instead of local workers */
  inferenceUrl?: string;
  /** runtime groups to start locally (or to use on the cluster); empty = every group whose virtualenv exists */
  runtimeGroups: string[];
  inferenceTimeoutMs: number;
  /** HORIZON_SYNC_BUDGET_MS: a POST /v1/forecast or /v1/cross-validation estimated above it is refused
   * (413 use_job_api); unset = half of inferenceTimeoutMs (syncBudgetMs()) */
  syncBudgetMs?: number;
  /** HORIZON_JOB_CHUNK_BUDGET_MS: a job estimated above it runs in chunks of at most this much estimated
   * work each; unset = half of inferenceTimeoutMs (jobChunkBudgetMs()) */
  jobChunkBudgetMs?: number;
  /** HORIZON_CPU_WORKERS: the processes a worker fits statistical models in (it reads the same variable);
   * the cost estimate divides by it. Default: the cores this process may use */
  cpuWorkers: number;
  /** HORIZON_INFER_FLOAT32 (default on): float32 models answer the control plane in float32 bytes (exact) */
  inferFloat32: boolean;
  /** HORIZON_INFER_COALESCE (default on): concurrent model calls with one batch key go to the worker as one call */
  inferCoalesce: boolean;
  /** threads that write large forecast answers (0: none, all on the event loop) and the smallest answer, in numbers, sent to one */
  answerThreads: number;
  answerThreadMinValues: number;
  /** HORIZON_REQUEST_THREAD_MIN_BYTES: a POST /v1/forecast body at least this large is parsed, validated and normalised in a forecast thread (0: never) */
  requestThreadMinBytes: number;
  /** HORIZON_WORKERS_PER_GROUP: local worker processes per runtime group */
  workersPerGroup: number;
  jobRetryLimit: number;
  /** HORIZON_JOB_WORKER_WAIT_MS: the longest a job's model call waits for its group's worker to come back (a restart
   * costs the job no attempt, src/jobs/worker-wait.ts); then the job fails with no_worker. 0: no wait */
  jobWorkerWaitMs: number;
  jobResultTtlSeconds: number;
  jobConcurrency: number;
  /** HORIZON_FINETUNE_CONCURRENCY: fine-tuning jobs run at once by this process (one device: 1) */
  fineTuneConcurrency: number;
  /** HORIZON_FINETUNE_MAX_STEPS: the most steps a fine-tuning job may ask for */
  fineTuneMaxSteps: number;
  /** HORIZON_FINETUNE_INLINE_MAX_STEPS: the most `finetune_steps` one POST /v1/forecast may ask for */
  fineTuneInlineMaxSteps: number;
  batchMaxSeries?: number;
  batchMaxWaitMs?: number;
  logLevel: string;
  /** bearer token GET /metrics requires; unset: /metrics is open (bind it to a private network) */
  metricsToken?: string;
  /** HORIZON_ADMIN_TOKEN: bearer token of the /v1/admin operations (at least 32 characters); unset = they answer 404 */
  adminToken?: string;
  /** quotas of the first account and of accounts created without flags; 0 = unlimited */
  defaultDailyQuota: number;
  defaultWeeklyQuota: number;
  /** stored series (docs/stored-series.md): HORIZON_SERIES_MAX_PER_ACCOUNT, HORIZON_SERIES_MAX_POINTS (0 = no limit) */
  seriesMaxPerAccount: number;
  seriesMaxPoints: number;
  /** HORIZON_SERIES_SWEEP_MS: how often unscored stored forecasts are looked for (an append also wakes the scorer) */
  seriesSweepMs: number;
  /** HORIZON_WEBHOOK_BACKOFF_MS: the first retry of a failed webhook delivery, doubling per attempt (at most 1 h, 12 attempts) */
  webhookBackoffMs: number;
  /** PostgreSQL: HORIZON_INSTANCE_LEASE_SECONDS without a lease renewal after which a process counts as dead and its pending
   * charges are refunded (migration 008) */
  instanceLeaseSeconds: number;
  /** embedded store: HORIZON_SERIES_CACHE_BYTES of stored histories kept in memory (src/store/series-cache.ts); 0: none */
  seriesCacheBytes: number;
  /** HORIZON_SYNC_MAX_SERIES / HORIZON_SYNC_MAX_POINTS: the most series / observations one synchronous request may hold (0 = no cap);
   * beyond: 413 use_job_api */
  syncMaxSeries: number;
  syncMaxPoints: number;
  /** HORIZON_ACCOUNT_MAX_INFLIGHT: synchronous model requests one account may have running at once on this process (0 = no cap);
   * beyond: 429 too_many_requests */
  accountMaxInflight: number;
  /** HORIZON_FAIR_CHUNK_SERIES: a model call of more series is cut into chunks of this many, queued fairly between accounts (0 = never) */
  fairChunkSeries: number;
  /** HORIZON_FAIR_CHUNK_SERIES_CPU: the same for a CPU model's calls (the catalog's statistical models and baselines) */
  fairChunkSeriesCpu: number;
}

function oneOf<T extends string>(env: NodeJS.ProcessEnv, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) throw new Error(`${name} must be one of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
  return raw as T;
}

/** Below this an operator token is guessable by brute force over the network. */
export const ADMIN_TOKEN_MIN_LENGTH = 32;

function adminToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = env.HORIZON_ADMIN_TOKEN;
  if (token === undefined || token === '') return undefined;
  if (token.length < ADMIN_TOKEN_MIN_LENGTH || /\s/.test(token)) {
    throw new Error(`HORIZON_ADMIN_TOKEN must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters without spaces (it has ${token.length}); e.g. ` +
      `\`openssl rand -hex 32\``);
  }
  return token;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function autoWindows(env: NodeJS.ProcessEnv): number | undefined {
  if (!env.HORIZON_AUTO_WINDOWS) return undefined;
  const value = int(env, 'HORIZON_AUTO_WINDOWS', 0);
  if (value < 1 || value > 3) throw new Error(`HORIZON_AUTO_WINDOWS must be 1, 2 or 3, got "${env.HORIZON_AUTO_WINDOWS}"`);
  return value;
}

/** HORIZON_CPU_WORKERS, as the worker reads it (runtime/horizon_runtime/cpu_pool.py): an integer >= 1, default the cores. */
function cpuWorkers(env: NodeJS.ProcessEnv): number {
  const value = int(env, 'HORIZON_CPU_WORKERS', availableParallelism());
  if (value < 1) throw new Error(`HORIZON_CPU_WORKERS must be an integer >= 1, got "${env.HORIZON_CPU_WORKERS}"`);
  return value;
}

/** Default worker processes per group: 3 where the foundation models run on an NVIDIA GPU (HORIZON_DEVICE
 * cuda, or auto with /dev/nvidia0 present), since one worker's own request handling leaves the GPU idle
 * between batches (bench/README.md, "service with 8 clients": 0.44-0.58 of the library with one, 0.86-1.07
 * with two; three gave 16-25 % more than two on the same machine); 1 on CPU, where a second copy of each
 * model would only share the same cores. */
export const GPU_WORKERS_PER_GROUP = 3;
export function defaultWorkersPerGroup(env: NodeJS.ProcessEnv, gpuPresent: () => boolean = () => existsSync('/dev/nvidia0')): number {
  const device = env.HORIZON_DEVICE || 'auto';
  if (device === 'cuda') return GPU_WORKERS_PER_GROUP;
  return device === 'auto' && gpuPresent() ? GPU_WORKERS_PER_GROUP : 1;
}

/** The most estimated model time a synchronous request may take (HORIZON_SYNC_BUDGET_MS, default half the worker-call timeout). */
export function syncBudgetMs(config: Pick<Config, 'syncBudgetMs' | 'inferenceTimeoutMs'>): number {
  return config.syncBudgetMs ?? Math.floor(config.inferenceTimeoutMs / 2);
}

/** The most estimated model time one chunk of a job may take (HORIZON_JOB_CHUNK_BUDGET_MS, default half the worker-call timeout). */
export function jobChunkBudgetMs(config: Pick<Config, 'jobChunkBudgetMs' | 'inferenceTimeoutMs'>): number {
  return config.jobChunkBudgetMs ?? Math.floor(config.inferenceTimeoutMs / 2);
}

function list(env: NodeJS.ProcessEnv, name: string): string[] {
  return (env[name] ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): Config {
  const optionalInt = (name: string) => (env[name] ? int(env, name, 0) : undefined);
  return {
    port: int(env, 'PORT', 8080),
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.HORIZON_DATA_DIR ?? './data'),
    databaseUrl: env.HORIZON_DATABASE_URL || undefined,
    modelDir: resolve(env.HORIZON_MODEL_DIR || './models'),
    autoPull: ['1', 'true'].includes(env.HORIZON_AUTO_PULL ?? ''),
    defaultModel: env.HORIZON_DEFAULT_MODEL || undefined,
    nixtlaDefaultModel: env.HORIZON_NIXTLA_DEFAULT_MODEL || 'auto',
    acceptedLicenses: list(env, 'HORIZON_ACCEPT_LICENSES'),
    prismMembers: list(env, 'HORIZON_PRISM_MEMBERS'),
    prismBacktest: oneOf(env, 'HORIZON_PRISM_BACKTEST', ['forward', 'refit'] as const, 'forward'),
    poolBudgetMs: optionalInt('HORIZON_POOL_BUDGET_MS'),
    autoCandidates: list(env, 'HORIZON_AUTO_CANDIDATES'),
    autoWindows: autoWindows(env),
    autoRefit: env.HORIZON_AUTO_REFIT
      ? ({ form: 'form', 1: true, true: true, 0: false, false: false } as const)[oneOf(env, 'HORIZON_AUTO_REFIT', ['form', '1', 'true', '0', 'false'], 'form')]
      : undefined,
    bodyLimitBytes: int(env, 'HORIZON_BODY_LIMIT_BYTES', 10 * 1024 * 1024),
    inferenceUrl: env.HORIZON_INFERENCE_URL || undefined,
    runtimeGroups: list(env, 'HORIZON_RUNTIME_GROUPS'),
    inferenceTimeoutMs: int(env, 'HORIZON_INFERENCE_TIMEOUT_MS', 120_000),
    syncBudgetMs: optionalInt('HORIZON_SYNC_BUDGET_MS'),
    jobChunkBudgetMs: optionalInt('HORIZON_JOB_CHUNK_BUDGET_MS'),
    cpuWorkers: cpuWorkers(env),
    inferFloat32: !['0', 'false'].includes(env.HORIZON_INFER_FLOAT32 ?? ''),
    inferCoalesce: !['0', 'false'].includes(env.HORIZON_INFER_COALESCE ?? ''),
    // one core stays the event loop's; at most 4 (each thread holds a V8 heap)
    answerThreads: int(env, 'HORIZON_ANSWER_THREADS', Math.min(4, Math.max(1, availableParallelism() - 1))),
    answerThreadMinValues: int(env, 'HORIZON_ANSWER_THREAD_MIN_VALUES', 50_000),
    requestThreadMinBytes: int(env, 'HORIZON_REQUEST_THREAD_MIN_BYTES', 1024 * 1024),
    workersPerGroup: Math.max(1, int(env, 'HORIZON_WORKERS_PER_GROUP', defaultWorkersPerGroup(env))),
    jobRetryLimit: int(env, 'HORIZON_JOB_RETRY_LIMIT', 3),
    // a restart takes seconds; a worker that crashes while starting is retried with backoff up to 30 s apart
    jobWorkerWaitMs: int(env, 'HORIZON_JOB_WORKER_WAIT_MS', 300_000),
    jobResultTtlSeconds: int(env, 'HORIZON_JOB_RESULT_TTL_SECONDS', 7 * 24 * 3600),
    jobConcurrency: int(env, 'HORIZON_JOB_CONCURRENCY', 4),
    fineTuneConcurrency: Math.max(1, int(env, 'HORIZON_FINETUNE_CONCURRENCY', 1)),
    fineTuneMaxSteps: Math.max(1, int(env, 'HORIZON_FINETUNE_MAX_STEPS', 10_000)),
    fineTuneInlineMaxSteps: Math.max(0, int(env, 'HORIZON_FINETUNE_INLINE_MAX_STEPS', 200)),
    batchMaxSeries: optionalInt('HORIZON_BATCH_MAX_SERIES'),
    batchMaxWaitMs: optionalInt('HORIZON_BATCH_MAX_WAIT_MS'),
    logLevel: env.HORIZON_LOG_LEVEL ?? 'info',
    metricsToken: env.HORIZON_METRICS_TOKEN || undefined,
    adminToken: adminToken(env),
    instanceLeaseSeconds: Math.max(1, int(env, 'HORIZON_INSTANCE_LEASE_SECONDS', 30)),
    seriesCacheBytes: Math.max(0, int(env, 'HORIZON_SERIES_CACHE_BYTES', 256 * 1024 * 1024)),
    syncMaxSeries: int(env, 'HORIZON_SYNC_MAX_SERIES', 10_000),
    syncMaxPoints: int(env, 'HORIZON_SYNC_MAX_POINTS', 2_000_000),
    accountMaxInflight: int(env, 'HORIZON_ACCOUNT_MAX_INFLIGHT', 64),
    fairChunkSeries: int(env, 'HORIZON_FAIR_CHUNK_SERIES', 256),
    fairChunkSeriesCpu: int(env, 'HORIZON_FAIR_CHUNK_SERIES_CPU', 50),
    // the contract's 200/1,000 unless the operator says otherwise
    defaultDailyQuota: int(env, 'HORIZON_DEFAULT_DAILY_QUOTA', 200),
    defaultWeeklyQuota: int(env, 'HORIZON_DEFAULT_WEEKLY_QUOTA', 1000),
    seriesMaxPerAccount: int(env, 'HORIZON_SERIES_MAX_PER_ACCOUNT', 100_000),
    seriesMaxPoints: int(env, 'HORIZON_SERIES_MAX_POINTS', 100_000),
    seriesSweepMs: Math.max(100, int(env, 'HORIZON_SERIES_SWEEP_MS', 30_000)),
    webhookBackoffMs: Math.max(10, int(env, 'HORIZON_WEBHOOK_BACKOFF_MS', 5_000)),
  };
}
