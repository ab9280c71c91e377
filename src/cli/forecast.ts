// `horizon forecast data.csv --horizon 24 …`: for a user with a CSV and a running server. Reads the
// CSV with the playground's parser (web/data.js: same format, same messages), calls the server
// through the TypeScript SDK (clients/typescript), and writes the forecast as the playground's CSV.
import { parseCliArgs } from './args.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Horizon, HorizonError, type ForecastInput, type Freq, type Job } from '../../clients/typescript/src/index.ts';
import { apiIndex, CsvError, forecastCsv, inferFreq, parseCsv, parseQuantiles, type CsvDate } from '../../web/data.js';

// web/data.js uses the Papa Parse global, as in the browser
(globalThis as { Papa?: unknown }).Papa ??= createRequire(import.meta.url)('papaparse');

export const FORECAST_USAGE = `usage: horizon forecast <data.csv|-> --horizon N [--model M] [--model-size S] [--freq MS|D|W|H|Q|Y]
                        [--quantiles 0.1,0.5,0.9] [--out forecast.csv] [--job] [--url URL] [--key KEY]
  CSV: a header row, dates in the first column, one column per series (an empty cell is missing)
  server: --url or HORIZON_URL (default http://localhost:8080); key: --key or HORIZON_API_KEY`;

const FREQS = new Set(['MS', 'D', 'W', 'H', 'Q', 'Y']);

/** A mistake in the command line or the CSV: exit 2, with the usage for the former. */
export class ForecastUsageError extends Error {
  readonly showUsage: boolean;
  constructor(message: string, showUsage = true) { super(message); this.showUsage = showUsage; }
}

/** A data file as the playground reads it: a date column, one column a series. */
export interface DataCsv { names: string[]; columns: (number | null)[][]; dates: CsvDate[] }

/** A data file (or - for stdin) read as the playground reads it; a file or CSV problem becomes `fail(message)`,
 * the command's own usage error (forecast, fine-tune and series append read the same format). */
