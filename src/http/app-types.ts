// The types buildApp (app.ts) and its routes share: what the app is given (AppDeps), what every route
// gets (AppContext), the Fastify instance (App) and a route's signature (Route). A module of their own:
// app.ts registers the routes, so a route taking its types from app.ts (or from routes/index.ts) made
// an import circle; test/layers.test.ts fails on any circle in src/, type-only imports included.
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from '../config.ts';
import type { Database } from '../store/database.ts';
import type { InferenceClient } from '../runtime/inference.ts';
import type { PullManager } from '../runtime/model-pull.ts';
import type { ModelRegistry } from '../runtime/models.ts';
import type { WorkerStatus } from '../runtime/supervisor.ts';
import type { FineTuner } from '../runtime/fine-tuning.ts';
import type { JobQueue } from '../jobs/queue.ts';
import type { SeriesScorer } from '../jobs/series-scorer.ts';
import type { PrivateModels } from '../jobs/fine-tuning-job.ts';
import type { AnswerThreads } from '../forecasting/answer-threads.ts';
import type { SyncLimits } from './sync-limits.ts';
import type { KeyCache } from './key-cache.ts';
import type { Telemetry } from './telemetry.ts';
import type { AdminTokens, adminHook } from './admin.ts';

type RequiredConfig = 'bodyLimitBytes' | 'jobResultTtlSeconds' | 'logLevel' | 'metricsToken' | 'inferenceTimeoutMs' | 'syncBudgetMs' | 'cpuWorkers';
type OptionalConfig = 'autoCandidates' | 'autoWindows' | 'autoRefit' | 'inferFloat32' | 'requestThreadMinBytes' | 'seriesMaxPerAccount'
  | 'seriesMaxPoints' | 'fineTuneMaxSteps' | 'fineTuneInlineMaxSteps';

/** What buildApp is given: the server entry (server.ts) and the tests pass real ones. */
export interface AppDeps {
  config: Pick<Config, RequiredConfig> & Partial<Pick<Config, OptionalConfig>> & Partial<SyncLimits>;
  database: Database;
  registry: ModelRegistry;
  inference: InferenceClient;
  queue: JobQueue;
  /** auto-pull of missing weights (HORIZON_AUTO_PULL=1); absent: nothing is downloaded at request time */
  pulls?: PullManager;
  workers: () => WorkerStatus[];
  /** tokens of the /v1/admin operations; none: they answer 404 */
  admin?: AdminTokens;
  version: string;
  logger?: boolean | object;
  /** the /metrics registry (server.ts gives it the workers' endpoints); absent: one without worker scrapes */
  telemetry?: Telemetry;
  /** threads that write large forecast answers off the event loop (HORIZON_ANSWER_THREADS); absent: all on the loop */
  answerThreads?: AnswerThreads;
  /** fine-tuning (POST /v1/fine-tuning-jobs) and the accounts' private models; absent: no account has any */
  fineTuning?: { tuner: FineTuner; privateModels: PrivateModels };
  /** scores stored forecasts when appends cover them (server.ts starts it); absent: only a sweep elsewhere scores */
  seriesScorer?: SeriesScorer;
}

/** What routes get: the deps plus what buildApp derives from them. */
export interface AppContext extends AppDeps {
  keyCache?: KeyCache;
  telemetry: Telemetry;
  /** onRequest hook of the admin routes (admin.ts) */
  adminAuth: ReturnType<typeof adminHook>;
}

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** One operation of the API (src/http/routes/, one file each): registers itself on the app. */
export type Route = (app: App, deps: AppContext) => void;
