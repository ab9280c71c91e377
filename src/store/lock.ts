// The embedded store (PGlite) is one process's files: a lock file keeps a second server, or the CLI,
// from opening them at the same time. A lock left by a dead process is taken over.
import { openSync, writeSync, closeSync, readFileSync, unlinkSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export class StoreLockedError extends Error {
  readonly pid: number;
  constructor(pid: number, dataDir: string) {
    super(`the embedded store in ${dataDir} is in use by process ${pid} (a running horizon server); stop it first, or use HORIZON_DATABASE_URL`);
    this.pid = pid;
  }
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch (error) { return (error as { code?: string }).code === 'EPERM'; }
}

export function lockHolder(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'horizon.lock'), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid) ? pid : undefined;
  } catch { return undefined; }
}

export async function acquireStoreLock(dataDir: string): Promise<() => Promise<void>> {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, 'horizon.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return async () => { try { unlinkSync(path); } catch { /* already gone */ } };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      const holder = lockHolder(dataDir);
      if (holder) throw new StoreLockedError(holder, dataDir);
      unlinkSync(path); // stale: its process is gone
    }
  }
  throw new Error(`could not lock ${path}`);
}
