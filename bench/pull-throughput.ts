// Pull throughput: `horizon models pull` (CLI → runtime/horizon_runtime/pull.py: resolve, resumable
// download, checksum while downloading, atomic install) against huggingface_hub's own snapshot_download
// of the same files, both from the same local Hub stand-in (test/hub-standin.ts) on loopback.
//   node bench/pull-throughput.ts [--mb 512] [--rounds 3]
// Prints MB/s per run and the ratio pull ÷ snapshot_download of the medians (goal ≥ 0.9). Rounds alternate
// the two so both see the same machine state; every run writes into a fresh directory and a fresh HF_HOME
// (no cache to copy from).
import { execFile } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { HubStandIn } from '../test/hub-standin.ts';
import { findModel, loadCatalog } from '../src/runtime/catalog.ts';
import { groupPython } from '../src/runtime/supervisor.ts';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '512' }, rounds: { type: 'string', default: '3' } } });
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const MODEL = 'chronos-2';
const SIZE = 'base';
const mb = Number(values.mb);
const rounds = Number(values.rounds);

const catalog = loadCatalog();
const model = findModel(catalog, MODEL)!;
const repo = model.sizes[SIZE].checkpoint!;
const scratch = mkdtempSync(join(tmpdir(), 'horizon-pull-bench-'));
const source = join(scratch, 'source');
mkdirSync(source);
// random bytes: what a checkpoint looks like to the network and the hash (the pull does not parse weights)
const weights = Buffer.alloc(mb << 20);
for (let at = 0; at < weights.length; at += 1 << 16) randomFillSync(weights, at, Math.min(1 << 16, weights.length - at));
writeFileSync(join(source, 'model.safetensors'), weights);
writeFileSync(join(source, 'config.json'), JSON.stringify({ model_type: 'bench' }));
const hub = new HubStandIn({ repos: { [repo]: { dir: source, extra: { 'README.md': '# bench\n' } } } });
await hub.start();

function run(file: string, args: string[], env: Record<string, string>): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => execFile(file, args, { cwd: REPO_ROOT, env: { ...process.env, ...env }, maxBuffer: 64 << 20 }, (error, _out, stderr) => {
    if (error) reject(new Error(`${file} ${args.join(' ')}: ${stderr}`));
    else resolve(Number(process.hrtime.bigint() - started) / 1e9);
  }));
}

const snapshot = `
import sys
from huggingface_hub import snapshot_download
snapshot_download(sys.argv[1], allow_patterns=sys.argv[2].split(","), local_dir=sys.argv[3])
`;

const modes = {
  'horizon models pull': (dir: string, env: Record<string, string>) => run(process.execPath, ['src/cli/main.ts', 'models', 'pull', MODEL, '--size', SIZE], { ...env, HORIZON_MODEL_DIR: dir }),
  'huggingface_hub snapshot_download': (dir: string, env: Record<string, string>) => run(groupPython('core'), ['-c', snapshot, repo, model.weights!.files.join(','), dir], env),
};
const seconds: Record<string, number[]> = Object.fromEntries(Object.keys(modes).map((m) => [m, []]));
const total = weights.length + 34;
console.log(`pull of ${repo} (${(total / 1e6).toFixed(1)} MB: model.safetensors + config.json) from a local Hub stand-in, ${rounds} rounds, alternating`);
for (let round = 0; round < rounds; round++) {
  const order = round % 2 ? Object.keys(modes).reverse() : Object.keys(modes);
  for (const name of order) {
    const dir = mkdtempSync(join(scratch, 'run-'));
    const s = await modes[name as keyof typeof modes](dir, { HF_ENDPOINT: hub.url, HF_HOME: join(dir, 'hf-home'), HF_HUB_DISABLE_PROGRESS_BARS: '1' });
    seconds[name].push(s);
    console.log(`  round ${round + 1}  ${name.padEnd(34)} ${s.toFixed(2)} s  ${(total / 1e6 / s).toFixed(1)} MB/s`);
    rmSync(dir, { recursive: true, force: true });
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [name, xs] of Object.entries(seconds)) console.log(`${name.padEnd(36)} median ${median(xs).toFixed(2)} s  ${(total / 1e6 / median(xs)).toFixed(1)} MB/s`);
const ratio = median(seconds['huggingface_hub snapshot_download']) / median(seconds['horizon models pull']);
console.log(`throughput ratio horizon models pull ÷ snapshot_download: ${ratio.toFixed(2)} (goal ≥ 0.9; includes the CLI's Node start and the checksums snapshot_download does not compute)`);
await hub.stop();
rmSync(scratch, { recursive: true, force: true });
