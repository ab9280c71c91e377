// Starts a throw-away Horizon service in this process for the eval and bench scripts: a temp data
// dir (embedded store), only the "core" runtime group, and a fresh account whose quotas are large
// enough that the default 200/day never gets in the way of a measurement.
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

export async function startService(): Promise<Service> {
  const dataDir = mkdtempSync(join(tmpdir(), 'horizon-eval-'));
  const config = {
    ...configFromEnv({ HORIZON_LOG_LEVEL: 'warn', ...process.env }),
    port: 0, host: '127.0.0.1', dataDir, runtimeGroups: ['core'],
  };
  // the bootstrap key printed on the first start is not needed: we make our own account below
  const server = await startServer(config, { print: () => {} });
  if (!server.supervisor.endpoint('core')) {
    await server.close();
    throw new Error('the "core" runtime worker did not start (is runtime/.venv-core set up?)');
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
export async function serviceFromArgs(args: { url?: string; key?: string }): Promise<Service> {
  if (args.url) {
    if (!args.key) throw new Error('--url needs --key');
    return { url: args.url.replace(/\/$/, ''), key: args.key, async close() {} };
  }
  return startService();
}
