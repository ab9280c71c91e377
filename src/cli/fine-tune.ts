// `horizon fine-tune data.csv --model chronos-2 --steps 200 --horizon 12`: fine-tunes a model on a CSV's
// series into a private model of the key's account (POST /v1/fine-tuning-jobs through the TypeScript
// SDK), shows the training's progress, and prints the model id to forecast with. Same CSV format as
// `horizon forecast` (the playground's parser).
import { parseCliArgs } from './args.ts';
import { Horizon, type FineTuningInput, type FineTuningJob } from '../../clients/typescript/src/index.ts';
import { ForecastUsageError, readSeriesCsv, reportRequestError } from './forecast.ts';


export const FINE_TUNE_USAGE = `usage: horizon fine-tune <data.csv|-> --horizon N [--model chronos-2] [--model-size S] [--steps 100] [--learning-rate R]
                         [--mode full|lora] [--validation-windows 1] [--name NAME] [--freq F] [--no-wait] [--json] [--url URL] [--key KEY]
  CSV: as for horizon forecast (dates in the first column, one column per series)
  makes a private model of the key's account; forecast with it: horizon forecast data.csv --model <its id or NAME>`;

const FREQS = new Set(['MS', 'D', 'W', 'H', 'Q', 'Y']);

interface Io { stdout: NodeJS.WriteStream; stderr: NodeJS.WriteStream; env: NodeJS.ProcessEnv }

function positiveInt(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new ForecastUsageError(`--${name} must be a positive integer, got "${raw}"`);
  return n;
}

export async function fineTuneCommand(argv: string[], io: Io = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  const { values, positionals } = parseCliArgs({
    args: argv, allowPositionals: true, strict: true,
    options: {
      horizon: { type: 'string' }, model: { type: 'string', default: 'chronos-2' }, 'model-size': { type: 'string' }, freq: { type: 'string' },
      steps: { type: 'string' }, 'learning-rate': { type: 'string' }, mode: { type: 'string' }, 'validation-windows': { type: 'string' },
      name: { type: 'string' }, 'no-wait': { type: 'boolean', default: false }, json: { type: 'boolean', default: false },
      url: { type: 'string' }, key: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  }, (message) => new ForecastUsageError(message));
  if (values.help) { io.stdout.write(`${FINE_TUNE_USAGE}\n`); return 0; }
  const [file, ...extra] = positionals;
  if (!file) throw new ForecastUsageError('fine-tune needs a CSV file (or - for stdin)');
  if (extra.length) throw new ForecastUsageError(`unexpected arguments: ${extra.join(' ')}`);
  const horizon = positiveInt('horizon', values.horizon);
  if (horizon === undefined) throw new ForecastUsageError('--horizon N is required (the horizon the model is trained for)');
  if (values.freq !== undefined && !FREQS.has(values.freq)) throw new ForecastUsageError(`--freq must be one of ${[...FREQS].join(', ')}, ` +
    `got "${values.freq}"`);
  if (values.mode !== undefined && values.mode !== 'full' && values.mode !== 'lora') throw new ForecastUsageError(
    `--mode must be full or lora, got "${values.mode}"`,
  );
  const learningRate = values['learning-rate'] === undefined ? undefined : Number(values['learning-rate']);
  if (learningRate !== undefined && !(learningRate > 0)) throw new ForecastUsageError(`--learning-rate must be a positive number, got ` +
    `"${values['learning-rate']}"`);
  const key = values.key ?? io.env.HORIZON_API_KEY;
  if (!key) throw new ForecastUsageError('an API key is needed: --key or HORIZON_API_KEY');
  const baseUrl = values.url ?? io.env.HORIZON_URL ?? 'http://localhost:8080';

  const csv = readSeriesCsv(file, values.freq, (message) => new ForecastUsageError(message, false));
  const names = csv.names;
  const request = {
    model: values.model!, series: csv.columns.map((target) => ({ target, index: csv.index })), horizon, freq: csv.freq,
    ...(values['model-size'] ? { model_size: values['model-size'] } : {}),
    ...(values.steps !== undefined ? { steps: positiveInt('steps', values.steps) } : {}),
    ...(learningRate !== undefined ? { learning_rate: learningRate } : {}),
    ...(values.mode ? { mode: values.mode as 'full' | 'lora' } : {}),
    ...(values['validation-windows'] !== undefined ? { validation_windows: positiveInt('validation-windows', values['validation-windows']) } : {}),
    ...(values.name ? { name: values.name } : {}),
  } as FineTuningInput;

  const h = new Horizon({ baseUrl, apiKey: key });
  let job: FineTuningJob;
  try {
    job = await h.createFineTuningJob(request);
    io.stderr.write(`horizon: fine-tuning job ${job.job_id} queued: model ${job.model_id}${job.name !== job.model_id ? ` ("${job.name}")` : ''}\n`);
    if (!values['no-wait']) {
      let last = '';
      job = await h.waitForFineTuningJob(job.job_id, {
        onPoll: (j) => {
          const p = j.progress;
          const line = p
            ? `step ${p.step}/${p.steps}${p.loss !== null ? `, loss ${p.loss.toFixed(4)}` : ''}`
              + `${p.validation_loss !== null ? `, validation loss ${p.validation_loss.toFixed(4)}` : ''}`
            : j.status;
          if (line !== last) io.stderr.write(`horizon: ${line}\n`);
          last = line;
        },
      });
    }
  } catch (error) {
    if (reportRequestError(error, names, baseUrl, io)) return 1;
    throw error;
  }
  if (values.json) io.stdout.write(`${JSON.stringify(job)}\n`);
  if (job.status === 'failed' || job.status === 'cancelled') {
    io.stderr.write(`horizon: fine-tuning job ${job.job_id} ${job.status}${job.error ? `: ${job.error.code}: ${job.error.detail}` : ''}\n`);
    return 1;
  }
  if (!values.json) {
    const s = job.summary;
    const wql = s ? `; validation WQL ${s.validation_wql_before?.toFixed(4)} → ${s.validation_wql_after?.toFixed(4)}` : '';
    io.stdout.write(`${job.status === 'completed' ? job.model_id : job.job_id}\n`);
    io.stderr.write(
      `horizon: ${job.status === 'completed' ? `model ${job.model_id} ready${wql}; forecast with --model ${job.name}` : `job ${job.job_id} ${job.status}`}\n`,
    );
  }
  return 0;
}
