// The Ray Serve inference backend (HORIZON_INFERENCE_URL): instead of starting local workers, the
// control plane calls the Serve applications of `python -m horizon_runtime.serve deploy`, one per
// runtime group at <url>/<group>, which speak the worker protocol (docs/runtime-protocol.md). This
// module only tracks what the cluster serves; the calls go through the same InferenceClient.
import { request } from 'undici';
import type { MissingWeights, WorkerModels, WorkerStatus } from './supervisor.ts';

interface Logger { info(o: object, m?: string): void; warn(o: object, m?: string): void }

/** What server.ts needs from a backend; the local Supervisor has the same methods. */
export interface InferenceBackend {
  start(): Promise<void>;
  stop(): Promise<void>;
  endpoint(group: string): string | undefined;
  /** every ready worker of the group, when there can be several (the local Supervisor) */
  endpoints?(group: string): string[];
  /** resolves once the group has a ready worker (the local Supervisor); without it a job waiting for a worker
   * only backs off between tries (src/jobs/worker-wait.ts) */
  whenReady?(group: string, signal?: AbortSignal): Promise<void>;
  modelsByGroup(): Map<string, WorkerModels[]>;
  missingWeightsByGroup(): Map<string, MissingWeights[]>;
  refreshAll(): Promise<void>;
  status(): WorkerStatus[];
}

interface GroupState {
  served: boolean; /** its last models call answered */ reachable: boolean; models: WorkerModels[]; missingWeights: MissingWeights[]; lastError?: string;
}

export class ServeCluster implements InferenceBackend {
  private readonly url: string;
  private readonly groups = new Map<string, GroupState>();
  private readonly refreshMs: number;
  private readonly logger?: Logger;
  private timer?: NodeJS.Timeout;

  constructor(url: string, groups: string[], options: { modelsRefreshMs?: number; logger?: Logger } = {}) {
    this.url = url.replace(/\/+$/, '');
    this.refreshMs = options.modelsRefreshMs ?? 2_000;
    this.logger = options.logger;
    for (const g of groups) this.groups.set(g, { served: false, reachable: false, models: [], missingWeights: [] });
  }

  async start(): Promise<void> {
    await this.refreshAll();
    this.logger?.info(
      { url: this.url, groups: Object.fromEntries([...this.groups].map(([g, s]) => [g, s.served ? s.models.map((m) => m.model) : 'not deployed'])) },
      'Ray Serve inference backend',
    );
    // replicas come and go (autoscaling, a replaced node, weights pulled on the cluster): re-read their lists
    this.timer = setInterval(() => void this.refreshAll(), this.refreshMs);
    this.timer.unref();
  }

  async stop(): Promise<void> { clearInterval(this.timer); }

  /** The group's Serve application, once the cluster has answered for it; while a replica restarts the
   * proxy's own answers map to 503 no_worker in the client. */
  endpoint(group: string): string | undefined {
    return this.groups.get(group)?.served ? `${this.url}/${group}` : undefined;
  }

  modelsByGroup(): Map<string, WorkerModels[]> {
    return new Map([...this.groups].map(([g, s]) => [g, s.models]));
  }

  missingWeightsByGroup(): Map<string, MissingWeights[]> {
    return new Map([...this.groups].map(([g, s]) => [g, s.missingWeights]));
  }

  status(): WorkerStatus[] {
    return [...this.groups].filter(([, s]) => s.served || !s.reachable).map(([group, s]) => ({
      group, worker: 0, state: s.reachable ? 'ready' as const : 'backoff' as const, restarts: 0, lastError: s.lastError,
    }));
  }

  async refreshAll(): Promise<void> {
    await Promise.all([...this.groups].map(([g, s]) => this.refresh(g, s)));
  }

  private async refresh(group: string, state: GroupState): Promise<void> {
    try {
      const res = await request(`${this.url}/${group}/models`, { headersTimeout: 10_000, bodyTimeout: 10_000 });
      const text = await res.body.text();
      state.reachable = true;
      if (res.statusCode === 404) { state.served = false; state.models = []; state.missingWeights = []; return; } // no such application
      if (res.statusCode !== 200) throw new Error(`${group}/models answered ${res.statusCode}`);
      const body = JSON.parse(text) as { models: WorkerModels[]; missing_weights?: MissingWeights[] };
      Object.assign(state, { served: true, models: body.models, missingWeights: body.missing_weights ?? [], lastError: undefined });
    } catch (error) {
      // keep the last known list: a replica restarting should not make its models vanish from /v1/models
      const repeated = state.lastError === (error as Error).message;
      state.lastError = (error as Error).message;
      state.reachable = false; // /v1/status: degraded until the cluster answers again
      if (!repeated) this.logger?.warn({ group, err: state.lastError }, 'Ray Serve: reading the models failed');
    }
  }
}
