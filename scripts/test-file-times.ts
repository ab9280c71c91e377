// A node:test reporter that lists each test file's wall time (its process, from start to end), when it started
// in the run, and its slowest top-level tests: where the node stage of scripts/test.sh spends its time.
//   node --test --test-reporter=./scripts/test-file-times.ts --test-reporter-destination=test-output/node-times.log …
// Slowest file first. The times are wall times on a shared machine: compare shares, not absolutes.
import { relative } from 'node:path';

interface TestEvent { type: string; data?: { file?: string; name?: string; nesting?: number; details?: { duration_ms?: number } } }
interface FileTimes { started: number; wallMs?: number; tests: { name: string; ms: number }[] }

const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(6);

export default async function* fileTimes(source: AsyncIterable<TestEvent>): AsyncGenerator<string> {
  const t0 = Date.now();
  const files = new Map<string, FileTimes>();
  const entry = (file: string) => files.get(file) ?? files.set(file, { started: Date.now() - t0, tests: [] }).get(file)!;
  for await (const event of source) {
    const { file, name, nesting, details } = event.data ?? {};
    if (!file || nesting !== 0) continue;
    const rel = relative(process.cwd(), file);
    if (event.type === 'test:dequeue' && name === rel) entry(rel).started = Date.now() - t0;
    if (event.type !== 'test:complete') continue;
    // the file itself is a test named by its path (its process's wall time); the rest are its top-level tests
    if (name === rel) entry(rel).wallMs = details?.duration_ms ?? 0;
    else entry(rel).tests.push({ name: name ?? '', ms: details?.duration_ms ?? 0 });
  }
  const rows = [...files].sort((a, b) => (b[1].wallMs ?? 0) - (a[1].wallMs ?? 0));
  yield `node:test files by wall time (run ${seconds(Date.now() - t0).trim()} s, ${rows.length} files)\n`;
  yield `  wall s  start s  tests  file — slowest tests\n`;
  for (const [file, t] of rows) {
    const slow = [...t.tests].sort((a, b) => b.ms - a.ms).slice(0, 3).map((x) => `${x.name.slice(0, 60)} ${(x.ms / 1000).toFixed(1)}s`);
    yield `  ${seconds(t.wallMs ?? 0)}   ${seconds(t.started)}  ${String(t.tests.length).padStart(5)}  ${file} — ${slow.join('; ')}\n`;
  }
}
