import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Freq } from '../src/runtime/catalog.ts';
import type { ParsedIndex } from '../src/forecasting/calendar.ts';
import {
  civilDate, daysInMonth, epochDay, fillGaps, findContinuationError, forecastDates, gapSummary,
  isLeapYear, parseDate, parseIndex,
} from '../src/forecasting/calendar.ts';

function parsed(freq: Freq, dates: string[]): ParsedIndex {
  const result = parseIndex(freq, dates);
  if (!result.ok) assert.fail(`expected ${dates.join(', ')} to parse as ${freq}: ${result.error.reason}`);
  return result.index;
}

function steps(freq: Freq, dates: string[]): number[] {
  return parsed(freq, dates).steps;
}

function next(freq: Freq, dates: string[], horizon: number): string[] {
  const result = forecastDates(parsed(freq, dates), horizon);
  if (!result.ok) assert.fail(result.reason);
  return result.dates;
}

function indexError(freq: Freq, dates: string[]) {
  const result = parseIndex(freq, dates);
  if (result.ok) assert.fail(`expected ${dates.join(', ')} to be rejected as ${freq}`);
  return result.error;
}

function rejects(freq: Freq, text: string, reasonPart: RegExp): void {
  const result = parseDate(freq, text);
  assert.equal(result.ok, false, `${text} should be rejected for ${freq}`);
  if (!result.ok) assert.match(result.reason, reasonPart);
}

describe('leap years and month lengths', () => {
  test('Gregorian leap rule', () => {
    assert.equal(isLeapYear(2024), true);
    assert.equal(isLeapYear(2023), false);
    assert.equal(isLeapYear(1900), false);
    assert.equal(isLeapYear(2000), true);
    assert.equal(isLeapYear(2100), false);
  });

  test('month lengths', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2023, m)), [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]);
    assert.equal(daysInMonth(2024, 2), 29);
    assert.equal(daysInMonth(1900, 2), 28);
    assert.equal(daysInMonth(2000, 2), 29);
  });
});

describe('epochDay / civilDate', () => {
  test('known days', () => {
    assert.equal(epochDay(1970, 1, 1), 0);
    assert.equal(epochDay(2000, 3, 1), 11_017);
    assert.equal(epochDay(1, 1, 1), -719_162);
    assert.deepEqual(civilDate(-1), { year: 1969, month: 12, day: 31 });
    assert.deepEqual(civilDate(epochDay(2024, 2, 29)), { year: 2024, month: 2, day: 29 });
  });

  test('agrees with Date.UTC and round-trips from year 100 to 9999', () => {
    for (let days = epochDay(100, 1, 1); days <= epochDay(9999, 12, 31); days += 997) {
      const { year, month, day } = civilDate(days);
      assert.equal(Date.UTC(year, month - 1, day) / 86_400_000, days);
      assert.equal(epochDay(year, month, day), days);
    }
  });
});

