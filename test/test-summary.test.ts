// The closing line of scripts/test.sh (scripts/test-summary.ts): passes, failures and skips of every stage,
// and under CI=true a skip off the allow-list counts as a failure.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { nodeCounts, pytestCounts, readAllowList, summarize } from '../scripts/test-summary.ts';

const nodeLog = [
  '▶ store conformance', '  ✔ jobs (12ms)', '  ﹣ several processes (0.1ms) # PGlite is a single process\'s store', '▶ store conformance (20ms)',
  '﹣ contract against a running deployment (0.5ms) # HORIZON_TEST_BASE_URL and HORIZON_TEST_API_KEY unset (deploy/container.sh test sets them)',
  '﹣ replay of M4 Hourly through stored series (0.2ms) # M4 Hourly not in the shared datasets',
  '✖ a failing test (3ms)', 'ℹ tests 5', 'ℹ pass 2', 'ℹ fail 1', 'ℹ skipped 1',
].join('\n');
const pytestLog = ['..s.F', 'SKIPPED [2] runtime/tests/test_x.py:10: no GPU', 'FAILED runtime/tests/test_x.py::test_y - AssertionError: 1 != 2', '1 failed, 3 passed, 2 skipped in 1.20s'].join('\n');

test('counts of node:test: passes, failures, and every skipped test or suite with its reason', () => {
  const counts = nodeCounts(nodeLog);
  assert.equal(counts.passed, 2);
  assert.equal(counts.failed, 1);
  assert.deepEqual(counts.failures, ['a failing test']);
  assert.deepEqual(counts.skips, [
    'several processes # PGlite is a single process\'s store',
    'contract against a running deployment # HORIZON_TEST_BASE_URL and HORIZON_TEST_API_KEY unset (deploy/container.sh test sets them)',
    'replay of M4 Hourly through stored series # M4 Hourly not in the shared datasets',
  ]);
});

test('counts of pytest: its closing line, skips from -rs (or counted when -rs was not given)', () => {
  assert.deepEqual(pytestCounts(pytestLog), {
    passed: 3, failed: 1, skips: ['runtime/tests/test_x.py:10: no GPU', 'runtime/tests/test_x.py:10: no GPU'],
    failures: ['runtime/tests/test_x.py::test_y - AssertionError: 1 != 2'],
  });
  assert.deepEqual(pytestCounts('3 passed, 1 skipped, 2 errors in 1s'), { passed: 3, failed: 2, skips: ['(pytest gave no -rs line)'], failures: [] });
});

test('the closing line counts skips; under CI=true a skip off the allow-list is a failure', () => {
  const allowed = readAllowList(readFileSync(new URL('./allowed-skips.txt', import.meta.url), 'utf8'));
  const stages = [nodeCounts(nodeLog), pytestCounts(pytestLog), { passed: 1, failed: 0, skips: [] }];
  const local = summarize(stages, allowed, false);
  assert.equal(local.line, '6 passed, 2 failed, 5 skipped');
  // the replay suite and the pytest GPU skips are on no line of the allow-list
  assert.equal(local.unexpected.length, 3);
  assert.match(local.unexpected[0], /^replay of M4 Hourly/);
  assert.equal(summarize(stages, allowed, true).line, '6 passed, 5 failed, 5 skipped');
  assert.equal(summarize([nodeCounts(nodeLog.replace(/.*M4 Hourly.*\n/, ''))], allowed, true).line, '2 passed, 1 failed, 2 skipped');
});
