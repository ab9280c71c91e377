// The closing line of scripts/test.sh: passes, failures and skips of every stage, read from the stages'
// logs (node:test's spec reporter, pytest with -rs, Schemathesis' exit status). Every skip is listed by
// name and reason; with CI=true a skip that no pattern of test/allowed-skips.txt matches counts as a
// failure, so a test that stops running on the CI machine cannot vanish unseen (issue 36).
//
//   node scripts/test-summary.ts --node test-output/node.log --pytest test-output/pytest.log [--pytest …] [--stage-failed N]
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

export interface StageCounts { passed: number; failed: number; skips: string[]; failures?: string[] }

/** node:test's spec output: the closing "ℹ pass/fail" counts, and one "﹣ name (…ms) # reason" line per skipped
 * test or suite (a skipped suite hides its tests from "ℹ skipped", so the lines are what is counted). */
export function nodeCounts(log: string): StageCounts {
  const last = (label: string) => Number([...log.matchAll(new RegExp(`^ℹ ${label} (\\d+)$`, 'gm'))].at(-1)?.[1] ?? 0);
  const skips = [...log.matchAll(/^\s*﹣ (.+?) \([\d.]+m?s\) # (.*)$/gm)].map((m) => `${m[1]} # ${m[2]}`);
  // a failed test's line (its suites' lines too), once each: the spec reporter repeats them under "failing tests"
  const failures = [...new Set([...log.matchAll(/^\s*✖ (.+?) \([\d.]+m?s\)$/gm)].map((m) => m[1]))];
  return { passed: last('pass'), failed: last('fail'), skips, failures };
}

/** pytest's closing line ("N passed, N failed, N errors, N skipped") and its -rs lines ("SKIPPED [n] where: reason"). */
export function pytestCounts(log: string): StageCounts {
  const closing = log.split('\n').filter((l) => /\d+ (passed|failed|errors?|skipped)/.test(l)).at(-1) ?? '';
  const count = (word: string) => Number(new RegExp(`(\\d+) ${word}`).exec(closing)?.[1] ?? 0);
  const skips = [...log.matchAll(/^SKIPPED \[(\d+)\] (.*)$/gm)].flatMap((m) => Array.from({ length: Number(m[1]) }, () => m[2]));
  // the short summary's "FAILED path::test - reason" and "ERROR …" lines
  const failures = [...log.matchAll(/^(?:FAILED|ERROR) (.*)$/gm)].map((m) => m[1].slice(0, 300));
  return {
    passed: count('passed'), failed: count('failed') + count('errors?'), failures,
    skips: skips.length ? skips : Array.from({ length: count('skipped') }, () => '(pytest gave no -rs line)'),
  };
}

/** The allow-list: one regular expression per line, matched against "name # reason"; # starts a comment line. */
export function readAllowList(text: string): RegExp[] {
  return text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')).map((l) => new RegExp(l));
}

export function summarize(stages: StageCounts[], allowed: RegExp[], ci: boolean): { line: string; unexpected: string[]; failed: number } {
  const skips = stages.flatMap((s) => s.skips);
  const unexpected = skips.filter((s) => !allowed.some((re) => re.test(s)));
  const passed = stages.reduce((n, s) => n + s.passed, 0);
  const failed = stages.reduce((n, s) => n + s.failed, 0) + (ci ? unexpected.length : 0);
  return { line: `${passed} passed, ${failed} failed, ${skips.length} skipped`, unexpected, failed };
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { node: { type: 'string', multiple: true, default: [] }, pytest: { type: 'string', multiple: true, default: [] },
    'stage-passed': { type: 'string', default: '0' }, 'stage-failed': { type: 'string', default: '0' }, allow: { type: 'string', default: 'test/allowed-skips.txt' } } });
  const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : '');
  const stages = [
    ...values.node!.map((p) => nodeCounts(read(p))),
    ...values.pytest!.map((p) => pytestCounts(read(p))),
    // stages that report only an exit status (Schemathesis): one pass or one failure each
    { passed: Number(values['stage-passed']), failed: Number(values['stage-failed']), skips: [] },
  ];
  const ci = process.env.CI === 'true' || process.env.CI === '1';
  const { line, unexpected, failed } = summarize(stages, readAllowList(read(values.allow!)), ci);
  const skips = stages.flatMap((s) => s.skips);
  if (skips.length) console.log(`skipped (${skips.length}):\n${skips.map((s) => `  ${unexpected.includes(s) ? 'NOT ALLOWED ' : ''}${s}`).join('\n')}`);
  const failures = stages.flatMap((s) => s.failures ?? []);
  // named here, at the end, because CI may show only the output's last lines
  if (failures.length) console.log(`failed (${failures.length}):\n${failures.map((f) => `  ${f}`).join('\n')}`);
  if (unexpected.length) console.log(`${unexpected.length} skip(s) not on ${values.allow}${ci ? ': failures under CI=true' : ' (a failure under CI=true)'}`);
  console.log(line);
  process.exitCode = failed > 0 ? 1 : 0;
}
