// "Did you mean …" for near-miss names in 422s: field names, freq values, model ids and sizes.
// A small optimal-string-alignment distance is enough here: the candidate lists are a handful of
// short names, so neither speed nor a dependency is worth more than these lines.
import { FREQS, type Freq } from '../runtime/catalog.ts';

/** Edits (insert, delete, substitute, swap two neighbours) that turn a into b. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/**
 * The one candidate `value` most likely meant: equal ignoring case, or the single closest within
 * a third of its length (at least 1 edit, at most 3); null when none or a tie.
 */
export function closest(value: string, candidates: readonly string[]): string | null {
  const lower = value.toLowerCase();
  const sameCase = candidates.find((c) => c.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  const limit = Math.min(3, Math.max(1, Math.floor(value.length / 3)));
  let best: string | null = null;
  let bestDistance = Infinity;
  let tie = false;
  for (const candidate of candidates) {
    // short names: one edit turns any one-letter name into any other, so require a shared letter
    if (candidate.length <= 2 && value.length <= 2 && !candidate.toLowerCase().split('').some((ch) => lower.includes(ch))) continue;
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance > limit) continue;
    if (distance < bestDistance) [best, bestDistance, tie] = [candidate, distance, false];
    else if (distance === bestDistance) tie = true;
  }
  return tie ? null : best;
}

/** `; did you mean "x"?` or '' — ready to append to a reason. */
export function didYouMean(value: string, candidates: readonly string[]): string {
  const match = closest(value, candidates);
  return match === null || match === value ? '' : `; did you mean ${JSON.stringify(match)}?`;
}

// other libraries' names for models Horizon has under its own id (statsforecast's class names, R's forecast
// package, the foundation models' short names); keys are lower case without separators
const MODEL_ALIASES: Record<string, string> = {
  arima: 'auto-arima', sarima: 'auto-arima', autoarima: 'auto-arima', ets: 'auto-ets', autoets: 'auto-ets',
  theta: 'auto-theta', autotheta: 'auto-theta', snaive: 'seasonal-naive', seasonalnaive: 'seasonal-naive',
  dampedets: 'damped-ets', dynoptimizedtheta: 'dyn-opt-theta', autoces: 'ces', toto: 'toto-2', timesfm25: 'timesfm-2',
  timesfm3: 'timesfm-3', moirai: 'moirai-2', tabpfn: 'tabpfn-ts', chronosbolt: 'chronos-bolt', chronos2: 'chronos-2',
  tirex2: 'tirex-2',
};

// models Horizon does not have, and what it has instead (each suggested only where the deployment has it)
const NOT_HERE: Record<string, { name: string; instead: string[]; why: string }> = {
  prophet: { name: 'Prophet', instead: ['mstl', 'auto'], why: 'for a trend with yearly and weekly seasonality' },
  neuralprophet: { name: 'NeuralProphet', instead: ['mstl', 'auto'], why: 'for a trend with yearly and weekly seasonality' },
};

/** The hint for an unknown model id: `; did you mean "auto-arima"?` for another library's name of a model here, what
 * Horizon has instead of one it lacks (prophet), else the closest id (didYouMean); '' when none fits. */
export function modelHint(value: string, candidates: readonly string[]): string {
  const key = value.toLowerCase().replace(/[\s_.-]/g, '');
  const alias = MODEL_ALIASES[key];
  if (alias && alias !== value && candidates.includes(alias)) return `; did you mean ${JSON.stringify(alias)}?`;
  const missing = NOT_HERE[key];
  const instead = missing?.instead.filter((id) => id === 'auto' || candidates.includes(id)) ?? [];
  if (missing && instead.length > 0) {
    return `; Horizon has no ${missing.name}: ${missing.why}, did you mean ${instead.map((id) => JSON.stringify(id)).join(' or ')}?`;
  }
  return didYouMean(value, candidates);
}

// pandas offset aliases and plain words for the six contract frequencies (M and ME are month end in
// pandas; the contract's monthly freq is MS, which also takes month-end dates, see calendar.ts)
const FREQ_ALIASES: Record<string, Freq> = {
  M: 'MS', ME: 'MS', BM: 'MS', BMS: 'MS', SM: 'MS', MONTH: 'MS', MONTHLY: 'MS',
  H: 'H', HR: 'H', HOUR: 'H', HOURLY: 'H', '60MIN': 'H', '60T': 'H',
  D: 'D', B: 'D', C: 'D', DAY: 'D', DAILY: 'D', '24H': 'D',
  W: 'W', WEEK: 'W', WEEKLY: 'W', '7D': 'W',
  Q: 'Q', QS: 'Q', QE: 'Q', BQ: 'Q', BQS: 'Q', QUARTER: 'Q', QUARTERLY: 'Q', '3M': 'Q', '3MS': 'Q',
  Y: 'Y', YS: 'Y', YE: 'Y', A: 'Y', AS: 'Y', BA: 'Y', BY: 'Y', YEAR: 'Y', YEARLY: 'Y', ANNUAL: 'Y', '12M': 'Y', '12MS': 'Y',
};

/** The contract freq a near-miss value (pandas alias, lower case, `1H`, `W-SUN`, a word) stands for. */
export function suggestFreq(value: string): Freq | null {
  const upper = value.trim().toUpperCase().replace(/^1(?=[A-Z])/, '').replace(/-[A-Z]{3}$/, '');
  const alias = FREQ_ALIASES[upper];
  if (alias && alias !== value) return alias;
  const near = closest(upper, FREQS);
  return near !== null && near !== value ? near as Freq : null;
}
