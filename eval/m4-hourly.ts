// M4-Hourly, one model: a thin alias of the harness (eval/run.ts) kept for its original flags.
// 414 series, official train/test split, horizon 48, freq H, MASE m = 24; every forecast goes over
// real HTTP through POST /v1/forecast.
//
//   node eval/m4-hourly.ts [--model seasonal-naive] [--model-size S] [--batch 50] [--concurrency 2]
//                          [--url URL --key KEY]
//
// = node eval/run.ts --datasets m4-hourly --models MODEL[:SIZE] --name m4-hourly-MODEL[-SIZE]
import { parseArgs } from 'node:util';
import { DEFAULT_OPTIONS, runEvaluation } from './run.ts';

const { values: args } = parseArgs({
  options: {
    model: { type: 'string', default: 'seasonal-naive' },
    'model-size': { type: 'string' },
    batch: { type: 'string', default: '50' },
    concurrency: { type: 'string', default: '2' },
    url: { type: 'string' },
    key: { type: 'string' },
  },
});
const size = args['model-size'];
await runEvaluation({
  ...DEFAULT_OPTIONS,
  models: [`${args.model}${size ? `:${size}` : ''}`],
  datasets: ['m4-hourly'],
  url: args.url, key: args.key,
  batch: Number(args.batch), concurrency: Number(args.concurrency),
  name: `m4-hourly-${args.model}${size ? `-${size}` : ''}`,
});
