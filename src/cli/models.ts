// `horizon models pull | list | rm`: get foundation-model weights from the Hugging Face Hub into
// HORIZON_MODEL_DIR (README "Getting a model"). The download itself runs in the model runtime
// (src/runtime/model-pull.ts → runtime/horizon_runtime/pull.py, the official huggingface_hub client).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { installedGroups, RUNTIME_DIR } from '../runtime/supervisor.ts';
import { findModel, loadCatalog, type CatalogModel } from '../runtime/catalog.ts';
import { configFromEnv } from '../config.ts';
import { didYouMean } from '../forecasting/did-you-mean.ts';
import { PULL_EXIT, runPull, type PullEvent } from '../runtime/model-pull.ts';
import {
  type InstalledSize, installedSizes, pullable, pullCommand, readLicenseAcceptances, recordLicenseAcceptance, removeWeights,
} from '../runtime/model-weights.ts';

export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) { super(message); this.exitCode = exitCode; }
}

export interface ModelsFlags { json: boolean; size?: string; allSizes: boolean; acceptLicense: boolean; revision?: string; force: boolean }

const PULL_ERROR_EXIT: Record<string, number> = {
  network: PULL_EXIT.network, repo_not_found: PULL_EXIT.not_found, revision_not_found: PULL_EXIT.not_found, file_not_found: PULL_EXIT.not_found,
  no_files: PULL_EXIT.not_found, gated: PULL_EXIT.access, unauthorized: PULL_EXIT.access, checksum_mismatch: PULL_EXIT.verification,
  size_mismatch: PULL_EXIT.verification, incomplete_layout: PULL_EXIT.verification, usage: PULL_EXIT.usage,
};

function mb(bytes: number): string {
  return bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB`
    : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB`
    : bytes >= 1e3 ? `${(bytes / 1e3).toFixed(1)} kB`
    : `${Math.round(bytes)} B`;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '--';
  return seconds >= 3600 ? `${Math.floor(seconds / 3600)}h${Math.round((seconds % 3600) / 60)}m`
    : seconds >= 60 ? `${Math.floor(seconds / 60)}m${Math.round(seconds % 60)}s`
    : `${Math.round(seconds)}s`;
}

/** Whether the runtime group's virtualenv holds its whole requirements file (runtime/setup.sh's stamp). */
function groupInstalled(group: string): boolean {
  return installedGroups([group]).length > 0 && existsSync(join(RUNTIME_DIR, `.venv-${group}`, '.horizon-requirements'));
}

/** Installs a runtime group with runtime/setup.sh, saying so first (it takes minutes) and how long it took. */
async function installGroup(model: CatalogModel, json: boolean): Promise<void> {
  const group = model.group;
  const say = (line: string, event: object) => process.stdout.write(json ? `${JSON.stringify(event)}\n` : `${line}\n`);
  say(`${model.id} runs in the runtime group "${group}", which is not installed yet: installing it now into runtime/.venv-${group} ` +
    `(its own virtualenv: torch and ${model.name}'s library at their pins; a few minutes, mostly unpacking torch) …`, { event: 'installing_runtime', group });
  const started = Date.now();
  const child = spawn('bash', [join(RUNTIME_DIR, 'setup.sh'), group], { stdio: ['ignore', json ? 'ignore' : 'inherit', 'inherit'] });
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
  if (code !== 0) throw new CliError(`installing the runtime group "${group}" failed (runtime/setup.sh ${group} exited ${code}); ` +
    `its output is above`, PULL_EXIT.unexpected);
  say(`installed the runtime group "${group}" in ${duration((Date.now() - started) / 1000)}; a running server serves its models ` +
    `from its next start`, { event: 'installed_runtime', group, seconds: Math.round((Date.now() - started) / 1000) });
}

function licenseAccepted(model: CatalogModel, modelDir: string, env: NodeJS.ProcessEnv): boolean {
  const opted = (env.HORIZON_ACCEPT_LICENSES ?? '').split(',').map((s) => s.trim());
  return !model.license.requires_opt_in || opted.includes('*') || opted.includes(model.id)
    || readLicenseAcceptances(modelDir)[model.id]?.license === model.license.id;
}

function licenseLine(model: CatalogModel): string {
  return `${model.license.name} ` +
    `(${model.license.id})${model.license.commercial ? '' : ', non-commercial'}${model.license.requires_opt_in ? ', needs the operator\'s acceptance' : ''}`;
}

