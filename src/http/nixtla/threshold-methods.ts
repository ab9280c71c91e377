// The threshold methods of the Nixtla SDK's online anomaly detection (detect_anomalies_online's
// threshold_method), on Horizon's band at `level` (POST /v1/anomalies). Pure functions, no I/O.
// - univariate: each series on its own, flagged outside its band (Horizon's own flags); anomaly_score is the
//   standardised residual, (y - median) / σ with σ the band's half-width on that side ÷ z(level), so that
//   |anomaly_score| > z(level) exactly when outside (TimeGPT's scores are standardised residuals: its band is
//   the forecast ± z(level)·σ).
// - multivariate: TimeGPT aggregates the series' scores at each time step and flags the step when the combined
//   score passes a threshold (its docs give no formula). Horizon's combination: the sum of the squared
//   standardised residuals of the series observed at that step, flagged above the chi-squared quantile at
//   `level` with one degree of freedom per series (under normal residuals, independent across series, the
//   sum is chi-squared): a step is flagged at most (100 - level)% of the time when nothing is anomalous, and
//   one series alone is flagged exactly as univariate with a symmetric band.

/** The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normal quantile of ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const tail = (q: number) => (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/** ln Γ(x), x > 0 (Lanczos, g = 7, n = 9). */
function lnGamma(x: number): number {
  const g = [0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531, -176.6150291621406,
    12.507343278686905, -0.13857109526572012, 9.984369578019572e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let sum = g[0];
  for (let i = 1; i < 9; i++) sum += g[i] / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** The regularised lower incomplete gamma function P(a, x): its series below a + 1, else 1 - the continued fraction of Q. */
function gammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  const front = Math.exp(-x + a * Math.log(x) - lnGamma(a));
  if (x < a + 1) {
    let [term, sum, n] = [1 / a, 1 / a, a];
    for (let k = 0; k < 1000 && Math.abs(term) > Math.abs(sum) * 1e-16; k++) { n += 1; term *= x / n; sum += term; }
    return sum * front;
  }
  // modified Lentz for Q(a, x)
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 1000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b; if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c; if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return 1 - front * h;
}

/** The chi-squared quantile at probability p with k degrees of freedom (bisection on P(k/2, x/2), to 1e-12 relative). */
export function chiSquaredQuantile(p: number, k: number): number {
  if (!(p > 0 && p < 1) || !(k >= 1)) throw new RangeError(`chi-squared quantile of ${p} with ${k} degrees of freedom`);
  let [lo, hi] = [0, Math.max(1, k)];
  while (gammaP(k / 2, hi / 2) < p) hi *= 2;
  while (hi - lo > 1e-12 * hi) {
    const mid = (lo + hi) / 2;
    if (gammaP(k / 2, mid / 2) < p) lo = mid; else hi = mid;
  }
  return (lo + hi) / 2;
}

/** What each series' scored tail of POST /v1/anomalies gives a threshold method. */
export interface ScoredTail { actual: (number | null)[]; anomaly: boolean[]; score: (number | null)[] }

/** univariate: Horizon's flags; the scores in standard deviations (Horizon's score × z(level)). */
export function univariateScores(tails: readonly ScoredTail[], level: number): { anomaly: boolean[]; anomaly_score: (number | null)[] } {
  const z = normalQuantile((1 + level / 100) / 2);
  return {
    anomaly: tails.flatMap((t) => t.anomaly),
    anomaly_score: tails.flatMap((t) => t.score.map((s) => (s === null ? null : s * z))),
  };
}

/** multivariate: per time step (the j-th scored position of every series: same lengths and dates), the sum of the
 * squared scores in standard deviations of the series observed there, flagged above chi-squared(level, series
 * observed); every observed value of a flagged step is an anomaly (a missing one never is). */
export function multivariateScores(tails: readonly ScoredTail[], level: number) {
  const z = normalQuantile((1 + level / 100) / 2);
  const steps = tails[0]?.score.length ?? 0;
  const thresholds = new Map<number, number>();
  const threshold = (k: number) => {
    if (!thresholds.has(k)) thresholds.set(k, chiSquaredQuantile(level / 100, k));
    return thresholds.get(k)!;
  };
  const combined = Array.from({ length: steps }, (_, j) => {
    const zs = tails.map((t) => t.score[j]).filter((s): s is number => s !== null).map((s) => s * z);
    if (zs.length === 0) return { score: null, flagged: false };
    const score = zs.reduce((sum, v) => sum + v * v, 0);
    return { score, flagged: score > threshold(zs.length) };
  });
  return {
    anomaly: tails.flatMap((t) => t.actual.map((y, j) => y !== null && combined[j].flagged)),
    anomaly_score: tails.flatMap((t) => t.score.map((s) => (s === null ? null : s * z))),
    accumulated_anomaly_score: tails.flatMap((t) => t.actual.map((_, j) => combined[j].score)),
  };
}
