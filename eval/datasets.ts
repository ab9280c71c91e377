// The evaluation datasets: where each file is, its official split, horizon, MASE seasonality and the
// request `freq` it is sent with (shared/research/data.md section B). Every loader returns the
// series with their training part, test part (the last `horizon` values, the official split) and
// the training dates the API needs in `index`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type Freq = 'MS' | 'D' | 'W' | 'H' | 'Q' | 'Y';

export interface EvalSeries {
  id: string;
  train: number[];
  test: number[];
  /** date of train[0] (UTC); the index is built from it on the freq's grid */
  start: Date;
}

export interface DatasetSpec {
  key: string;
  title: string;
  freq: Freq;
  horizon: number;
  /** MASE seasonality (data.md B.1; gluonts/fev convention) */
  m: number;
  /** files under the data directory that must exist */
  files: string[];
  /** why the freq or split is what it is, where that is a choice */
  note?: string;
  load(dataDir: string): EvalSeries[];
}

export const DEFAULT_DATA_DIR = process.env.HORIZON_EVAL_DATA ?? '/work/shared/datasets';

// ---------------------------------------------------------------------------------------------
// calendar: index dates on the contract's grids (B.1)

const DAY_MS = 86_400_000;

/** `n` index dates from `start` on the `freq` grid, in the contract's formats. */
export function indexDates(freq: Freq, start: Date, n: number): string[] {
  const out = new Array<string>(n);
  const t0 = start.getTime();
  if (freq === 'H') {
    for (let i = 0; i < n; i++) out[i] = new Date(t0 + i * 3_600_000).toISOString().slice(0, 16);
    return out;
  }
  if (freq === 'D' || freq === 'W') {
    const step = freq === 'D' ? DAY_MS : 7 * DAY_MS;
    for (let i = 0; i < n; i++) out[i] = new Date(t0 + i * step).toISOString().slice(0, 10);
    return out;
  }
  const months = freq === 'MS' ? 1 : freq === 'Q' ? 3 : 12;
  const y0 = start.getUTCFullYear();
  const m0 = start.getUTCMonth();
  for (let i = 0; i < n; i++) {
    const k = m0 + i * months;
    const y = y0 + Math.floor(k / 12);
    out[i] = `${String(y).padStart(4, '0')}-${String((k % 12) + 1).padStart(2, '0')}-01`;
  }
  return out;
}

function splitLast(id: string, values: number[], horizon: number, start: Date): EvalSeries {
  if (values.length <= horizon) throw new Error(`${id}: ${values.length} values, not more than the horizon ${horizon}`);
  return { id, train: values.slice(0, -horizon), test: values.slice(-horizon), start };
}

// ---------------------------------------------------------------------------------------------
// M4 (wide CSV, separate train and test files)

/** M4 wide CSV: `"V1"` header, then `"H1","619",...`; rows are right-padded with empty cells. */
function readWide(path: string): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  for (const line of readFileSync(path, 'utf8').split('\n').slice(1)) {
    if (!line.trim()) continue;
    const cells = line.trim().split(',').map((c) => c.replace(/"/g, ''));
    rows.set(cells[0], cells.slice(1).filter((c) => c !== '').map(Number));
  }
  return rows;
}

function loadM4(dataDir: string, name: 'Hourly' | 'Weekly', horizon: number, start: Date): EvalSeries[] {
  const train = readWide(join(dataDir, 'm4', `${name}-train.csv`));
  const test = readWide(join(dataDir, 'm4', `${name}-test.csv`));
  return [...train].map(([id, values]) => {
    const actual = test.get(id);
    if (!actual || actual.length !== horizon) throw new Error(`${id}: test window has ${actual?.length} values, expected ${horizon}`);
    return { id, train: values, test: actual, start };
  });
}

// ---------------------------------------------------------------------------------------------
// Monash .tsf: header lines, then `name:start:v1,...,vn` (or `name:v1,...` without start_timestamp)

interface TsfSeries { name: string; start?: Date; values: number[] }

export function readTsf(path: string): { horizon?: number; frequency?: string; series: TsfSeries[] } {
  // the '#' comments of the M1/M3/Tourism files hold a Latin-1 byte; data lines are ASCII
  const lines = readFileSync(path, 'latin1').split(/\r?\n/);
  const attributes: string[] = [];
  let horizon: number | undefined;
  let frequency: string | undefined;
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === '' || line.startsWith('#')) continue;
    const lower = line.toLowerCase();
    if (lower.startsWith('@attribute')) attributes.push(line.split(/\s+/)[1]);
    else if (lower.startsWith('@horizon')) horizon = Number(line.split(/\s+/)[1]);
    else if (lower.startsWith('@frequency')) frequency = line.split(/\s+/)[1];
    else if (lower.startsWith('@data')) { i++; break; }
  }
  const hasStart = attributes.includes('start_timestamp');
  const series: TsfSeries[] = [];
  for (; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const parts = line.split(':');
    const name = parts[0];
    let start: Date | undefined;
    if (hasStart) {
      // "1990-01-01 00-00-00"
      const [date, time] = parts[1].split(' ');
      const [hh, mm, ss] = (time ?? '00-00-00').split('-').map(Number);
      start = new Date(`${date}T${String(hh).padStart(2, '0')}:${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}Z`);
    }
    const values = parts[parts.length - 1].split(',').map((v) => {
      if (v === '?') throw new Error(`${path}: ${name} has a missing value; the evaluation files have none`);
      return Number(v);
    });
    series.push({ name, start, values });
  }
  return { horizon, frequency, series };
}

