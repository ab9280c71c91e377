// The playground's data side: CSV text → series for the API, frequency inference, the forecast as
// CSV, and where an API error belongs in the form. No DOM here.

/** A CSV problem the page reports itself (the API never sees such input). */
export class CsvError extends Error {}

const DATE = /^(\d{4})-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?)?$/;
const MISSING = new Set(['', 'na', 'nan', 'null', 'none', '?']);

/**
 * Parses `text` (first row = header, first column = dates) with Papa Parse, which handles quoting,
 * CR/LF/CRLF line ends and comma/semicolon/tab delimiters.
 * Returns { names, dates: [{date, time}], columns: (number|null)[][], rowOfDate: number[] }.
 */
export function parseCsv(text) {
  const result = globalThis.Papa.parse(text.trim(), { skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t'] });
  const rows = result.data;
  if (rows.length < 2) throw new CsvError('the CSV needs a header row and at least one data row');
  const header = rows[0].map((h) => String(h).trim());
  if (header.length < 2) throw new CsvError(`the header "${rows[0].join(',')}" has one column; put the dates first, then one or more value columns, separated by commas`);
  const names = header.slice(1).map((name, i) => name || `value ${i + 1}`);
  const dates = [];
  const columns = names.map(() => []);
  const decimals = names.map(() => 0); // per column: the most digits after the point any of its cells has
  for (let r = 1; r < rows.length; r++) {
    const cells = rows[r];
    const line = r + 1; // 1-based, header = line 1
    if (cells.length !== header.length) throw new CsvError(`row ${line} has ${cells.length} cells but the header has ${header.length}`);
    const m = DATE.exec(String(cells[0]).trim());
    if (!m) throw new CsvError(`row ${line}: "${cells[0]}" is not a date (YYYY-MM, YYYY-MM-DD or YYYY-MM-DD HH:MM[:SS])`);
    const [, y, mo, d = '01', hh, mi, ss = '00'] = m;
    dates.push({ date: `${y}-${mo}-${d}`, time: hh === undefined ? null : `${hh}:${mi}:${ss}` });
    for (let c = 1; c < header.length; c++) {
      const raw = String(cells[c]).trim();
      if (MISSING.has(raw.toLowerCase())) { columns[c - 1].push(null); continue; }
      const value = Number(raw);
      if (!Number.isFinite(value)) throw new CsvError(`row ${line}, column "${names[c - 1]}": "${raw}" is not a number (leave the cell empty for a missing value)`);
      columns[c - 1].push(value);
      decimals[c - 1] = Math.max(decimals[c - 1], decimalsOf(raw));
    }
  }
  return { names, dates, columns, decimals };
}

/** Digits after the point as written ("12.50" → 2, "3" → 0); an exponent counts what it shifts. */
function decimalsOf(raw) {
  const m = /^[+-]?\d*(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(raw);
  if (!m) return 0;
  return Math.min(Math.max((m[1]?.length ?? 0) - Number(m[2] ?? 0), 0), 12);
}

/** At most this many decimals in a table: float32 exports (ETTh1's 5.827000141143799) carry noise, not precision. */
const MAX_TABLE_DECIMALS = 4;

/** `value` with as many decimals as the data has (at most 4): what a forecast table shows; the CSV keeps every digit. */
export function roundToData(value, decimals) {
  return value.toFixed(Math.min(decimals ?? MAX_TABLE_DECIMALS, MAX_TABLE_DECIMALS));
}

const DAY = 86_400_000;
const stamp = (d) => Date.parse(`${d.date}T${d.time ?? '00:00:00'}Z`);

/** The frequency of the dates from their median step; null when it matches none of the API's. */
export function inferFreq(dates) {
  const steps = [];
  for (let i = 1; i < Math.min(dates.length, 200); i++) steps.push(stamp(dates[i]) - stamp(dates[i - 1]));
  if (steps.length === 0) return null;
  steps.sort((a, b) => a - b);
  const days = steps[Math.floor(steps.length / 2)] / DAY;
  if (days === 1 / 24) return 'H';
  if (days === 1) return 'D';
  if (days === 7) return 'W';
  if (days >= 28 && days <= 31) return 'MS';
  if (days >= 89 && days <= 92) return 'Q';
  if (days >= 365 && days <= 366) return 'Y';
  return null;
}

/** The API's `index` strings: date-times for hourly data, dates otherwise. */
export function apiIndex(dates, freq) {
  return dates.map((d) => (freq === 'H' ? `${d.date}T${(d.time ?? '00:00:00').slice(0, 5)}` : d.date));
}

/** Default horizon per frequency: one season (two weeks of days, two years of quarters). */
export const DEFAULT_HORIZON = { H: 24, D: 14, W: 8, MS: 12, Q: 8, Y: 4 };

/** "0.1, 0.5 0.9" → [0.1, 0.5, 0.9]; the API checks the range, the page only that they are numbers. */
export function parseQuantiles(text) {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  const levels = parts.map(Number);
  const bad = parts.find((p, i) => !Number.isFinite(levels[i]));
  if (bad !== undefined) throw new CsvError(`"${bad}" is not a number; write levels such as 0.1, 0.5, 0.9`);
  return levels;
}

/** Quantile keys of a prediction, ascending by level. */
export function levelsOf(prediction) {
  return Object.keys(prediction).filter((k) => k !== 'mean').sort((a, b) => Number(a) - Number(b));
}

/** The forecast as CSV: one row per series and date, exactly the API's numbers. */
export function forecastCsv(names, response) {
  const levels = levelsOf(response.series[0][0].prediction);
  const lines = [['series', 'date', 'mean', ...levels.map((l) => `q${l}`)].join(',')];
  response.series.forEach(([p], i) => {
    p.index.forEach((date, t) => {
      lines.push([csvCell(names[i]), date, p.prediction.mean[t], ...levels.map((l) => p.prediction[l][t])].join(','));
    });
  });
  return lines.join('\n') + '\n';
}

const csvCell = (s) => (/[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/** The form field an API error `field` names (contract B.8's errors[].field). */
export function formFieldOf(field) {
  if (field.startsWith('series') || field === 'context') return 'data';
  if (field === 'model' || field === 'model_size') return 'model';
  if (field.startsWith('evaluation')) return 'evaluation';
  if (field === 'horizon' || field === 'quantiles' || field === 'freq') return field;
  return 'request';
}
