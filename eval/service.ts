// Starts a throw-away Horizon service in this process for the eval and bench scripts: a temp data
// dir (embedded store), only the "core" runtime group (unless HORIZON_RUNTIME_GROUPS names others,
// e.g. for foundation models served by another group), and a fresh account whose quotas are large
// enough that the default 200/day never gets in the way of a measurement. Everything else comes
// from the environment as for `horizon serve` (HORIZON_MODEL_DIR, HORIZON_ACCEPT_LICENSES, ...).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configFromEnv } from '../src/config.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { createAccount } from '../src/store/accounts.ts';
import { createApiKey } from '../src/store/api-keys.ts';

export interface Service {
  url: string;
  key: string;
  /** the in-process server (absent when the script was pointed at a running one with --url) */
  server?: RunningServer;
  close(): Promise<void>;
}

export interface ServiceOptions {
  /** worker-call timeout (504 after it); default: HORIZON_INFERENCE_TIMEOUT_MS or the service's 120 s */
  inferenceTimeoutMs?: number;
}

export async function startService(options: ServiceOptions = {}): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'horizon-eval-'));
  const fromEnv = configFromEnv({ HORIZON_LOG_LEVEL: 'warn', ...process.env });
  const config = {
    ...fromEnv,
    port: 0, host: '127.0.0.1', dataDir,
    runtimeGroups: fromEnv.runtimeGroups.length ? fromEnv.runtimeGroups : ['core'],
    ...(options.inferenceTimeoutMs !== undefined ? { inferenceTimeoutMs: options.inferenceTimeoutMs } : {}),
  };
  // the bootstrap key printed on the first start is not needed: we make our own account below
  const server = await startServer(config, { print: () => {} });
  for (const group of config.runtimeGroups) {
    if (!server.supervisor.endpoint(group)) {
      await server.close();
      throw new Error(`the "${group}" runtime worker did not start (is runtime/.venv-${group} set up?)`);
    }
  }
  const account = await createAccount(server.database.db, { name: 'eval-bench', dailyQuota: 10_000_000, weeklyQuota: 10_000_000 });
  const { key } = await createApiKey(server.database.db, account.id, 'bench');
  return {
    url: server.url, key, server,
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** `--url URL --key KEY` targets a running service; otherwise one is started in-process. */
export async function serviceFromArgs(args: { url?: string; key?: string }, options: ServiceOptions = {}): Promise<Service> {
  if (args.url) {
    if (!args.key) throw new Error('--url needs --key');
    return { url: args.url.replace(/\/$/, ''), key: args.key, async close() {} };
  }
  return startService(options);
}
