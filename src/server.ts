// `horizon serve`: opens the store, starts the model workers and the job consumers, serves HTTP,
// and shuts everything down in order on SIGINT/SIGTERM.
import { readFileSync } from 'node:fs';
import type { Config } from './config.ts';
import { loadCatalog } from './catalog.ts';
import { openDatabase, type Database } from './store/database.ts';
import { countAccounts, createAccount, AccountExistsError } from './store/accounts.ts';
import { createApiKey } from './store/api-keys.ts';
import { Supervisor, installedGroups } from './runtime/supervisor.ts';
import { InferenceClient } from './runtime/inference.ts';
import { ModelRegistry } from './models.ts';
import { JobQueue } from './jobs/queue.ts';
import { runForecast, type ForecastPlan } from './forecast.ts';
import { buildApp, type App } from './app.ts';
import { acquireStoreLock } from './store/lock.ts';
import { PullManager } from './model-pull.ts';
import { RecordedLicenses } from './model-weights.ts';

export const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface RunningServer {
  app: App;
  url: string;
  supervisor: Supervisor;
  database: Database;
  close(): Promise<void>;
}

/**
 * Creates the first account and key of an empty deployment; the key is printed once. Replicas
 * started together on one PostgreSQL race here: the unique account name lets one win, and the
 * others start without printing a key.
 */
async function bootstrapFirstAccount(database: Database, print: (line: string) => void): Promise<void> {
  if ((await countAccounts(database.db)) > 0) return;
  let account;
  try {
    account = await createAccount(database.db, { name: 'default' });
  } catch (error) {
    if (error instanceof AccountExistsError) return;
    throw error;
  }
  const key = await createApiKey(database.db, account.id, 'default');
  print(`horizon: created account "default" with its first API key (shown only now, store it):\n\n    ${key.key}\n`);
}

export async function startServer(config: Config, options: { print?: (line: string) => void } = {}): Promise<RunningServer> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const releaseLock = config.databaseUrl ? async () => {} : await acquireStoreLock(config.dataDir);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  await bootstrapFirstAccount(database, print);

  const catalog = loadCatalog();
  // groups that run in this process (the ensemble) have no worker to start
  const wanted = config.runtimeGroups.length ? config.runtimeGroups : Object.entries(catalog.groups).filter(([, g]) => !g.in_process).map(([name]) => name);
  const groups = installedGroups(wanted);
  const missing = wanted.filter((g) => !groups.includes(g));
  const logger = { info: (o: object, m?: string) => app.log.info(o, m), warn: (o: object, m?: string) => app.log.warn(o, m), error: (o: object, m?: string) => app.log.error(o, m) };
  const supervisor = new Supervisor({
    groups,
    logger,
    env: {
      HORIZON_MODEL_DIR: config.modelDir,
      HORIZON_BATCH_MAX_SERIES: config.batchMaxSeries?.toString(),
      HORIZON_BATCH_MAX_WAIT_MS: config.batchMaxWaitMs?.toString(),
    },
  });
  const registry = new ModelRegistry(catalog, {
    defaultModel: config.defaultModel, acceptedLicenses: config.acceptedLicenses, prismMembers: config.prismMembers,
    modelsByGroup: () => supervisor.modelsByGroup(), missingWeightsByGroup: () => supervisor.missingWeightsByGroup(),
    recordedLicenses: new RecordedLicenses(config.modelDir),
  });
  // a pull's waiters go on once every worker lists the new size
  const pulls = config.autoPull ? new PullManager({ modelDir: config.modelDir, onInstalled: () => supervisor.refreshAll() }) : undefined;
  const inference = new InferenceClient((g) => supervisor.endpoint(g), config.inferenceTimeoutMs);
  const queue = new JobQueue(database, { retryLimit: config.jobRetryLimit, concurrency: config.jobConcurrency, resultTtlSeconds: config.jobResultTtlSeconds, logger });

  const app = await buildApp({
    config, database, registry, inference, queue, pulls, version: VERSION,
    workers: () => supervisor.status(),
    logger: { level: config.logLevel },
  });
  if (missing.length) app.log.warn({ missing }, 'runtime groups without a virtualenv are not started (run scripts/setup.sh)');

  await supervisor.start();
  await queue.start();
  await queue.consume((request) => runForecast(inference, registry, request as ForecastPlan, undefined, pulls));
  const recovered = await queue.reconcile();
  if (recovered.enqueued || recovered.failed) app.log.info(recovered, 'reconciled unfinished jobs');

  const url = await app.listen({ port: config.port, host: config.host });
  let closing: Promise<void> | undefined;
  const close = () => closing ??= (async () => {
    await app.close();
    await queue.stop();
    await pulls?.stop();
    await supervisor.stop();
    await inference.close();
    await database.close();
    await releaseLock();
  })();
  return { app, url, supervisor, database, close };
}