describe('parseDate', () => {
  test('accepts YYYY-MM-DD for every freq', () => {
    for (const freq of ['MS', 'D', 'W', 'H', 'Q', 'Y'] as Freq[]) {
      assert.deepEqual(parseDate(freq, '2024-02-29'), { ok: true, stamp: { year: 2024, month: 2, day: 29, secondOfDay: 0, zulu: false } });
    }
  });

  test('accepts H date-times with optional seconds and Z', () => {
    assert.deepEqual(parseDate('H', '2024-03-05T07:30'), { ok: true, stamp: { year: 2024, month: 3, day: 5, secondOfDay: 27_000, zulu: false } });
    assert.deepEqual(parseDate('H', '2024-03-05T07:30:15Z'), { ok: true, stamp: { year: 2024, month: 3, day: 5, secondOfDay: 27_015, zulu: true } });
    assert.equal(parseDate('H', '2024-03-05T23:59:59').ok, true);
    assert.equal(parseDate('H', '2024-03-05T00:00Z').ok, true);
  });

  test('rejects impossible dates', () => {
    rejects('D', '2023-02-29', /February 2023 has no day 29; 2023 is not a leap year/);
    rejects('D', '1900-02-29', /1900 is not a leap year/);
    assert.equal(parseDate('D', '2000-02-29').ok, true);
    assert.equal(parseDate('D', '2024-02-29').ok, true);
    rejects('D', '2023-13-01', /month 13 does not exist/);
    rejects('D', '2023-00-10', /month 00 does not exist/);
    rejects('D', '2023-04-31', /April 2023 has no day 31/);
    rejects('D', '2023-01-00', /January 2023 has no day 00/);
    rejects('D', '2023-01-32', /has no day 32/);
    rejects('D', '0000-01-01', /years run from 0001 to 9999/);
  });

  test('rejects impossible times', () => {
    rejects('H', '2024-01-01T24:00', /hour 24 is outside 00-23/);
    rejects('H', '2024-01-01T10:60', /minute 60/);
    rejects('H', '2024-01-01T10:00:60', /second 60/);
    rejects('H', '2023-02-29T10:00', /2023 is not a leap year/);
  });

  test('rejects other formats', () => {
    const dateOnly = /is not a date of the form YYYY-MM-DD/;
    for (const text of ['2024-1-01', '2024/01/01', '20240101', '24-01-01', ' 2024-01-01', '2024-01-01 ', '', '2024-01-01Z', '２０２４-01-01',
      '2024-0a-01', '2024-+1-01', '+024-01-01', '2024-01-1 ', '2024-01-1.']) { // the last five: YYYY-MM-DD's shape, not its digits
      rejects('D', text, dateOnly);
    }
    rejects('MS', '2024-01', dateOnly);
    const hourly = /is neither a date YYYY-MM-DD nor a date-time YYYY-MM-DDTHH:MM\[:SS\] \(T or a space; optional Z or UTC offset ±HH:MM\)/;
    for (const text of ['2024-01-01T10', '2024-01-01  10:00', '2024-01-01t10:00', '2024-01-01T10:00z', '2024-01-01T10:00+2', '2024-01-01T10:00:00.Z', '2024-01-01T1:00',
      '2024-01-01T10:00 +01:00', '2024-01-01T10:00+01:00:00', '2024-01-01T10:00UTC']) {
      rejects('H', text, hourly);
    }
  });

  test('times of day other than midnight are for H only, with a hint', () => {
    for (const freq of ['MS', 'D', 'W', 'Q', 'Y'] as Freq[]) {
      rejects(freq, '2024-01-01T00:30', new RegExp(`has a time of day; freq ${freq} takes dates YYYY-MM-DD`));
      rejects(freq, '2024-01-01 12:00:00', /times other than midnight are for freq H/);
      rejects(freq, '2024-01-01 00:00:01+01:00', /times other than midnight are for freq H/);
    }
  });
});

describe('pandas and ISO spellings', () => {
  const stamp = (freq: Freq, text: string) => { const r = parseDate(freq, text); assert.ok(r.ok, `${text}: ${r.ok ? '' : r.reason}`); return r.stamp; };

  test('H: a space instead of T, as str(pd.Timestamp) writes', () => {
    assert.deepEqual(stamp('H', '2024-01-01 07:00:00'), stamp('H', '2024-01-01T07:00:00'));
    assert.deepEqual(stamp('H', '2024-01-01 07:00'), { year: 2024, month: 1, day: 1, secondOfDay: 25_200, zulu: false });
  });

  test('H: UTC offsets are normalised to UTC, across day, month and year ends', () => {
    assert.deepEqual(stamp('H', '2024-01-01 06:00:00+01:00'), { year: 2024, month: 1, day: 1, secondOfDay: 18_000, zulu: true });
    assert.deepEqual(stamp('H', '2024-01-01T00:30:00+01:00'), { year: 2023, month: 12, day: 31, secondOfDay: 84_600, zulu: true });
    assert.deepEqual(stamp('H', '2024-02-28T22:00:00-05:00'), { year: 2024, month: 2, day: 29, secondOfDay: 10_800, zulu: true });
    assert.deepEqual(stamp('H', '2024-03-05T07:30+0530'), { year: 2024, month: 3, day: 5, secondOfDay: 7_200, zulu: true });
    assert.deepEqual(stamp('H', '2024-01-01T05:00:00+00:00'), stamp('H', '2024-01-01T05:00:00Z'));
    rejects('H', '2024-01-01T05:00+24:00', /impossible UTC offset \+24:00/);
    rejects('H', '0001-01-01T00:00+01:00', /in UTC it falls outside the years 0001 to 9999/);
  });

  test('H: zero fractions (pandas to_json) accepted, others refused', () => {
    assert.deepEqual(stamp('H', '2024-01-01T05:00:00.000Z'), stamp('H', '2024-01-01T05:00:00Z'));
    assert.deepEqual(stamp('H', '2024-01-01 05:00:00.000000000'), stamp('H', '2024-01-01T05:00'));
    rejects('H', '2024-01-01T05:00:00.5Z', /fraction of a second/);
  });

  test('an index with offsets gives the same grid and forecast dates as its UTC spelling', () => {
    const utc = ['2024-03-30T22:00:00Z', '2024-03-30T23:00:00Z', '2024-03-31T00:00:00Z', '2024-03-31T01:00:00Z'];
    // a daylight-saving change in the middle (CET +01:00 -> CEST +02:00 at 01:00 UTC): still one grid
    const local = ['2024-03-30 23:00:00+01:00', '2024-03-31 00:00:00+01:00', '2024-03-31 01:00:00+01:00', '2024-03-31 03:00:00+02:00'];
    assert.deepEqual(steps('H', local), [0, 1, 2, 3]);
    assert.deepEqual(next('H', local, 3), next('H', utc, 3));
    assert.deepEqual(next('H', local, 2), ['2024-03-31T02:00:00Z', '2024-03-31T03:00:00Z']);
    // the same instant twice, spelled in two zones, is a repeat
    assert.match(indexError('H', ['2024-01-01T05:00Z', '2024-01-01T06:00+01:00']).reason, /repeats the previous date/);
  });

  test('D/W/MS/Q/Y: midnight date-times (pandas) are the date as written, whatever the offset', () => {
    for (const freq of ['MS', 'D', 'W', 'Q', 'Y'] as Freq[]) {
      for (const text of ['2024-01-01 00:00:00', '2024-01-01T00:00', '2024-01-01T00:00:00.000Z', '2024-01-01 00:00:00+01:00', '2024-01-01T00:00:00-05:00']) {
        assert.deepEqual(stamp(freq, text), stamp(freq, '2024-01-01'), `${freq} ${text}`);
      }
    }
    const pandasDaily = ['2024-01-30 00:00:00', '2024-01-31 00:00:00', '2024-02-01 00:00:00'];
    assert.deepEqual(next('D', pandasDaily, 2), ['2024-02-02', '2024-02-03']);
    assert.deepEqual(next('MS', ['2024-01-01 00:00:00+01:00', '2024-02-01 00:00:00+01:00'], 1), ['2024-03-01']);
  });
});