/** Per-file progress: redrawn bars on a terminal, one line per finished file otherwise. */
class PullDisplay {
  private readonly files = new Map<string, { size: number; bytes: number; resumeFrom: number; started: number; done: boolean; skipped: boolean }>();
  private drawn = 0;
  private readonly tty: boolean;
  private readonly out: NodeJS.WriteStream;
  private lastDraw = 0;
  constructor(out: NodeJS.WriteStream) { this.out = out; this.tty = Boolean(out.isTTY); }

  event(e: PullEvent): void {
    const now = Date.now();
    if (e.event === 'resolved') {
      this.out.write(`${e.repo}@${e.commit.slice(0, 12)} (${e.revision}): ${e.files.length} file${e.files.length === 1 ? '' : 's'}, ${mb(e.bytes_total)}\n`);
      for (const f of e.files) this.files.set(f.path, { size: f.size, bytes: 0, resumeFrom: 0, started: now, done: false, skipped: false });
    } else if (e.event === 'waiting') {
      this.out.write(`waiting: ${e.reason}\n`);
    } else if (e.event === 'file_start') {
      const f = this.files.get(e.path);
      if (f) Object.assign(f, { resumeFrom: e.resume_from, bytes: e.resume_from, started: now });
      if (!this.tty && e.resume_from > 0) this.out.write(`${e.path}: resuming at ${mb(e.resume_from)}\n`);
    } else if (e.event === 'progress') {
      const f = this.files.get(e.path);
      if (f) f.bytes = e.bytes;
    } else if (e.event === 'file_done') {
      const f = this.files.get(e.path);
      if (f) Object.assign(f, { bytes: e.size, done: true, skipped: e.skipped });
      if (!this.tty && f) this.out.write(`${e.path}  ${mb(e.size)}  ${e.skipped ? 'already downloaded' : `verified  ${this.rate(f, now)}`}\n`);
    }
    if (this.tty && (now - this.lastDraw > 100 || e.event !== 'progress')) { this.lastDraw = now; this.draw(now); }
  }

  private rate(f: { bytes: number; resumeFrom: number; started: number }, now: number): string {
    const seconds = Math.max((now - f.started) / 1000, 1e-3);
    return `${mb((f.bytes - f.resumeFrom) / seconds)}/s`;
  }

  private draw(now: number): void {
    if (this.drawn) this.out.write(`\x1b[${this.drawn}A`);
    const width = Math.max(...[...this.files.keys()].map((k) => k.length), 8);
    for (const [path, f] of this.files) {
      const share = f.size ? f.bytes / f.size : 1;
      const bar = '#'.repeat(Math.round(share * 24)).padEnd(24, '.');
      const speed = (f.bytes - f.resumeFrom) / Math.max((now - f.started) / 1000, 1e-3);
      const tail = f.done ? (f.skipped ? 'already downloaded' : 'verified') : `${mb(speed)}/s  ETA ${duration((f.size - f.bytes) / speed)}`;
      this.out.write(`\x1b[2K${path.padEnd(width)}  [${bar}] ${mb(f.bytes).padStart(9)} / ${mb(f.size).padEnd(9)} ${tail}\n`);
    }
    this.drawn = this.files.size;
  }
}

async function pullOne(model: CatalogModel, size: string, flags: ModelsFlags, modelDir: string): Promise<object> {
  const out = process.stdout;
  const json = flags.json;
  const display = json ? undefined : new PullDisplay(out);
  if (!json) out.write(`${model.id} ${size}: ${licenseLine(model)}\n`);
  const outcome = await runPull({
    modelDir, model: model.id, size, revision: flags.revision, force: flags.force,
    onEvent: (event) => { if (json) out.write(`${JSON.stringify({ ...event, model: model.id, model_size: size })}\n`); else display!.event(event); },
  });
  if (outcome.error) throw new CliError(`${model.id} ${size}: ${outcome.error.message}`, PULL_ERROR_EXIT[outcome.error.code] ?? outcome.exitCode ?? 1);
  const dir = `${modelDir}/${model.id}/${size}`;
  if (!json) out.write(outcome.upToDate ? `${model.id} ${size} is up to date (${outcome.commit?.slice(0, 12)}) in ${dir}\n` : `installed ${model.id} ${size} ` +
    `(${outcome.commit?.slice(0, 12)}) in ${dir}\n`);
  return { model: model.id, size, dir, commit: outcome.commit, up_to_date: outcome.upToDate };
}

interface ListedRow extends Omit<InstalledSize, 'repo'> {
  repo?: string | null;
  weights: string;
  license: string;
  license_accepted: boolean;
  served: boolean;
  pull?: string;
}