export function readDataCsv(file: string, fail: (message: string) => Error): DataCsv {
  let text: string;
  try { text = readFileSync(file === '-' ? 0 : file, 'utf8'); } catch (error) {
    throw fail(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    const { names, columns, dates } = parseCsv(text);
    return { names, columns, dates };
  } catch (error) {
    if (error instanceof CsvError) throw fail(`${file}: ${error.message}`);
    throw error;
  }
}

/** The API's index of the CSV's dates for `freq` (date-times for hourly data, dates otherwise). */
export function indexOf(csv: DataCsv, freq: Freq): string[] {
  return apiIndex(csv.dates, freq) as string[];
}

/** A forecast's (or fine-tuning's) data: the CSV with its frequency (--freq, else inferred) and the API's index. A
 * one-row file says so: one date has no step to infer from, and one value per series is not a history. */
export function readSeriesCsv(
  file: string, freqOption: string | undefined, fail: (message: string) => Error,
): { names: string[]; columns: (number | null)[][]; freq: Freq; index: string[] } {
  const csv = readDataCsv(file, fail);
  if (csv.dates.length === 1) {
    throw fail(`${file} has one data row (${csv.dates[0].date}): a forecast needs each series' history, at least 2 dates with values `
      + '(and the frequency is read from their steps); add the earlier rows');
  }
  const freq = (freqOption ?? inferFreq(csv.dates)) as Freq | null;
  if (!freq) throw fail(`${file}: the frequency cannot be inferred from the dates (their usual step is not an hour, day, week, month, quarter ` +
    `or year); pass --freq`);
  return { names: csv.names, columns: csv.columns, freq, index: indexOf(csv, freq) };
}

/** Writes an API problem (with each field error, naming the CSV column of its series) or an unreachable
 * server to stderr; false for any other error (the caller rethrows it). */
export function reportRequestError(error: unknown, names: string[], baseUrl: string, io: Pick<Io, 'stderr'>): boolean {
  if (error instanceof HorizonError) {
    const fields = error.errors.map(
      (e) => `\n  ${e.series !== undefined ? `series ${e.series} ("${names[e.series] ?? '?'}"), ` : ''}${e.field}: ${e.reason}`,
    ).join('');
    io.stderr.write(`horizon: ${error.status || ''} ${error.code}: ${error.detail}${fields}\n`);
    return true;
  }
  const unreachable = connectionProblem(error, baseUrl);
  if (unreachable) io.stderr.write(`horizon: ${unreachable}\n`);
  return unreachable !== undefined;
}

/** What a fetch that got no answer means, for a person; undefined for any other error. */
export function connectionProblem(error: unknown, baseUrl: string): string | undefined {
  if (!(error instanceof TypeError && /fetch failed/.test(error.message))) return undefined;
  const cause = error.cause as NodeJS.ErrnoException | undefined;
  // the connection went while the body was being sent: the server (or a proxy) answered before reading it all
  // (Horizon itself reads a too-large body to its end and answers 413, src/http/too-large-body.ts)
  if (cause?.code === 'EPIPE' || cause?.code === 'ECONNRESET') {
    return `${baseUrl} closed the connection while the request was being sent (${cause.message}): it refused the body before `
      + 'reading it all, most often for its size (413 payload_too_large, HORIZON_BODY_LIMIT_BYTES); send fewer series per request';
  }
  return `cannot reach ${baseUrl} (${cause?.message ?? error.message}); is the server running? (--url / HORIZON_URL)`;
}

function quantilesOption(text: string): number[] {
  try { return parseQuantiles(text); } catch (error) {
    if (error instanceof CsvError) throw new ForecastUsageError(`--quantiles: ${error.message}`, false);
    throw error;
  }
}

interface Io { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream; env: NodeJS.ProcessEnv }

/** The progress line of a job: a bar by state (queued → running → done) and the time waited. */
function progress(io: Io): { update(job: Job): void; done(): void } {
  const started = Date.now();
  const tty = io.stderr.isTTY === true;
  let last = '';
  const steps: Record<string, number> = { queued: 1, running: 2, completed: 3, failed: 3, cancelled: 3 };
  return {
    update(job) {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (tty) {
        const width = 24;
        const filled = Math.round((width * steps[job.status]) / 3);
        io.stderr.write(`\r\x1b[2Khorizon: job ${job.job_id.slice(0, 8)} ` +
          `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${job.status.padEnd(9)} ${seconds} s`);
      } else if (job.status !== last) {
        io.stderr.write(`horizon: job ${job.job_id} ${job.status} (${seconds} s)\n`);
      }
      last = job.status;
    },
    done() { if (tty && last) io.stderr.write('\n'); },
  };
}

export async function forecastCommand(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  const { values, positionals } = parseCliArgs({
    args: argv, allowPositionals: true, strict: true,
    options: {
      horizon: { type: 'string' }, model: { type: 'string' }, 'model-size': { type: 'string' }, freq: { type: 'string' },
      quantiles: { type: 'string' }, out: { type: 'string' }, job: { type: 'boolean', default: false },
      url: { type: 'string' }, key: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  }, (message) => new ForecastUsageError(message));
  if (values.help) { io.stdout.write(`${FORECAST_USAGE}\n`); return 0; }
  const [file, ...extra] = positionals;
  if (!file) throw new ForecastUsageError('forecast needs a CSV file (or - for stdin)');
  if (extra.length) throw new ForecastUsageError(`unexpected arguments: ${extra.join(' ')}`);
  const horizon = Number(values.horizon);
  if (values.horizon === undefined) throw new ForecastUsageError('--horizon N is required');
  if (!Number.isInteger(horizon) || horizon < 1) throw new ForecastUsageError(`--horizon must be a positive integer, got "${values.horizon}"`);
  if (values.freq !== undefined && !FREQS.has(values.freq)) throw new ForecastUsageError(`--freq must be one of ${[...FREQS].join(', ')}, ` +
    `got "${values.freq}"`);
  const key = values.key ?? io.env.HORIZON_API_KEY;
  if (!key) throw new ForecastUsageError('an API key is needed: --key or HORIZON_API_KEY');
  const baseUrl = values.url ?? io.env.HORIZON_URL ?? 'http://localhost:8080';

  const csv = readSeriesCsv(file, values.freq, (message) => new ForecastUsageError(message, false));
  const names = csv.names;
  const request: ForecastInput = {
    series: csv.columns.map((target) => ({ target, index: csv.index })), horizon, freq: csv.freq,
    ...(values.model ? { model: values.model } : {}), ...(values['model-size'] ? { model_size: values['model-size'] } : {}),
    ...(values.quantiles ? { quantiles: quantilesOption(values.quantiles) } : {}),
  };

  const h = new Horizon({ baseUrl, apiKey: key });
  let result: { series: { index: string[]; prediction: Record<string, number[]> }[][] };
  try {
    if (values.job) {
      const accepted = await h.createJob(request);
      const bar = progress(io);
      bar.update({ ...accepted, attempts: 0 });
      let job: Job;
      try { job = await h.waitForJob(accepted.job_id, { onPoll: (j) => bar.update(j) }); } finally { bar.done(); }
      if (job.status !== 'completed') {
        io.stderr.write(`horizon: job ${job.job_id} ${job.status}${job.error ? `: ${job.error.code}: ${job.error.detail}` : ''}\n`);
        return 1;
      }
      result = { series: job.series ?? [] };
    } else {
      result = await h.forecast(request);
    }
  } catch (error) {
    if (reportRequestError(error, names, baseUrl, io)) return 1;
    throw error;
  }
  const csvOut = forecastCsv(names, result);
  if (values.out) {
    writeFileSync(values.out, csvOut);
    io.stderr.write(`horizon: wrote ${names.length} series × ${horizon} steps to ${values.out}\n`);
  } else io.stdout.write(csvOut);
  return 0;
}
