// Calendars of the six request frequencies (contract B.1/B.2): parsing index dates, placing them on
// the freq's grid, filling gaps and continuing the grid for forecast dates. Pure functions on civil
// dates with UTC integer arithmetic; no Date objects, so no local time zone and no two-digit-year
// quirks. A date-time without `Z` or an offset is read as UTC too.
//
// Accepted spellings (what pandas and Python write: str(pd.Timestamp), isoformat(), to_json):
//   - H: `YYYY-MM-DD`, or a date-time `YYYY-MM-DD[T or space]HH:MM[:SS[.fff]]` with an optional `Z` or
//     UTC offset `+HH:MM`/`-HH:MM`/`+HHMM`; an offset is normalised to UTC (`2024-01-01 06:00+01:00` is
//     `2024-01-01T05:00:00Z`), and forecast stamps then end in `Z`. Fractions must be zero (the grid is
//     whole hours, anchored on whole seconds).
//   - D/W/MS/Q/Y: `YYYY-MM-DD`, or the same date at midnight in the date-time spellings above (pandas
//     writes daily stamps as `2024-01-01 00:00:00`); the date is taken as written, whatever the offset,
//     because a daily label names a civil day, not an instant. Any other time of day is refused.
//
// Grids: D +1 day, W +7 days (anchored on the first date's weekday), H +1 hour (anchored on the first
// stamp's minute and second), MS/Q/Y +1/+3/+12 months from the first date's month. For MS/Q/Y every
// date keeps one day-of-month position, inferred from all dates, tried in this order:
//   1. first day of the month;
//   2. last day of the month (2023-01-31, 2023-02-28, 2023-03-31);
//   3. the same day number D, clamped to the end of shorter months (D = 30: 2023-01-30, 2023-02-28,
//      2023-03-30). D is the day of the first date that is not a month end.
// The first position consistent with every date wins; month ends alone therefore mean "last day".
import type { Freq } from '../runtime/catalog.ts';

const SECONDS_PER_DAY = 86_400;
const SECONDS_PER_HOUR = 3_600;
const MONTHS_PER_STEP: Partial<Record<Freq, number>> = { MS: 1, Q: 3, Y: 12 };
const STEP_NAME: Record<Freq, string> = { D: 'days', W: 'weeks', H: 'hours', MS: 'months', Q: 'quarters (3 months)', Y: 'years' };
// Four-digit years only, so every date the service writes back has the input format.
const MAX_YEAR = 9999;
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const DATE_FORMAT = /^(\d{4})-(\d{2})-(\d{2})$/;
// groups: year, month, day, hour, minute, second?, fraction?, zone? (Z, ±HH:MM or ±HHMM)
const DATE_TIME_FORMAT = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/;
/** What the refusals quote as the accepted date-time spelling. */
export const DATE_TIME_SPELLING = 'YYYY-MM-DDTHH:MM[:SS] (T or a space; optional Z or UTC offset ±HH:MM)';

/** A parsed index date; a plain date is midnight. */
export interface Stamp {
  year: number;
  month: number;
  day: number;
  secondOfDay: number;
  /** written with a trailing `Z` or a UTC offset (then already normalised to UTC) */
  zulu: boolean;
}

export type DayPosition = { kind: 'first' } | { kind: 'last' } | { kind: 'day'; day: number };

/** Everything needed to turn a step number back into a date. */
export interface Grid {
  freq: Freq;
  origin: Stamp;
  /** MS/Q/Y only */
  dayPosition: DayPosition | null;
  /** H forecast stamps end in `Z` iff an index stamp had `Z` or an offset */
  zulu: boolean;
}

export interface ParsedIndex {
  grid: Grid;
  /** steps[i] = grid steps from dates[0] to dates[i]; steps[0] = 0, strictly increasing */
  steps: number[];
}

/** Why dates[position] is not acceptable; the reason is a sentence naming the date. */
export interface IndexError {
  position: number;
  date: string;
  reason: string;
}

