// The node:test stage of scripts/test.sh: every test/**/*.test.ts through node:test's own run(), the files that take
// longest started first. `node --test` starts files in alphabetical order, so the longest ones (soak, models.pull,
// ray-serve) started last and the run ended with one of them alone on an otherwise idle machine; longest first,
// the short files fill the gaps at the end instead (longest-processing-time-first scheduling).
//
//   node scripts/run-node-tests.ts [--concurrency N] [--times-log PATH]
// Output as `node --test --test-reporter=spec` (scripts/test-summary.ts reads its closing "ℹ pass/fail" lines);
// test-file-times.ts's table goes to --times-log. Exits 1 when a test fails.
import { createWriteStream, globSync } from 'node:fs';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { parseArgs } from 'node:util';
import fileTimes from './test-file-times.ts';

/** The longest files by wall time in scripts/test.sh's node stage (test-output/node-times.log, 2026-11-29 run:
 * 121 … 43 s; the median file takes ~10 s). Each must exist: a renamed file fails the run rather than drop out. */
export const LONGEST_FIRST = [
  'test/api.fine-tuning.test.ts', 'test/models.pull.test.ts', 'test/soak.test.ts', 'test/api.jobs-chunked.test.ts',
  'test/jobs.anomaly-durability.test.ts', 'test/jobs.hierarchy-durability.test.ts', 'test/cli.test.ts', 'test/api.admin.test.ts',
  'test/ray-serve.test.ts', 'test/jobs.worker-storm.test.ts', 'test/models.granite.test.ts', 'test/api.forecast-auto.test.ts',
  'test/api.anomalies.test.ts', 'test/api.joint-and-samples.test.ts', 'test/durability.test.ts',
];

/** Every test file, LONGEST_FIRST first in its order, the rest alphabetically (as `node --test` would). */
export function orderedTestFiles(all: string[]): string[] {
  const missing = LONGEST_FIRST.filter((f) => !all.includes(f));
  if (missing.length) throw new Error(`scripts/run-node-tests.ts LONGEST_FIRST names files that do not exist: ${missing.join(', ')}`);
  return [...LONGEST_FIRST, ...all.filter((f) => !LONGEST_FIRST.includes(f)).sort()];
}

/** Runs `files` as `node --test --test-reporter=spec` would: the report on stdout, process.exitCode 1 on a failure. */
export function runTestFiles(files: string[], options: { concurrency: number; timesLog?: string }): void {
  // as `node --test-timeout=300000`: a hung test fails after 5 min instead of holding the run to CI's limit
  const stream = run({ files, concurrency: options.concurrency, timeout: 300_000 });
  stream.on('test:summary', (summary: { success: boolean }) => { if (!summary.success) process.exitCode = 1; });
  stream.compose(spec).pipe(process.stdout);
  if (options.timesLog) stream.compose(fileTimes).pipe(createWriteStream(options.timesLog));
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { concurrency: { type: 'string', default: '2' }, 'times-log': { type: 'string' } } });
  runTestFiles(orderedTestFiles(globSync('test/**/*.test.ts')), { concurrency: Number(values.concurrency), timesLog: values['times-log'] });
}
