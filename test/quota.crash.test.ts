// Crash-exact quotas (issue 24): kill -9 of a real server process while charged synchronous requests
// are in flight, then recovery — at the embedded store's restart, or by a surviving replica on
// PostgreSQL — and the account's usage equals the answers actually received (200s). Before issue 24 the
// in-flight requests' units stayed charged (usage exceeded the 200s by the requests in flight).
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port.ts';
import { createPostgresDatabase, serveProcess, slowRequest } from './helpers.ts';

const ADMIN = 'a'.repeat(40);

interface Load { answered: () => number; settled: Promise<void> }

/** `n` charged sync forecasts at once; counts the 200s received (a cut connection is no answer). */
function load(base: string, key: string, n: number): Load {
  let answered = 0;
  const one = async () => {
    try {
      const res = await fetch(`${base}/v1/forecast`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(slowRequest()) });
      await res.arrayBuffer();
      if (res.status === 200) answered++;
    } catch { /* the server died: no answer */ }
  };
  return { answered: () => answered, settled: Promise.all(Array.from({ length: n }, one)).then(() => undefined) };
}

async function usedToday(base: string): Promise<number> {
  const res = await fetch(`${base}/v1/admin/accounts`, { headers: { authorization: `Bearer ${ADMIN}` } });
  assert.equal(res.status, 200);
  const body = await res.json() as { accounts: { used_today: number }[] };
  return body.accounts.reduce((sum, a) => sum + a.used_today, 0);
}

/** Waits until some charged request is still unanswered (usage ahead of the 200s), then kills the server. */
async function killMidFlight(child: ChildProcess, base: string, traffic: Load, answeredBefore = 0): Promise<number> {
  const deadline = Date.now() + 120_000;
  let used = 0;
  while (Date.now() < deadline) {
    used = await usedToday(base);
    if (used > answeredBefore + traffic.answered() + 1) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.ok(used > answeredBefore + traffic.answered() + 1, `requests in flight when killed (charged ${used}, answered ${answeredBefore} + ${traffic.answered()})`);
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  await traffic.settled;
  return used;
}

/** Polls until usage equals the answers (recovery may take a lease period on PostgreSQL). */
async function usageSettles(base: string, expected: number): Promise<number> {
  const deadline = Date.now() + 60_000;
  let used = await usedToday(base);
  while (used !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    used = await usedToday(base);
  }
  return used;
}

describe('crash-exact quotas: kill -9 with charged requests in flight', () => {
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  after(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    for (const drop of drops) await drop();
  });

  it('embedded store (PGlite): the restart refunds every unit whose answer was never sent', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'horizon-quota-crash-'));
    dirs.push(dataDir);
    const port = await freePort();
    const env = { HORIZON_ADMIN_TOKEN: ADMIN };
    const first = await serveProcess(dataDir, port, env);
    children.push(first.child);
    const key = /hzn_\S+/.exec(first.output())![0];
    const base = `http://127.0.0.1:${port}`;
    const traffic = load(base, key, 12);
    const chargedAtKill = await killMidFlight(first.child, base, traffic);

    const second = await serveProcess(dataDir, port, env);
    children.push(second.child);
    const used = await usedToday(base);
    assert.ok(chargedAtKill > traffic.answered(), 'the kill left charges without answers');
    assert.equal(used, traffic.answered(), `usage ${used} equals the ${traffic.answered()} answers received`);
    second.child.kill('SIGTERM');
    await new Promise((r) => second.child.once('exit', r));
  });

  it('PostgreSQL, two replicas: the survivor refunds the dead replica\'s pending units', async () => {
    const pgdb = await createPostgresDatabase();
    drops.push(pgdb.drop);
    const env = { HORIZON_ADMIN_TOKEN: ADMIN, HORIZON_DATABASE_URL: pgdb.url, HORIZON_INSTANCE_LEASE_SECONDS: '2' };
    const [portA, portB] = [await freePort(), await freePort()];
    const dirA = mkdtempSync(join(tmpdir(), 'horizon-quota-crash-a-'));
    const dirB = mkdtempSync(join(tmpdir(), 'horizon-quota-crash-b-'));
    dirs.push(dirA, dirB);
    const a = await serveProcess(dirA, portA, env);
    children.push(a.child);
    const key = /hzn_\S+/.exec(a.output())![0];
    const b = await serveProcess(dirB, portB, env);
    children.push(b.child);
    const [baseA, baseB] = [`http://127.0.0.1:${portA}`, `http://127.0.0.1:${portB}`];
    // B answers too, and stays up: its answers count, its units are never refunded
    const onB = load(baseB, key, 3);
    await onB.settled;
    assert.equal(onB.answered(), 3);
    const onA = load(baseA, key, 12);
    const chargedAtKill = await killMidFlight(a.child, baseA, onA, onB.answered());
    const answers = onA.answered() + onB.answered();
    assert.ok(chargedAtKill > answers, 'the kill left charges without answers');
    const used = await usageSettles(baseB, answers);
    assert.equal(used, answers, `usage ${used} equals the ${answers} answers received`);
    b.child.kill('SIGTERM');
    await new Promise((r) => b.child.once('exit', r));
  });
});