export type ParseIndexResult = { ok: true; index: ParsedIndex } | { ok: false; error: IndexError };
export type ParseDateResult = { ok: true; stamp: Stamp } | { ok: false; reason: string };
export type ForecastDatesResult = { ok: true; dates: string[] } | { ok: false; reason: string };

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function epochDay(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const shiftedMonth = (month + 9) % 12; // March = 0, so the leap day ends the year
  const dayOfYear = Math.floor((153 * shiftedMonth + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** Inverse of epochDay (H. Hinnant's civil_from_days). */
export function civilDate(days: number): { year: number; month: number; day: number } {
  const shifted = days + 719_468;
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

/** Seconds since 1970-01-01T00:00:00Z; orders stamps of every freq. */
function instant(stamp: Stamp): number {
  return epochDay(stamp.year, stamp.month, stamp.day) * SECONDS_PER_DAY + stamp.secondOfDay;
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** `YYYY-MM-DD` for D/W/MS/Q/Y, `YYYY-MM-DDTHH:MM:SS[Z]` for H. */
export function formatStamp(freq: Freq, stamp: Stamp): string {
  const date = `${pad(stamp.year, 4)}-${pad(stamp.month)}-${pad(stamp.day)}`;
  if (freq !== 'H') return date;
  const s = stamp.secondOfDay;
  const time = `${pad(Math.floor(s / SECONDS_PER_HOUR))}:${pad(Math.floor((s % SECONDS_PER_HOUR) / 60))}:${pad(s % 60)}`;
  return `${date}T${time}${stamp.zulu ? 'Z' : ''}`;
}

/** The value of `length` decimal digits of `text` from `at`, or -1 if one of them is not a digit. */
function digits(text: string, at: number, length: number): number {
  let value = 0;
  for (let i = at; i < at + length; i++) {
    const code = text.charCodeAt(i) - 48;
    if (code < 0 || code > 9) return -1;
    value = value * 10 + code;
  }
  return value;
}

export function parseDate(freq: Freq, text: string): ParseDateResult {
  // Fast path for the common plain date (an index of 256 × 512 dates took 190 ms through the regexes).
  if (text.length === 10 && text.charCodeAt(4) === 45 && text.charCodeAt(7) === 45) {
    const [year, month, day] = [digits(text, 0, 4), digits(text, 5, 2), digits(text, 8, 2)];
    if (year >= 0 && month >= 0 && day >= 0) return checkStamp(text, year, month, day, 0, 0, 0, false);
  }
  const dateOnly = DATE_FORMAT.exec(text);
  if (dateOnly) return checkStamp(text, Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3]), 0, 0, 0, false);
  const match = DATE_TIME_FORMAT.exec(text);
  const quoted = JSON.stringify(text);
  if (!match) {
    if (freq === 'H') return { ok: false, reason: `${quoted} is neither a date YYYY-MM-DD nor a date-time ${DATE_TIME_SPELLING}` };
    return { ok: false, reason: `${quoted} is not a date of the form YYYY-MM-DD` };
  }
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((g) => Number(match[g] ?? 0));
  const fraction = match[7] ?? '';
  const zone = match[8];
  if (/[1-9]/.test(fraction)) return { ok: false, reason: `${quoted} has a fraction of a second; stamps must fall on whole seconds` };
  const offsetSeconds = zone && zone !== 'Z' ? parseOffset(zone) : 0;
  if (offsetSeconds === null) return { ok: false, reason: `${quoted} has an impossible UTC offset ${zone}: hours run 00-23 and minutes 00-59` };
  if (freq !== 'H') {
    if (hour !== 0 || minute !== 0 || second !== 0) {
      return { ok: false, reason: `${quoted} has a time of day; freq ${freq} takes dates YYYY-MM-DD (or midnight date-times); times other than ` +
        `midnight are for freq H` };
    }
    // a daily label names a civil day: the offset says where, not which day
    return checkStamp(text, year, month, day, 0, 0, 0, false);
  }
  const checked = checkStamp(text, year, month, day, hour, minute, second, zone !== undefined);
  if (!checked.ok || offsetSeconds === 0) return checked;
  return toUtc(text, checked.stamp, offsetSeconds);
}

/** `+01:00` → 3600, `-0530` → -19800; null when the hours or minutes are impossible. */
function parseOffset(zone: string): number | null {
  const digitsOnly = zone.slice(1).replace(':', '');
  const [hours, minutes] = [Number(digitsOnly.slice(0, 2)), Number(digitsOnly.slice(2, 4))];
  if (hours > 23 || minutes > 59) return null;
  return (zone[0] === '-' ? -1 : 1) * (hours * SECONDS_PER_HOUR + minutes * 60);
}

/** The UTC stamp of a local stamp written with `offsetSeconds` east of UTC. */
function toUtc(text: string, local: Stamp, offsetSeconds: number): ParseDateResult {
  const seconds = instant(local) - offsetSeconds;
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  const date = civilDate(days);
  if (date.year < 1 || date.year > MAX_YEAR) return { ok: false, reason: `${JSON.stringify(text)} is not supported: in UTC it falls outside the years ` +
    `0001 to ${MAX_YEAR}` };
  return { ok: true, stamp: { ...date, secondOfDay: seconds - days * SECONDS_PER_DAY, zulu: true } };
}

/** A stamp from parsed fields, or why they are not a real date and time. */
function checkStamp(text: string, year: number, month: number, day: number, hour: number, minute: number, second: number, zulu: boolean): ParseDateResult {
  const quoted = () => JSON.stringify(text); // only for a refusal
  if (year < 1) return { ok: false, reason: `${quoted()} is not supported: years run from 0001 to ${MAX_YEAR}` };
  if (month < 1 || month > 12) return { ok: false, reason: `${quoted()} is not a real date: month ${pad(month)} does not exist` };
  const monthLength = daysInMonth(year, month);
  if (day < 1 || day > monthLength) {
    const leapNote = month === 2 && day === 29 ? `; ${year} is not a leap year` : '';
    return { ok: false, reason: `${quoted()} is not a real date: ${MONTH_NAMES[month - 1]} ${year} has no day ${pad(day)}${leapNote}` };
  }
  if (hour > 23) return { ok: false, reason: `${quoted()} is not a real time: hour ${pad(hour)} is outside 00-23` };
  if (minute > 59) return { ok: false, reason: `${quoted()} is not a real time: minute ${pad(minute)} is outside 00-59` };
  if (second > 59) return { ok: false, reason: `${quoted()} is not a real time: second ${pad(second)} is outside 00-59` };
  return { ok: true, stamp: { year, month, day, secondOfDay: hour * SECONDS_PER_HOUR + minute * 60 + second, zulu } };
}

/**
 * Parses an index and places it on the freq's grid. Reports the first problem only: once a date is
 * off, the positions after it say little. `dates` must not be empty.
 */
export function parseIndex(freq: Freq, dates: readonly string[]): ParseIndexResult {
  if (dates.length === 0) throw new RangeError('parseIndex needs at least one date');
  const stamps: Stamp[] = [];
  for (const [position, date] of dates.entries()) {
    const parsed = parseDate(freq, date);
    if (!parsed.ok) return { ok: false, error: { position, date, reason: parsed.reason } };
    stamps.push(parsed.stamp);
  }
  const orderError = findOrderError(dates, stamps);
  if (orderError) return { ok: false, error: orderError };
  const origin = stamps[0];
  const months = MONTHS_PER_STEP[freq];
  const steps: number[] = [];
  for (const [position, stamp] of stamps.entries()) {
    const step = months ? monthStep(origin, stamp, months) : fixedStep(freq, origin, stamp);
    if (step === null) {
      const reason = `${JSON.stringify(dates[position])} is off the ${freq} grid: it is not a whole number of ${STEP_NAME[freq]} after the first ` +
        `date ${JSON.stringify(dates[0])}`;
      return { ok: false, error: { position, date: dates[position], reason } };
    }
    steps.push(step);
  }
  let dayPosition: DayPosition | null = null;
  if (months) {
    const inferred = inferDayPosition(stamps);
    if (!inferred.ok) {
      const { position, expected } = inferred;
      const reason = `${JSON.stringify(dates[position])} is off the ${freq} grid: the earlier dates are on ${describeDayPosition(expected)}, ` +
        `so ${formatStamp(freq, stampOnPosition(stamps[position].year, stamps[position].month, expected))} was expected`;
      return { ok: false, error: { position, date: dates[position], reason } };
    }
    dayPosition = inferred.position;
  }
  const zulu = stamps.some((s) => s.zulu);
  return { ok: true, index: { grid: { freq, origin, dayPosition, zulu }, steps } };
}

function findOrderError(dates: readonly string[], stamps: Stamp[]): IndexError | null {
  let previous = instant(stamps[0]);
  for (let position = 1; position < stamps.length; position++) {
    const current = instant(stamps[position]);
    if (current <= previous) {
      const date = dates[position];
      const [quoted, before] = [JSON.stringify(date), JSON.stringify(dates[position - 1])];
      if (current === previous) return { position, date, reason: `${quoted} repeats the previous date ${before}; dates must not repeat` };
      return { position, date, reason: `${quoted} comes before the previous date ${before}; dates must be strictly ascending` };
    }
    previous = current;
  }
  return null;
}

/** Grid steps from origin to stamp for D/W/H, or null when stamp is between grid points. */
function fixedStep(freq: Freq, origin: Stamp, stamp: Stamp): number | null {
  const seconds = instant(stamp) - instant(origin);
  const stepSeconds = freq === 'H' ? SECONDS_PER_HOUR : freq === 'W' ? 7 * SECONDS_PER_DAY : SECONDS_PER_DAY;
  return seconds % stepSeconds === 0 ? seconds / stepSeconds : null;
}

/** Grid steps for MS/Q/Y by month alone; the day is checked by inferDayPosition. */
function monthStep(origin: Stamp, stamp: Stamp, monthsPerStep: number): number | null {
  const months = (stamp.year - origin.year) * 12 + (stamp.month - origin.month);
  return months % monthsPerStep === 0 ? months / monthsPerStep : null;
}

function stampOnPosition(year: number, month: number, position: DayPosition): Stamp {
  const monthLength = daysInMonth(year, month);
  const day = position.kind === 'first' ? 1 : position.kind === 'last' ? monthLength : Math.min(position.day, monthLength);
  return { year, month, day, secondOfDay: 0, zulu: false };
}

function describeDayPosition(position: DayPosition): string {
  if (position.kind === 'first') return 'the first day of the month';
  if (position.kind === 'last') return 'the last day of the month';
  return `day ${position.day} of the month (the last day in shorter months)`;
}

type InferredDayPosition = { ok: true; position: DayPosition } | { ok: false; position: number; expected: DayPosition };

/** Picks the first candidate consistent with all dates; otherwise blames the candidate that held longest. */
function inferDayPosition(stamps: Stamp[]): InferredDayPosition {
  const notMonthEnd = stamps.find((s) => s.day < daysInMonth(s.year, s.month));
  const candidates: DayPosition[] = [{ kind: 'first' }, { kind: 'last' }];
  if (notMonthEnd) candidates.push({ kind: 'day', day: notMonthEnd.day });
  let best = { held: -1, candidate: candidates[0] };
  for (const candidate of candidates) {
    const breaks = stamps.findIndex((s) => s.day !== stampOnPosition(s.year, s.month, candidate).day);
    if (breaks === -1) return { ok: true, position: candidate };
    if (breaks > best.held) best = { held: breaks, candidate };
  }
  return { ok: false, position: best.held, expected: best.candidate };
}

/** The date at `step` grid steps from the grid's origin. */
export function stampAtStep(grid: Grid, step: number): Stamp {
  const { freq, origin } = grid;
  const months = MONTHS_PER_STEP[freq];
  if (months) {
    const monthIndex = origin.year * 12 + (origin.month - 1) + step * months;
    // dayPosition is set for every monthly grid
    return stampOnPosition(Math.floor(monthIndex / 12), (monthIndex % 12) + 1, grid.dayPosition!);
  }
  const stepSeconds = freq === 'H' ? SECONDS_PER_HOUR : freq === 'W' ? 7 * SECONDS_PER_DAY : SECONDS_PER_DAY;
  const seconds = instant(origin) + step * stepSeconds;
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  return { ...civilDate(days), secondOfDay: seconds - days * SECONDS_PER_DAY, zulu: grid.zulu };
}

export function dateAtStep(grid: Grid, step: number): string {
  return formatStamp(grid.freq, stampAtStep(grid, step));
}

/** The `horizon` dates after the index's last date, in the output format of the freq. */
export function forecastDates(index: ParsedIndex, horizon: number): ForecastDatesResult {
  const lastStep = index.steps[index.steps.length - 1];
  const stamps = Array.from({ length: horizon }, (_, k) => stampAtStep(index.grid, lastStep + 1 + k));
  if (stamps.length > 0 && stamps[stamps.length - 1].year > MAX_YEAR) {
    return { ok: false, reason: `${horizon} steps after ${dateAtStep(index.grid, lastStep)} run past the year ${MAX_YEAR}` };
  }
  return { ok: true, dates: stamps.map((s) => formatStamp(index.grid.freq, s)) };
}

/** Checks that `dates` are exactly the grid steps right after the index's last date. */
export function findContinuationError(index: ParsedIndex, dates: readonly string[]): IndexError | null {
  const lastStep = index.steps[index.steps.length - 1];
  for (const [position, date] of dates.entries()) {
    const parsed = parseDate(index.grid.freq, date);
    if (!parsed.ok) return { position, date, reason: parsed.reason };
    const expected = stampAtStep(index.grid, lastStep + 1 + position);
    if (instant(parsed.stamp) !== instant(expected)) {
      const last = dateAtStep(index.grid, lastStep);
      const reason = `${JSON.stringify(date)} does not continue the ${index.grid.freq} grid: step ${position + 1} after the last index date ${last} ` +
        `is ${formatStamp(index.grid.freq, expected)}`;
      return { position, date, reason };
    }
  }
  return null;
}

/** Missing grid steps between the first and last date: how many, and the first one. */
export function gapSummary(steps: readonly number[]): { missing: number; firstMissingStep: number | null } {
  const missing = steps[steps.length - 1] + 1 - steps.length;
  if (missing === 0) return { missing, firstMissingStep: null };
  const firstMissingStep = steps.findIndex((step, i) => step !== i);
  return { missing, firstMissingStep };
}

/**
 * Spreads values onto their grid steps from `fromStep` to the last step, with null at the gaps.
 * Starting at fromStep keeps the array as long as the context, however sparse the index.
 */
export function fillGaps<T>(values: readonly T[], steps: readonly number[], fromStep = 0): (T | null)[] {
  const lastStep = steps[steps.length - 1];
  const filled: (T | null)[] = new Array(Math.max(0, lastStep - fromStep + 1)).fill(null);
  for (const [i, step] of steps.entries()) {
    if (step >= fromStep) filled[step - fromStep] = values[i];
  }
  return filled;
}