describe('D grid', () => {
  test('consecutive days across month ends and leap days', () => {
    assert.deepEqual(steps('D', ['2024-01-30', '2024-01-31', '2024-02-01']), [0, 1, 2]);
    assert.deepEqual(steps('D', ['2024-02-28', '2024-02-29', '2024-03-01']), [0, 1, 2]);
    assert.deepEqual(steps('D', ['2023-02-28', '2023-03-01']), [0, 1]);
    assert.deepEqual(steps('D', ['1900-02-28', '1900-03-01']), [0, 1]);
    assert.deepEqual(steps('D', ['2000-02-28', '2000-03-01']), [0, 2]);
  });

  test('forecast continues across leap day and year end', () => {
    assert.deepEqual(next('D', ['2024-02-27', '2024-02-28'], 3), ['2024-02-29', '2024-03-01', '2024-03-02']);
    assert.deepEqual(next('D', ['2023-02-28'], 1), ['2023-03-01']);
    assert.deepEqual(next('D', ['2023-12-30', '2023-12-31'], 2), ['2024-01-01', '2024-01-02']);
  });

  test('gaps become skipped steps', () => {
    assert.deepEqual(steps('D', ['2024-01-01', '2024-01-02', '2024-01-05']), [0, 1, 4]);
  });

  test('duplicates and descending dates are named', () => {
    assert.deepEqual(indexError('D', ['2024-01-01', '2024-01-02', '2024-01-02']), {
      position: 2, date: '2024-01-02', reason: '"2024-01-02" repeats the previous date "2024-01-02"; dates must not repeat',
    });
    const descending = indexError('D', ['2024-01-03', '2024-01-04', '2024-01-01']);
    assert.equal(descending.position, 2);
    assert.match(descending.reason, /"2024-01-01" comes before the previous date "2024-01-04"; dates must be strictly ascending/);
  });

  test('a bad format is named by position', () => {
    assert.deepEqual(indexError('D', ['2024-01-01', '2024-1-2']), { position: 1, date: '2024-1-2', reason: '"2024-1-2" is not a date of the form YYYY-MM-DD' });
  });

  test('an empty index is a programming error', () => {
    assert.throws(() => parseIndex('D', []), RangeError);
  });
});

