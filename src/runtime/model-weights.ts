// What is installed in HORIZON_MODEL_DIR: one directory per (model id, size), complete or absent (pulls
// install by rename), each with the `.horizon-pull.json` record of what a pull got; plus the licences the
// operator accepted with `models pull --accept-license` (`.horizon-licenses.json`), which count as the
// operator's opt-in next to HORIZON_ACCEPT_LICENSES.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog, CatalogModel } from './catalog.ts';

export const PULL_RECORD = '.horizon-pull.json';
export const LICENSE_RECORD = '.horizon-licenses.json';

export interface PullRecord {
  model: string;
  size: string;
  repo: string;
  revision: string;
  commit: string;
  endpoint: string;
  bytes: number;
  pulled_at: string;
  files: { path: string; size: number; sha256: string | null; blob_id: string }[];
}

export interface LicenseAcceptance { license: string; accepted_at: string }

/** The exact command that installs a size (what errors and the CLI tell the operator to run). */
export function pullCommand(model: CatalogModel, size: string): string {
  return `./horizon models pull ${model.id} --size ${size}${model.license.requires_opt_in ? ' --accept-license' : ''}`;
}

/** Models whose weights come from a Hub repo (the foundation models). */
export function pullable(model: CatalogModel): boolean {
  return Boolean(model.weights?.files.length) && Object.values(model.sizes).every((s) => s.checkpoint);
}

export function weightsDir(modelDir: string, modelId: string, size: string): string {
  return join(modelDir, modelId, size);
}

export function readPullRecord(dir: string): PullRecord | undefined {
  try { return JSON.parse(readFileSync(join(dir, PULL_RECORD), 'utf8')) as PullRecord; } catch { return undefined; }
}

/** Bytes of the files under `dir` (recursively). */
export function bytesOnDisk(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    total += entry.isDirectory() ? bytesOnDisk(path) : statSync(path).size;
  }
  return total;
}

export interface InstalledSize {
  model: string;
  size: string;
  installed: boolean;
  bytes: number | null;
  repo: string | null;
  revision: string | null;
  commit: string | null;
  pulled_at: string | null;
  download_mb: number | null;
}

/** Every pullable catalog id and size with what HORIZON_MODEL_DIR holds for it. A directory placed by hand
 * (no record) counts as installed when it is not empty; the runtime's layout check decides if it serves. */
export function installedSizes(catalog: Catalog, modelDir: string): InstalledSize[] {
  return catalog.models.filter(pullable).flatMap((m) => Object.entries(m.sizes).map(([size, info]) => {
    const dir = weightsDir(modelDir, m.id, size);
    const present = existsSync(dir) && readdirSync(dir).length > 0;
    const record = present ? readPullRecord(dir) : undefined;
    return {
      model: m.id, size, installed: present, bytes: present ? bytesOnDisk(dir) : null,
      repo: record?.repo ?? info.checkpoint ?? null, revision: record?.revision ?? info.revision ?? 'main',
      commit: record?.commit ?? null, pulled_at: record?.pulled_at ?? null, download_mb: info.download_mb ?? null,
    };
  }));
}

/** Removes installed sizes (all of a model's when `size` is omitted), each by rename first so a running
 * worker never sees a half-deleted directory. Returns the sizes removed. */
export function removeWeights(modelDir: string, model: CatalogModel, size?: string): string[] {
  const sizes = size ? [size] : Object.keys(model.sizes);
  return sizes.filter((s) => {
    const dir = weightsDir(modelDir, model.id, s);
    if (!existsSync(dir)) return false;
    const doomed = join(modelDir, model.id, `.${s}.removing-${process.pid}`);
    renameSync(dir, doomed);
    rmSync(doomed, { recursive: true, force: true });
    return true;
  });
}

export function readLicenseAcceptances(modelDir: string): Record<string, LicenseAcceptance> {
  try { return JSON.parse(readFileSync(join(modelDir, LICENSE_RECORD), 'utf8')) as Record<string, LicenseAcceptance>; } catch { return {}; }
}

export function recordLicenseAcceptance(modelDir: string, model: CatalogModel): void {
  const accepted = readLicenseAcceptances(modelDir);
  if (accepted[model.id]?.license === model.license.id) return;
  accepted[model.id] = { license: model.license.id, accepted_at: new Date().toISOString() };
  const path = join(modelDir, LICENSE_RECORD);
  mkdirSync(modelDir, { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(accepted, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

/** Licences accepted through `models pull --accept-license`, re-read when the file changes. An acceptance
 * of another licence than the catalog's current one (the model's licence changed) does not count. */
export class RecordedLicenses {
  private mtimeMs = -1;
  private accepted: Record<string, LicenseAcceptance> = {};
  private readonly modelDir: string;
  constructor(modelDir: string) { this.modelDir = modelDir; }

  has(model: CatalogModel): boolean {
    let mtimeMs = 0;
    try { mtimeMs = statSync(join(this.modelDir, LICENSE_RECORD)).mtimeMs; } catch { mtimeMs = 0; }
    if (mtimeMs !== this.mtimeMs) { this.mtimeMs = mtimeMs; this.accepted = mtimeMs ? readLicenseAcceptances(this.modelDir) : {}; }
    return this.accepted[model.id]?.license === model.license.id;
  }
}
