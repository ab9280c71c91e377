// `horizon serve`: opens the store, starts the model workers and the job consumers, serves HTTP,
// and shuts everything down in order on SIGINT/SIGTERM.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { jobChunkBudgetMs, type Config } from './config.ts';
import { isCpuModel, loadCatalog } from './runtime/catalog.ts';
import { openDatabase, type Database } from './store/database.ts';
import { countAccounts, createAccount, AccountExistsError } from './store/accounts.ts';
import { createApiKey } from './store/api-keys.ts';
import { Supervisor, installedGroups } from './runtime/supervisor.ts';
import { InferenceClient } from './runtime/inference.ts';
import { AnswerThreads } from './forecasting/answer-threads.ts';
import { ServeCluster, type InferenceBackend } from './runtime/serve-cluster.ts';
import { ModelRegistry } from './runtime/models.ts';
import { JobQueue, type JobExecutor } from './jobs/queue.ts';
import { runForecast, type ForecastPlan } from './forecasting/forecast.ts';
import type { CrossValidationBody } from './forecasting/cross-validation.ts';
import { runCrossValidationJob } from './jobs/cross-validation-job.ts';
import { runAnomalyJob } from './jobs/anomaly-job.ts';
import { runEmbeddingJobAttempt } from './jobs/embedding-job.ts';
import type { AnomaliesBody } from './forecasting/anomalies.ts';
import { chunkingFor } from './jobs/chunks.ts';
import { WorkerWaitingInference } from './jobs/worker-wait.ts';
import { readStoredPlan, runThreadedJob, type ThreadedJobSettings } from './jobs/threaded-job.ts';
import { JsonText } from './store/job-payloads.ts';
import { isStoredAutoJob, planAuto, runAuto } from './forecasting/auto.ts';
import { isHierarchicalPlan, runHierarchy } from './forecasting/hierarchy.ts';
import { buildApp, type App } from './http/app.ts';
import { acquireStoreLock } from './store/lock.ts';
import { PullManager } from './runtime/model-pull.ts';
import { RecordedLicenses } from './runtime/model-weights.ts';
import { Telemetry } from './http/telemetry.ts';
import { runInContext } from './http/request-context.ts';
import { summarizeModels } from './runtime/model-summary.ts';
import { writeServerInfo } from './http/server-info.ts';
import { SeriesScorer } from './jobs/series-scorer.ts';
import { checkDrift, WebhookDeliverer } from './jobs/series-drift.ts';
import { storeJobForecasts } from './forecasting/stored-series.ts';
import { FineTuner } from './runtime/fine-tuning.ts';
import { PrivateModels, checkPrivateModelsExist, runFineTuningJob, type FineTuningJobRequest } from './jobs/fine-tuning-job.ts';

export const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface RunningServer {
  app: App;
  url: string;
  /** the local workers (none with HORIZON_INFERENCE_URL) */
  supervisor: Supervisor;
  /** where inference runs: the local supervisor, or the Ray Serve cluster */
  backend: InferenceBackend;
  database: Database;
  /** fine-tuning's process runner and the accounts' private models */
  fineTuning: { tuner: FineTuner; privateModels: PrivateModels };
  close(): Promise<void>;
}

/**
 * Creates the first account and key of an empty deployment; the key is printed once. Replicas
 * started together on one PostgreSQL race here: the unique account name lets one win, and the
 * others start without printing a key.
 */
async function bootstrapFirstAccount(database: Database, config: Config, print: (line: string) => void): Promise<void> {
  if ((await countAccounts(database.db)) > 0) return;
  let account;
  try {
    account = await createAccount(database.db, { name: 'default', dailyQuota: config.defaultDailyQuota, weeklyQuota: config.defaultWeeklyQuota });
  } catch (error) {
    if (error instanceof AccountExistsError) return;
    throw error;
  }
  const key = await createApiKey(database.db, account.id, 'default');
  print(`horizon: created account "default" with its first API key (shown only now, store it):\n\n    ${key.key}\n`);
}

/** What a job needs of the running server. */
interface JobDeps {
  config: Config;
  database: Database;
  registry: ModelRegistry;
  inference: InferenceClient;
  backend: InferenceBackend;
  pulls: PullManager | undefined;
  fineTuning: { tuner: FineTuner; privateModels: PrivateModels };
  /** set when forecast threads run (HORIZON_ANSWER_THREADS > 0) */
  jobThreads: ThreadedJobSettings | undefined;
  logger: ServerLogger;
  log: App['log'];
}

interface ServerLogger { info(o: object, m?: string): void; warn(o: object, m?: string): void; error(o: object, m?: string): void }