export async function modelsCommand(command: string | undefined, args: string[], flags: ModelsFlags): Promise<number> {
  const catalog = loadCatalog();
  const config = configFromEnv();
  const modelDir = config.modelDir;

  if (command === 'list') {
    const rows = installedSizes(catalog, modelDir);
    const groups = new Set(installedGroups(Object.keys(catalog.groups)));
    const listed = catalog.models.flatMap((m): ListedRow[] => {
      const runtime = Boolean(catalog.groups[m.group]?.in_process) || groups.has(m.group);
      const accepted = licenseAccepted(m, modelDir, process.env);
      if (!pullable(m)) {
        return Object.keys(m.sizes).map((size) => ({
          model: m.id, size, weights: 'none needed', installed: true, bytes: null, revision: null, commit: null, pulled_at: null, download_mb: null,
          license: m.license.id, license_accepted: accepted, served: runtime && accepted,
        }));
      }
      return rows.filter((r) => r.model === m.id).map((r) => ({
        ...r, weights: r.installed ? 'installed' : 'not installed', license: m.license.id, license_accepted: accepted,
        served: runtime && accepted && r.installed, pull: r.installed ? undefined : pullCommand(m, r.size),
      }));
    });
    if (flags.json) { process.stdout.write(`${JSON.stringify({ model_dir: modelDir, models: listed })}\n`); return 0; }
    const table = [['MODEL', 'SIZE', 'WEIGHTS', 'ON DISK', 'COMMIT', 'LICENCE', 'SERVED'], ...listed.map((r) => [
      r.model, r.size, r.weights,
      r.bytes === null
        ? (r.download_mb ? `(~${r.download_mb >= 1000 ? `${(r.download_mb / 1000).toFixed(1)} GB` : `${r.download_mb} MB`})` : '-')
        : mb(r.bytes),
      r.commit ? r.commit.slice(0, 12) : '-', `${r.license}${r.license_accepted ? '' : ' (not accepted)'}`, r.served ? 'yes' : 'no',
    ])];
    const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
    process.stdout.write(
      `weights directory: ${modelDir}\n${table.map((row) => row.map((cell, c) => cell.padEnd(widths[c])).join('  ').trimEnd()).join('\n')}\n`,
    );
    return 0;
  }

  const id = args[0];
  if (!id) throw new CliError(`models ${command ?? ''} needs a model id`, PULL_EXIT.usage);
  const model = findModel(catalog, id);
  if (!model) {
    const withWeights = catalog.models.filter(pullable).map((m) => m.id);
    throw new CliError(`unknown model "${id}"${didYouMean(id, withWeights)}; models with weights: ${withWeights.join(', ')}`, PULL_EXIT.usage);
  }
  if (!pullable(model)) throw new CliError(`${id} has no weights to ${command === 'rm' ? 'remove' : 'pull'} (it runs from its library alone)`, PULL_EXIT.usage);
  if (flags.size && !model.sizes[flags.size]) throw new CliError(`${id} has no size "${flags.size}"${didYouMean(flags.size, Object.keys(model.sizes))}; ` +
    `sizes: ${Object.keys(model.sizes).join(', ')}`, PULL_EXIT.usage);

  if (command === 'rm') {
    const removed = removeWeights(modelDir, model, flags.size);
    if (!removed.length) throw new CliError(`${id}${flags.size ? ` ${flags.size}` : ''} is not installed in ${modelDir}`, PULL_EXIT.not_found);
    if (flags.json) process.stdout.write(`${JSON.stringify({ model: id, removed })}\n`);
    else process.stdout.write(`removed ${id} ${removed.join(', ')} from ${modelDir}\n`);
    return 0;
  }

  if (command === 'pull') {
    const sizes = flags.allSizes ? Object.keys(model.sizes) : [flags.size ?? model.default_size];
    // a runtime group that only some models need (timesfm1) is installed with the first of its models
    if (catalog.groups[model.group] && !catalog.groups[model.group].in_process && !groupInstalled(model.group)) await installGroup(model, flags.json);
    if (model.license.requires_opt_in && !licenseAccepted(model, modelDir, process.env)) {
      if (!flags.acceptLicense) {
        throw new CliError(
          `${id} is under the ${licenseLine(model)}. Read it before use; to accept it and pull, rerun with --accept-license ` +
          `(the acceptance is recorded in ${modelDir}/.horizon-licenses.json and lets this deployment serve ${id})`, PULL_EXIT.license);
      }
    }
    if (flags.acceptLicense && model.license.requires_opt_in) recordLicenseAcceptance(modelDir, model);
    const results = [];
    for (const size of sizes) results.push(await pullOne(model, size, flags, modelDir));
    if (flags.json) process.stdout.write(`${JSON.stringify({ event: 'done', results })}\n`);
    return 0;
  }
  throw new CliError(`unknown command "models ${command ?? ''}"`, PULL_EXIT.usage);
}