describe('W grid', () => {
  test('any weekday anchors the grid', () => {
    // 2024-01-03 is a Wednesday, 2023-12-31 a Sunday
    assert.deepEqual(steps('W', ['2024-01-03', '2024-01-10', '2024-01-17']), [0, 1, 2]);
    assert.deepEqual(next('W', ['2023-12-17', '2023-12-24', '2023-12-31'], 2), ['2024-01-07', '2024-01-14']);
    assert.deepEqual(next('W', ['2024-02-22'], 2), ['2024-02-29', '2024-03-07']);
  });

  test('gap of one week', () => {
    assert.deepEqual(steps('W', ['2024-01-03', '2024-01-17']), [0, 2]);
  });

  test('off grid by a day', () => {
    const error = indexError('W', ['2024-01-03', '2024-01-10', '2024-01-18']);
    assert.equal(error.position, 2);
    assert.match(error.reason, /off the W grid: it is not a whole number of weeks after the first date "2024-01-03"/);
  });
});

describe('H grid', () => {
  test('across day, month and year ends', () => {
    assert.deepEqual(steps('H', ['2023-12-31T22:00', '2023-12-31T23:00', '2024-01-01T00:00', '2024-01-01T01:00']), [0, 1, 2, 3]);
    assert.deepEqual(next('H', ['2024-01-31T22:00', '2024-01-31T23:00'], 2), ['2024-02-01T00:00:00', '2024-02-01T01:00:00']);
    assert.deepEqual(next('H', ['2023-12-31T23:00'], 1), ['2024-01-01T00:00:00']);
  });

  test('across the leap day', () => {
    assert.deepEqual(next('H', ['2024-02-28T23:00'], 25), [
      ...Array.from({ length: 24 }, (_, h) => `2024-02-29T${String(h).padStart(2, '0')}:00:00`),
      '2024-03-01T00:00:00',
    ]);
    assert.deepEqual(next('H', ['2023-02-28T23:00'], 1), ['2023-03-01T00:00:00']);
  });

  test('minute and second offsets of the first stamp are kept', () => {
    assert.deepEqual(next('H', ['2024-01-01T22:30', '2024-01-01T23:30'], 2), ['2024-01-02T00:30:00', '2024-01-02T01:30:00']);
    assert.deepEqual(steps('H', ['2024-01-01T00:15:30', '2024-01-01T01:15:30', '2024-01-01T03:15:30']), [0, 1, 3]);
  });

  test('off grid by half an hour', () => {
    const error = indexError('H', ['2024-01-01T00:00', '2024-01-01T01:00', '2024-01-01T01:30']);
    assert.equal(error.position, 2);
    assert.match(error.reason, /off the H grid: it is not a whole number of hours after the first date "2024-01-01T00:00"/);
  });

  test('a plain date is midnight', () => {
    assert.deepEqual(steps('H', ['2024-01-01', '2024-01-01T01:00', '2024-01-02']), [0, 1, 24]);
    assert.deepEqual(next('H', ['2024-01-01'], 1), ['2024-01-01T01:00:00']);
  });

  test('the same instant spelled differently is a duplicate', () => {
    assert.equal(indexError('H', ['2024-01-01', '2024-01-01T00:00:00']).position, 1);
    assert.equal(indexError('H', ['2024-01-01T05:00', '2024-01-01T05:00Z']).position, 1);
  });

  test('forecast stamps end in Z iff the input did', () => {
    assert.deepEqual(next('H', ['2024-01-01T00:00Z', '2024-01-01T01:00:00Z'], 1), ['2024-01-01T02:00:00Z']);
    assert.deepEqual(next('H', ['2024-01-01T00:00', '2024-01-01T01:00Z'], 1), ['2024-01-01T02:00:00Z']);
    assert.deepEqual(next('H', ['2024-01-01T00:00:00'], 1), ['2024-01-01T01:00:00']);
  });
});

