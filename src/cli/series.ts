// `horizon series append data.csv`: appends a CSV (the playground's format: dates first, one column per
// series, the header naming each series id) to stored series in one POST /v1/series/observations (all
// or nothing); --create makes the series that do not exist yet with PUT /v1/series/{id} first.
// `horizon series accuracy <id>` prints a series' rolling accuracy. docs/stored-series.md.
import { parseCliArgs } from './args.ts';
import { connectionProblem, indexOf, readDataCsv } from './forecast.ts';
import { accuracyTable, type SeriesAccuracy } from './accuracy-table.ts';
import { inferFreq } from '../../web/data.js';
import type { Freq } from '../../clients/typescript/src/index.ts';


export const SERIES_USAGE = `usage: horizon series append <data.csv|-> [--create] [--freq MS|D|W|H|Q|Y] [--url URL] [--key KEY]
       horizon series accuracy <series-id> [--window N] [--json] [--url URL] [--key KEY]
  CSV: a header row (dates, then one stored series id per column), one row per date; an empty cell is
  skipped. Each column is appended to the series of that id (all columns in one request: all or nothing);
  --create first creates the series that do not exist (freq from --freq or the dates). A file of one row (one
  new date) appends with each stored series' freq. accuracy prints a table per model and step (--json: the answer).
  server: --url or HORIZON_URL (default http://localhost:8080); key: --key or HORIZON_API_KEY`;

const FREQS = new Set(['MS', 'D', 'W', 'H', 'Q', 'Y']);

export class SeriesUsageError extends Error {
  readonly showUsage: boolean;
  constructor(message: string, showUsage = true) { super(message); this.showUsage = showUsage; }
}

interface Io { stdout: { write(s: string): unknown }; stderr: { write(s: string): unknown }; env: NodeJS.ProcessEnv }

interface Problem { status: number; code?: string; detail?: string; errors?: { field: string; reason: string }[] }

export async function seriesCommand(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  const { values, positionals } = parseCliArgs({
    args: argv, allowPositionals: true, strict: true,
    options: {
      create: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, freq: { type: 'string' }, window: { type: 'string' },
      url: { type: 'string' }, key: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  }, (message) => new SeriesUsageError(message));
  if (values.help) { io.stdout.write(`${SERIES_USAGE}\n`); return 0; }
  const [action, target, ...extra] = positionals;
  if (action !== 'append' && action !== 'accuracy') throw new SeriesUsageError(`unknown series command ${JSON.stringify(action ?? '')}: append or accuracy`);
  if (!target) throw new SeriesUsageError(action === 'append' ? 'series append needs a CSV file (or - for stdin)' : 'series accuracy needs a series id');
  if (extra.length) throw new SeriesUsageError(`unexpected arguments: ${extra.join(' ')}`);
  if (values.freq !== undefined && !FREQS.has(values.freq)) throw new SeriesUsageError(`--freq must be one of ${[...FREQS].join(', ')}, got "${values.freq}"`);
  const key = values.key ?? io.env.HORIZON_API_KEY;
  if (!key) throw new SeriesUsageError('an API key is needed: --key or HORIZON_API_KEY');
  const baseUrl = (values.url ?? io.env.HORIZON_URL ?? 'http://localhost:8080').replace(/\/$/, '');
  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> => {
    let res: Response;
    try {
      res = await fetch(`${baseUrl}${path}`, {
        method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      throw new SeriesUsageError(connectionProblem(error, baseUrl) ?? `cannot reach ${baseUrl} (${(error as Error).message})`, false);
    }
    const text = await res.text();
    // any HTTP error is reported with its status, also one that is not the API's problem+json (a proxy's page)
    try { return { status: res.status, body: text ? JSON.parse(text) : { status: res.status } }; } catch {
      return { status: res.status, body: { status: res.status, detail: text.slice(0, 300).trim() } };
    }
  };
  const fail = (what: string, problem: Problem) => {
    const fields = (problem.errors ?? []).map((e) => `\n  ${e.field}: ${e.reason}`).join('');
    io.stderr.write(`horizon: ${what}: ${problem.status} ${problem.code ?? ''}: ${problem.detail ?? ''}${fields}\n`);
    return 1;
  };

  if (action === 'accuracy') {
    const window = values.window ? `?window=${encodeURIComponent(values.window)}` : '';
    const res = await call('GET', `/v1/series/${encodeURIComponent(target)}/accuracy${window}`);
    if (res.status !== 200) return fail(`accuracy of ${target}`, res.body as Problem);
    io.stdout.write(`${values.json ? JSON.stringify(res.body, null, 2) : accuracyTable(res.body as SeriesAccuracy)}\n`);
    return 0;
  }

  const csv = readDataCsv(target, (message) => new SeriesUsageError(message, false));
  // --freq, else the dates' step, else (one new row: no step) each stored series' own freq
  const given = (values.freq ?? inferFreq(csv.dates)) as Freq | null;
  const stored = new Map<string, Freq>();
  if (!given) {
    for (const id of csv.names) {
      const existing = await call('GET', `/v1/series/${encodeURIComponent(id)}?tail=0&forecasts=0`);
      if (existing.status === 200) stored.set(id, (existing.body as { freq: Freq }).freq);
      else if (existing.status !== 404) return fail(`series ${id}`, existing.body as Problem);
      else if (values.create) {
        throw new SeriesUsageError(`${target}: series ${id} does not exist yet and its frequency cannot be inferred ` +
          `from ${csv.dates.length === 1 ? 'one date' : 'the dates'}; pass --freq to create it`, false);
      }
    }
  }
  // an empty cell is not appended (an explicit gap would be stored as missing for good)
  const columns = csv.names.map((id, c) => {
    const values = csv.columns[c];
    const freq = given ?? stored.get(id) ?? 'D'; // an unknown series without --create: the API's 404 names it
    const index = indexOf(csv, freq);
    const kept = values.flatMap((v, r) => (v === null ? [] : [r]));
    return { id, freq, index: kept.map((r) => index[r]), target: kept.map((r) => values[r] as number) };
  }).filter((s) => s.index.length > 0);
  if (values.create) {
    for (const s of columns) {
      const existing = await call('GET', `/v1/series/${encodeURIComponent(s.id)}?tail=0&forecasts=0`);
      if (existing.status === 200) continue;
      if (existing.status !== 404) return fail(`series ${s.id}`, existing.body as Problem);
      const freq = s.freq;
      const created = await call('PUT', `/v1/series/${encodeURIComponent(s.id)}`, { freq, index: s.index, target: s.target });
      if (created.status !== 201) return fail(`creating series ${s.id}`, created.body as Problem);
      io.stderr.write(`horizon: created series ${s.id} (${s.index.length} values, freq ${freq})\n`);
    }
  }
  const res = await call('POST', '/v1/series/observations', { series: columns.map((s) => ({ series_id: s.id, index: s.index, target: s.target })) });
  if (res.status !== 200) return fail('append', res.body as Problem);
  for (const s of (res.body as { series: { series_id: string; appended: number; unchanged: number; points: number; last_date: string }[] }).series) {
    io.stdout.write(`${s.series_id}: ${s.appended} appended, ${s.unchanged} already stored; ${s.points} points, last ${s.last_date}\n`);
  }
  return 0;
}