function loadTsf(dataDir: string, file: string, horizon: number, fallbackStart?: Date): EvalSeries[] {
  const tsf = readTsf(join(dataDir, 'monash', file));
  if (tsf.horizon !== undefined && tsf.horizon !== horizon) throw new Error(`${file}: @horizon ${tsf.horizon}, expected ${horizon}`);
  return tsf.series.map((s) => {
    const start = s.start ?? fallbackStart;
    if (!start) throw new Error(`${file}: ${s.name} has no start timestamp`);
    return splitLast(s.name, s.values, horizon, start);
  });
}

// ---------------------------------------------------------------------------------------------
// ETT: CSV `date,HUFL,...,OT`, each column one series (Chronos benchmark II "ETTh")

function loadEtt(dataDir: string, files: string[], horizon: number): EvalSeries[] {
  const out: EvalSeries[] = [];
  for (const file of files) {
    const lines = readFileSync(join(dataDir, 'ett', file), 'utf8').split(/\r?\n/).filter((l) => l.trim());
    const header = lines[0].split(',');
    const rows = lines.slice(1).map((l) => l.split(','));
    const start = new Date(`${rows[0][0].replace(' ', 'T')}Z`);
    // the grid must have no gaps: every row one hour after the previous
    for (let r = 1; r < rows.length; r++) {
      if (Date.parse(`${rows[r][0].replace(' ', 'T')}Z`) - Date.parse(`${rows[r - 1][0].replace(' ', 'T')}Z`) !== 3_600_000) {
        throw new Error(`${file}: row ${r + 1} (${rows[r][0]}) is not one hour after the previous row`);
      }
    }
    for (let c = 1; c < header.length; c++) {
      out.push(splitLast(`${file.replace(/\.csv$/, '')}/${header[c]}`, rows.map((row) => Number(row[c])), horizon, start));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// AirPassengers: CR-only line endings, `Month,#Passengers`, months as `1949-01`

function loadAirPassengers(dataDir: string, horizon: number): EvalSeries[] {
  const lines = readFileSync(join(dataDir, 'airpassengers', 'AirPassengers.csv'), 'utf8').split(/\r\n|\r|\n/).filter((l) => l.trim());
  const rows = lines.slice(1).map((l) => l.split(','));
  return [splitLast('AirPassengers', rows.map((r) => Number(r[1])), horizon, new Date(`${rows[0][0]}-01T00:00:00Z`))];
}

// ---------------------------------------------------------------------------------------------

// M4-info.csv (the real start dates) is absent: the M4 series get one fixed start. None of the
// served models uses calendar features, so the choice does not change the forecasts.
const M4_HOURLY_START = new Date(Date.UTC(2000, 0, 1));
const M4_WEEKLY_START = new Date(Date.UTC(2000, 0, 3)); // a Monday
// m3_other.tsf has neither @frequency nor start timestamps: sent as yearly from 1800 (see note)
const M3_OTHER_START = new Date(Date.UTC(1800, 0, 1));

const tsf = (key: string, title: string, freq: Freq, horizon: number, m: number, file: string, note?: string, fallbackStart?: Date): DatasetSpec => ({
  key, title, freq, horizon, m, files: [`monash/${file}`], note,
  load: (dir) => loadTsf(dir, file, horizon, fallbackStart),
});

export const DATASETS: DatasetSpec[] = [
  {
    key: 'm4-hourly', title: 'M4 Hourly', freq: 'H', horizon: 48, m: 24, files: ['m4/Hourly-train.csv', 'm4/Hourly-test.csv'],
    note: 'official M4 train/test files; no real start dates (M4-info.csv absent): all series start 2000-01-01T00:00',
    load: (dir) => loadM4(dir, 'Hourly', 48, M4_HOURLY_START),
  },
  {
    key: 'm4-weekly', title: 'M4 Weekly', freq: 'W', horizon: 13, m: 1, files: ['m4/Weekly-train.csv', 'm4/Weekly-test.csv'],
    note: 'official M4 train/test files; all series start on Monday 2000-01-03',
    load: (dir) => loadM4(dir, 'Weekly', 13, M4_WEEKLY_START),
  },
  tsf('m3-yearly', 'M3 Yearly', 'Y', 6, 1, 'm3_yearly_dataset.tsf'),
  tsf('m3-quarterly', 'M3 Quarterly', 'Q', 8, 4, 'm3_quarterly_dataset.tsf'),
  tsf('m3-monthly', 'M3 Monthly', 'MS', 18, 12, 'm3_monthly_dataset.tsf'),
  tsf('m3-other', 'M3 Other', 'Y', 8, 1, 'm3_other_dataset.tsf',
    'no @frequency and no start dates in the file; sent as freq Y (start 1800-01-01) because Y is the only freq whose runtime season length (1) matches the set\'s MASE m = 1, so no model fits a season the data does not have',
    M3_OTHER_START),
  tsf('m1-yearly', 'M1 Yearly', 'Y', 6, 1, 'm1_yearly_dataset.tsf'),
  tsf('m1-quarterly', 'M1 Quarterly', 'Q', 8, 4, 'm1_quarterly_dataset.tsf'),
  tsf('m1-monthly', 'M1 Monthly', 'MS', 18, 12, 'm1_monthly_dataset.tsf'),
  tsf('tourism-yearly', 'Tourism Yearly', 'Y', 4, 1, 'tourism_yearly_dataset.tsf'),
  tsf('tourism-quarterly', 'Tourism Quarterly', 'Q', 8, 4, 'tourism_quarterly_dataset.tsf'),
  tsf('tourism-monthly', 'Tourism Monthly', 'MS', 24, 12, 'tourism_monthly_dataset.tsf'),
  tsf('nn5-daily', 'NN5 Daily (without missing values)', 'D', 56, 1, 'nn5_daily_dataset_without_missing_values.tsf',
    'the Monash "without missing values" variant; the published "nn5" task is another variant, so published NN5-daily numbers are not comparable 1:1'),
  tsf('nn5-weekly', 'NN5 Weekly', 'W', 8, 1, 'nn5_weekly_dataset.tsf'),
  tsf('hospital', 'Hospital', 'MS', 12, 12, 'hospital_dataset.tsf', 'no @horizon line; 12 as in Monash/Chronos/fev/GIFT-Eval'),
  {
    key: 'etth1', title: 'ETTh1 (7 columns, last 24 h)', freq: 'H', horizon: 24, m: 24, files: ['ett/ETTh1.csv'],
    note: 'Chronos benchmark II setup on ETTh1 alone; the published "ETTh" numbers are over ETTh1 + ETTh2 (14 columns): see etth',
    load: (dir) => loadEtt(dir, ['ETTh1.csv'], 24),
  },
  {
    key: 'etth', title: 'ETTh (ETTh1 + ETTh2, 14 columns, last 24 h)', freq: 'H', horizon: 24, m: 24, files: ['ett/ETTh1.csv', 'ett/ETTh2.csv'],
    note: 'Chronos benchmark II "ETTh": every column of ETTh1 and ETTh2 one series, test = last 24 hours; needs ett/ETTh2.csv',
    load: (dir) => loadEtt(dir, ['ETTh1.csv', 'ETTh2.csv'], 24),
  },
  {
    key: 'airpassengers', title: 'AirPassengers (smoke test)', freq: 'MS', horizon: 12, m: 12, files: ['airpassengers/AirPassengers.csv'],
    note: 'one series, no official split: the last 12 months (1960) are the test; no published number',
    load: (dir) => loadAirPassengers(dir, 12),
  },
];

export function datasetAvailable(spec: DatasetSpec, dataDir: string): boolean {
  return spec.files.every((f) => existsSync(join(dataDir, f)));
}