describe('MS grid', () => {
  test('first day of the month', () => {
    assert.deepEqual(steps('MS', ['2023-11-01', '2023-12-01', '2024-01-01']), [0, 1, 2]);
    assert.deepEqual(next('MS', ['2023-12-01'], 3), ['2024-01-01', '2024-02-01', '2024-03-01']);
  });

  test('last day of the month: Jan 31 -> Feb 28/29 -> Mar 31', () => {
    assert.deepEqual(steps('MS', ['2023-01-31', '2023-02-28', '2023-03-31', '2023-04-30']), [0, 1, 2, 3]);
    assert.deepEqual(next('MS', ['2023-12-31'], 3), ['2024-01-31', '2024-02-29', '2024-03-31']);
    assert.deepEqual(next('MS', ['2022-12-31', '2023-01-31'], 2), ['2023-02-28', '2023-03-31']);
    assert.deepEqual(next('MS', ['1899-12-31', '1900-01-31'], 1), ['1900-02-28']);
    assert.deepEqual(next('MS', ['1999-12-31', '2000-01-31'], 1), ['2000-02-29']);
  });

  test('a month end followed by a month end is "last day"', () => {
    assert.deepEqual(parsed('MS', ['2023-02-28', '2023-03-31']).grid.dayPosition, { kind: 'last' });
    assert.deepEqual(next('MS', ['2023-02-28'], 1), ['2023-03-31']);
  });

  test('same day number', () => {
    assert.deepEqual(next('MS', ['2023-01-15', '2023-02-15'], 2), ['2023-03-15', '2023-04-15']);
    assert.deepEqual(next('MS', ['2023-01-28', '2023-02-28'], 1), ['2023-03-28']);
  });

  test('same day number 29/30/31 is clamped to shorter months', () => {
    assert.deepEqual(parsed('MS', ['2023-01-30', '2023-02-28', '2023-03-30']).grid.dayPosition, { kind: 'day', day: 30 });
    assert.deepEqual(next('MS', ['2023-01-30', '2023-02-28', '2023-03-30'], 3), ['2023-04-30', '2023-05-30', '2023-06-30']);
    assert.deepEqual(next('MS', ['2023-12-30', '2024-01-30'], 2), ['2024-02-29', '2024-03-30']);
    assert.deepEqual(next('MS', ['2024-01-29', '2024-02-29'], 2), ['2024-03-29', '2024-04-29']);
    assert.deepEqual(next('MS', ['2023-02-28', '2023-03-30'], 1), ['2023-04-30']);
    // 2024-02-28 is no month end in a leap year, so it fixes the day number at 28
    assert.match(indexError('MS', ['2024-02-28', '2024-03-30']).reason, /day 28 of the month .*2024-03-28 was expected/);
  });

  test('gaps in months', () => {
    assert.deepEqual(steps('MS', ['2023-01-31', '2023-03-31', '2023-06-30']), [0, 2, 5]);
  });

  test('a broken day position names the date and the expected one', () => {
    const lastDay = indexError('MS', ['2023-01-31', '2023-02-28', '2023-03-30']);
    assert.equal(lastDay.position, 2);
    assert.match(lastDay.reason, /"2023-03-30" is off the MS grid: the earlier dates are on the last day of the month, so 2023-03-31 was expected/);
    const sameDay = indexError('MS', ['2023-01-15', '2023-02-15', '2023-03-16']);
    assert.equal(sameDay.position, 2);
    assert.match(sameDay.reason, /day 15 of the month .*2023-03-15 was expected/);
    assert.equal(indexError('MS', ['2023-01-01', '2023-02-01', '2023-03-02']).position, 2);
  });

  test('two dates in one month are off grid', () => {
    assert.equal(indexError('MS', ['2024-01-01', '2024-01-15']).position, 1);
  });
});

describe('Q grid', () => {
  test('quarters starting in February', () => {
    assert.deepEqual(steps('Q', ['2023-02-01', '2023-05-01', '2023-08-01']), [0, 1, 2]);
    assert.deepEqual(next('Q', ['2023-08-01'], 3), ['2023-11-01', '2024-02-01', '2024-05-01']);
    assert.deepEqual(next('Q', ['2023-02-15', '2023-05-15'], 2), ['2023-08-15', '2023-11-15']);
  });

  test('last day of the quarter-month', () => {
    assert.deepEqual(next('Q', ['2023-03-31', '2023-06-30', '2023-09-30', '2023-12-31'], 2), ['2024-03-31', '2024-06-30']);
    assert.deepEqual(next('Q', ['2023-02-28', '2023-05-31'], 3), ['2023-08-31', '2023-11-30', '2024-02-29']);
  });

  test('same day number 30, clamped in February', () => {
    assert.deepEqual(parsed('Q', ['2023-02-28', '2023-05-30']).grid.dayPosition, { kind: 'day', day: 30 });
    assert.deepEqual(next('Q', ['2023-02-28', '2023-05-30'], 3), ['2023-08-30', '2023-11-30', '2024-02-29']);
  });

  test('gap of a quarter', () => {
    assert.deepEqual(steps('Q', ['2023-01-01', '2023-07-01']), [0, 2]);
  });

  test('months that are not whole quarters apart are off grid', () => {
    const error = indexError('Q', ['2023-01-01', '2023-04-01', '2023-08-01']);
    assert.equal(error.position, 2);
    assert.match(error.reason, /not a whole number of quarters \(3 months\) after the first date "2023-01-01"/);
  });
});

