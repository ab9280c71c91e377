// The node stage of scripts/test.sh (scripts/run-node-tests.ts): every test file once, the longest first, and a run
// whose test fails exits non-zero with node:test's closing counts (what scripts/test-summary.ts reads).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { globSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LONGEST_FIRST, orderedTestFiles } from '../scripts/run-node-tests.ts';

test('every test file once, LONGEST_FIRST first in its order, then the rest alphabetically', () => {
  const all = globSync('test/**/*.test.ts');
  const ordered = orderedTestFiles(all);
  assert.deepEqual([...ordered].sort(), [...all].sort());
  assert.deepEqual(ordered.slice(0, LONGEST_FIRST.length), LONGEST_FIRST);
  const rest = ordered.slice(LONGEST_FIRST.length);
  assert.deepEqual(rest, [...rest].sort());
});

test('a file named in LONGEST_FIRST that no longer exists fails the run instead of dropping out', () => {
  assert.throws(() => orderedTestFiles(LONGEST_FIRST.slice(1)), new RegExp(`do not exist: ${LONGEST_FIRST[0].replace(/\./g, '\\.')}`));
});

test('a failing test: exit 1 and the closing "ℹ pass / ℹ fail" counts, as node --test prints them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'horizon-run-node-tests-'));
  try {
    writeFileSync(join(dir, 'pass.test.ts'), "import { test } from 'node:test';\ntest('passes', () => {});\n");
    writeFileSync(join(dir, 'fail.test.ts'), "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\ntest('fails', () => { assert.equal(1, 2); });\n");
    const runner = join(dir, 'run.ts');
    writeFileSync(runner, `import { runTestFiles } from ${JSON.stringify(join(process.cwd(), 'scripts/run-node-tests.ts'))};\n` +
      `runTestFiles(['pass.test.ts', 'fail.test.ts'], { concurrency: 2, timesLog: 'times.log' });\n`);
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      // NODE_TEST_CONTEXT unset: inside a test file, run() would refuse to run files of its own
      const { NODE_TEST_CONTEXT: _context, ...env } = process.env;
      execFile(process.execPath, [runner], { cwd: dir, env }, (error, out) => resolve({ code: error ? (error.code as number) : 0, stdout: out }));
    });
    assert.equal(code, 1, stdout);
    assert.match(stdout, /^ℹ pass 1$/m);
    assert.match(stdout, /^ℹ fail 1$/m);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