/** Runs one attempt of a queued job of any kind; a job's worker calls and log lines carry its job id as their request id. */
function jobExecutor(deps: JobDeps): JobExecutor {
  const { config, database, registry, inference, backend, pulls, fineTuning, jobThreads, logger, log } = deps;
  return async (request, jobId, kind, accountId, stopping) => {
    if (kind === 'fine-tuning') {
      const spec = (request as FineTuningJobRequest).spec;
      const fields = { request_id: jobId, job_id: jobId, kind, model: spec.model, size: spec.size, series: spec.series.length };
      return runInContext({ requestId: jobId, fields }, () =>
        runFineTuningJob(
          request as FineTuningJobRequest, jobId, accountId,
          { db: database.db, tuner: fineTuning.tuner, privateModels: fineTuning.privateModels, refreshWorkers: () => backend.refreshAll() },
        ));
    }
    // the account's private models are in the catalog for its job, as for its requests
    const privateModels = await fineTuning.privateModels.entries(accountId);
    if (kind === 'embeddings') { // one /embed call, never chunked by estimate nor planned in a thread (jobs/embedding-job.ts)
      const wait = { waitMs: config.jobWorkerWaitMs, whenReady: backend.whenReady?.bind(backend), signal: stopping };
      return runEmbeddingJobAttempt(request, jobId, { registry, pulls, shared: inference, wait, logger: log, privateModels });
    }
    // a large stored plan (store/job-payloads.ts) is read in a forecast thread: one plain model call runs from
    // the thread's encoded requests (jobs/threaded-job.ts), anything else is parsed here
    if (request instanceof JsonText) {
      const text = request;
      const context = { requestId: jobId, fields: { job_id: jobId }, privateModels };
      const read = jobThreads ? await runInContext(context, () => readStoredPlan(text, jobThreads)) : { request: text.parse() };
      if ('planned' in read) {
        const wait = { waitMs: config.jobWorkerWaitMs, whenReady: backend.whenReady?.bind(backend), signal: stopping };
        const client = new WorkerWaitingInference(inference, jobId, wait, logger);
        return runThreadedJob(read.planned, jobId, privateModels, client, jobThreads!);
      }
      request = read.request;
    }
    // a forecast job stores its plan; a cross-validation or anomaly job its (validated) body, planned again when it runs
    const cv = kind === 'cross-validation' ? request as CrossValidationBody : undefined;
    const anomalies = kind === 'anomalies' ? request as AnomaliesBody : undefined;
    const plan = request as ForecastPlan;
    const fields = cv
      ? { request_id: jobId, job_id: jobId, kind, models: cv.models.map((m) => (typeof m === 'string' ? m : m.model)).join(','), series: cv.series.length }
      : anomalies
      ? { request_id: jobId, job_id: jobId, kind, model: anomalies.model, series: anomalies.series.length }
      : { request_id: jobId, job_id: jobId, model: plan.model, size: plan.size, series: plan.series.length };
    const started = performance.now();
    return runInContext({ requestId: jobId, fields, privateModels }, async () => {
      // a call that finds no worker up waits for one (a restart costs the job no attempt: src/jobs/worker-wait.ts)
      const waiting = new WorkerWaitingInference(inference, jobId, {
        waitMs: config.jobWorkerWaitMs, whenReady: backend.whenReady?.bind(backend), signal: stopping,
      }, logger);
      const waited = () => (waiting.waitedMs > 0 ? { worker_wait_ms: Math.round(waiting.waitedMs) } : {});
      // a job estimated over HORIZON_JOB_CHUNK_BUDGET_MS runs its model calls in stored chunks (src/jobs/chunks.ts)
      const chunked = chunkingFor(request, kind, jobId, {
        shared: waiting, registry, db: database.db, pulls, logger,
        auto: { candidates: config.autoCandidates, windows: config.autoWindows, refit: config.autoRefit },
        settings: { budgetMs: jobChunkBudgetMs(config), cpuWorkers: config.cpuWorkers, retries: config.jobRetryLimit },
      });
      const jobInference = chunked ?? waiting;
      try {
        checkPrivateModelsExist(request, privateModels);
        const result = cv
          ? await runCrossValidationJob(cv, jobInference, registry, pulls)
          : anomalies
          ? await runAnomalyJob(anomalies, jobInference, { registry, pulls, autoCandidates: config.autoCandidates })
          : isHierarchicalPlan(request)
          ? await runHierarchy(request, jobInference, registry, {
            pulls, mode: 'job', auto: { candidates: config.autoCandidates, windows: config.autoWindows, refit: config.autoRefit },
          })
          : isStoredAutoJob(request)
          ? await runAuto(planAuto(
            request.auto_request, registry, { candidates: config.autoCandidates, windows: config.autoWindows, refit: config.autoRefit }, { pulls, mode: 'job' },
          ), jobInference, registry, pulls)
          : await runForecast(jobInference, registry, plan, undefined, pulls);
        // series_ids with store: true: the forecasts are kept before the job completes (ids from the job id)
        if (!cv && !anomalies) await storeJobForecasts(database.db, registry.catalog, request, result, jobId);
        const chunks = chunked && { chunks_reused: chunked.counts.reused, chunks_computed: chunked.counts.computed };
        log.info({ ...fields, duration_ms: Math.round((performance.now() - started) * 1e3) / 1e3, ...chunks, ...waited() }, 'job attempt completed');
        return result;
      } catch (error) {
        const code = (error as { code?: string }).code ?? 'internal_error';
        log.warn({ ...fields, code, duration_ms: Math.round((performance.now() - started) * 1e3) / 1e3, ...waited() }, 'job attempt failed');
        throw error;
      }
    });
  };
}