describe('Y grid', () => {
  test('same month, first or same day', () => {
    assert.deepEqual(next('Y', ['2022-01-01', '2023-01-01'], 2), ['2024-01-01', '2025-01-01']);
    assert.deepEqual(next('Y', ['2023-06-15'], 2), ['2024-06-15', '2025-06-15']);
    assert.deepEqual(next('Y', ['2022-12-31', '2023-12-31'], 1), ['2024-12-31']);
  });

  test('a Feb 29 series keeps to the month end', () => {
    assert.deepEqual(steps('Y', ['2020-02-29', '2021-02-28', '2022-02-28']), [0, 1, 2]);
    assert.deepEqual(next('Y', ['2020-02-29', '2021-02-28', '2022-02-28'], 2), ['2023-02-28', '2024-02-29']);
    assert.deepEqual(next('Y', ['2096-02-29'], 4), ['2097-02-28', '2098-02-28', '2099-02-28', '2100-02-28']);
    assert.deepEqual(steps('Y', ['2016-02-29', '2020-02-29']), [0, 4]);
  });

  test('a different month is off grid', () => {
    const error = indexError('Y', ['2020-01-01', '2021-02-01']);
    assert.equal(error.position, 1);
    assert.match(error.reason, /not a whole number of years/);
  });

  test('a forecast past 9999 cannot be dated', () => {
    const result = forecastDates(parsed('Y', ['9998-01-01']), 2);
    assert.equal(result.ok, false);
    if (!result.ok) assert.match(result.reason, /2 steps after 9998-01-01 run past the year 9999/);
    assert.deepEqual(next('Y', ['9998-01-01'], 1), ['9999-01-01']);
  });
});

describe('gaps', () => {
  test('gapSummary counts missing steps and finds the first', () => {
    assert.deepEqual(gapSummary([0, 1, 2]), { missing: 0, firstMissingStep: null });
    assert.deepEqual(gapSummary([0, 1, 4, 6]), { missing: 3, firstMissingStep: 2 });
    assert.deepEqual(gapSummary([0]), { missing: 0, firstMissingStep: null });
  });

  test('fillGaps puts values on their steps with null between', () => {
    assert.deepEqual(fillGaps([1, 2, 3], [0, 2, 3]), [1, null, 2, 3]);
    assert.deepEqual(fillGaps(['a', 'b'], [0, 4]), ['a', null, null, null, 'b']);
  });

  test('fillGaps from a later step keeps only the tail', () => {
    assert.deepEqual(fillGaps([1, 2, 3], [0, 2, 5], 2), [2, null, null, 3]);
    assert.deepEqual(fillGaps([1, 2], [0, 1_000_000], 999_998), [null, null, 2]);
  });
});

describe('findContinuationError', () => {
  test('accepts the steps right after the last date, however spelled', () => {
    assert.equal(findContinuationError(parsed('D', ['2024-02-27', '2024-02-28']), ['2024-02-29', '2024-03-01']), null);
    assert.equal(findContinuationError(parsed('MS', ['2023-01-30', '2023-02-28']), ['2023-03-30', '2023-04-30']), null);
    assert.equal(findContinuationError(parsed('H', ['2024-01-01T23:30']), ['2024-01-02T00:30Z', '2024-01-02T01:30:00']), null);
  });

  test('a start after a skipped step is rejected at position 0', () => {
    const error = findContinuationError(parsed('D', ['2024-01-01', '2024-01-02']), ['2024-01-04']);
    assert.deepEqual(error, {
      position: 0, date: '2024-01-04',
      reason: '"2024-01-04" does not continue the D grid: step 1 after the last index date 2024-01-02 is 2024-01-03',
    });
  });

  test('a later hole and a bad format are named', () => {
    assert.equal(findContinuationError(parsed('W', ['2024-01-03']), ['2024-01-10', '2024-01-24'])?.position, 1);
    assert.match(findContinuationError(parsed('MS', ['2023-01-31']), ['2023-02-28', '2023-03-30'])?.reason ?? '', /is 2023-03-31/);
    assert.match(findContinuationError(parsed('D', ['2024-01-01']), ['2024-01-02', 'tomorrow'])?.reason ?? '', /"tomorrow" is not a date/);
  });
});