/** Shutdown: the steps in order (HTTP first, the store and its lock last), run once however often it is called. */
function closeOnce(steps: (() => Promise<unknown>)[]): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => closing ??= (async () => {
    for (const step of steps) await step();
  })();
}

/** The local model workers of the installed runtime groups. */
function localSupervisor(config: Config, groups: string[], logger: ServerLogger, busy: (url: string) => boolean): Supervisor {
  return new Supervisor({
    groups,
    logger,
    workersPerGroup: config.workersPerGroup,
    busy,
    env: {
      HORIZON_MODEL_DIR: config.modelDir,
      HORIZON_BATCH_MAX_SERIES: config.batchMaxSeries?.toString(),
      HORIZON_BATCH_MAX_WAIT_MS: config.batchMaxWaitMs?.toString(),
      // the workers log at the control plane's level (their lines are relayed into its log)
      HORIZON_LOG_LEVEL: config.logLevel,
    },
  });
}

export async function startServer(config: Config, options: {
  print?: (line: string) => void;
  /** where the JSON log lines go (default stdout; the tests capture them) */
  logStream?: { write(line: string): void };
} = {}): Promise<RunningServer> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const releaseLock = config.databaseUrl ? async () => {} : await acquireStoreLock(config.dataDir);
  const database = await openDatabase(
    { databaseUrl: config.databaseUrl, dataDir: config.dataDir, instanceLeaseSeconds: config.instanceLeaseSeconds, seriesCacheBytes: config.seriesCacheBytes },
  );
  await bootstrapFirstAccount(database, config, print);

  const catalog = loadCatalog();
  // groups that run in this process (the ensemble) have no worker to start
  const wanted = config.runtimeGroups.length ? config.runtimeGroups : Object.entries(catalog.groups).filter(([, g]) => !g.in_process).map(([name]) => name);
  // with a Ray Serve cluster the groups' virtualenvs live on its nodes, not here
  const groups = config.inferenceUrl ? [] : installedGroups(wanted);
  const missing = config.inferenceUrl ? [] : wanted.filter((g) => !groups.includes(g));
  const logger: ServerLogger = {
    info: (o: object, m?: string) => app.log.info(o, m), warn: (o: object, m?: string) => app.log.warn(o, m),
    error: (o: object, m?: string) => app.log.error(o, m),
  };
  // a worker with calls in flight is spared its missed health checks (a long fit holds its GIL)
  let inferenceClient: InferenceClient | undefined;
  const supervisor = localSupervisor(config, groups, logger, (url) => (inferenceClient?.inFlightAt(url) ?? 0) > 0);
  const backend: InferenceBackend = config.inferenceUrl ? new ServeCluster(config.inferenceUrl, wanted, { logger }) : supervisor;
  const registry = new ModelRegistry(catalog, {
    defaultModel: config.defaultModel, acceptedLicenses: config.acceptedLicenses, prismMembers: config.prismMembers, prismBacktest: config.prismBacktest,
    poolBudgetMs: config.poolBudgetMs,
    modelsByGroup: () => backend.modelsByGroup(), missingWeightsByGroup: () => backend.missingWeightsByGroup(),
    recordedLicenses: new RecordedLicenses(config.modelDir),
  });
  // a pull's waiters go on once every worker lists the new size
  const pulls = config.autoPull ? new PullManager({ modelDir: config.modelDir, onInstalled: () => backend.refreshAll() }) : undefined;
  const inference = new InferenceClient((g) => backend.endpoints?.(g) ?? backend.endpoint(g), config.inferenceTimeoutMs, {
    float32: config.inferFloat32, coalesce: config.inferCoalesce, chunkSeries: config.fairChunkSeries, cpuChunkSeries: config.fairChunkSeriesCpu,
    isCpuModel: (model) => isCpuModel(catalog, model), slotsPerEndpoint: config.inferenceUrl ? 32 : 2,
  });
  inferenceClient = inference;
  // forecast threads: large answers, and large POST /v1/forecast bodies (http/forecast-thread.ts)
  const answerThreads = config.answerThreads > 0 ? new AnswerThreads(
    config.answerThreads, config.answerThreadMinValues, new URL('./http/forecast-thread.ts', import.meta.url),
  ) : undefined;
  // a large forecast job is read, run and written in the same threads (jobs/threaded-job.ts)
  const jobThreads: ThreadedJobSettings | undefined = answerThreads && {
    threads: answerThreads, registry, inference, float32: config.inferFloat32, cpuWorkers: config.cpuWorkers, budgetMs: jobChunkBudgetMs(config), pulls, logger,
  };
  const queue = new JobQueue(database, {
    retryLimit: config.jobRetryLimit, concurrency: config.jobConcurrency, fineTuneConcurrency: config.fineTuneConcurrency,
    resultTtlSeconds: config.jobResultTtlSeconds, logger,
  });
  // fine-tuning: one process per job (src/runtime/fine-tuning.ts); the accounts' private models (src/jobs/fine-tuning-job.ts)
  const fineTuning = {
    tuner: new FineTuner({ modelDir: config.modelDir, concurrency: config.fineTuneConcurrency }), privateModels: new PrivateModels(database.db, catalog),
  };

  // the embedded store is this process's alone: the CLI reaches it through the admin API with this token
  const localAdminToken = database.kind === 'pglite' ? randomBytes(32).toString('base64url') : undefined;
  // stored forecasts are scored when appends cover them, and by a sweep (restarts, other replicas)
  const seriesScorer = new SeriesScorer(database.db, { logger, sweepMs: config.seriesSweepMs, afterScore: checkDrift });
  const webhooks = new WebhookDeliverer(database.db, { backoffMs: config.webhookBackoffMs, pollMs: Math.min(1000, config.webhookBackoffMs), logger });
  const app = await buildApp({
    config, database, registry, inference, queue, pulls, answerThreads, seriesScorer, fineTuning, version: VERSION,
    admin: { operator: config.adminToken, local: localAdminToken },
    workers: () => backend.status(),
    logger: options.logStream ? { level: config.logLevel, stream: options.logStream } : { level: config.logLevel },
    // a Serve cluster's replicas have no /metrics of ours (Ray exports its own): only local workers are scraped
    telemetry: new Telemetry({ db: database.db, workers: () => backend.status(), workerEndpoint: (g) => backend.endpoint(g) }),
  });
  if (missing.length) app.log.warn({ missing }, 'runtime groups without a virtualenv are not started (bash runtime/setup.sh <group>, or ./horizon models ' +
    'pull <model> installs its group)');

  await backend.start();
  for (const line of summarizeModels(registry, backend.status())) app.log.info(line, line.served ? 'catalog model served' : 'catalog model not served');
  await queue.start();
  await queue.consume(jobExecutor({ config, database, registry, inference, backend, pulls, fineTuning, jobThreads, logger, log: app.log }));
  seriesScorer.start();
  webhooks.start();
  const recovered = await queue.reconcile();
  if (recovered.enqueued || recovered.failed) app.log.info(recovered, 'reconciled unfinished jobs');

  let removeServerInfo = () => {};
  const close = closeOnce([
    async () => removeServerInfo(), () => app.close(), () => fineTuning.tuner.stop(), () => queue.stop(), () => seriesScorer.stop(),
    () => webhooks.stop(), async () => pulls?.stop(), () => backend.stop(), () => inference.close(), async () => answerThreads?.close(),
    () => database.close(), releaseLock,
  ]);
  let url: string;
  try {
    url = await app.listen({ port: config.port, host: config.host });
  } catch (error) { // e.g. the port is taken: stop the workers and timers started above, so the process can exit
    await close().catch(() => {});
    const code = (error as { code?: string }).code;
    const why = code === 'EADDRINUSE' ? ': the port is in use (set PORT)' : '';
    throw new Error(`cannot listen on ${config.host}:${config.port}${why}: ${(error as Error).message}`);
  }
  if (localAdminToken) removeServerInfo = writeServerInfo(config.dataDir, app.server.address(), localAdminToken);
  return { app, url, supervisor, backend, database, fineTuning, close };
}
