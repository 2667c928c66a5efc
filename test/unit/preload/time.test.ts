// Times with their offset: the CSV's ISO 8601 and the screens' local time say where the desk
// was, so 09:26 in Kolkata is never read as 09:26 UTC.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { journalFilterSchema } from '../../../common/contract';
import {
  isoWithOffset,
  isoWithOffsetByDay,
  localTimeWithOffset,
  parseFilterTime,
} from '../../../common/time';

let zone: string | undefined;
beforeEach(() => {
  zone = process.env.TZ;
});
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

describe('times with their offset', () => {
  it('writes local time and a half-hour offset', () => {
    process.env.TZ = 'Asia/Kolkata';
    expect(isoWithOffset('2026-03-14T03:56:53.120Z')).toBe('2026-03-14T09:26:53.120+05:30');
    expect(localTimeWithOffset('2026-03-14T03:56:53.120Z')).toBe('2026-03-14 09:26:53 +05:30');
  });

  it('writes a negative offset, and +00:00 for UTC', () => {
    process.env.TZ = 'America/New_York';
    expect(isoWithOffset('2026-01-10T12:00:00.000Z')).toBe('2026-01-10T07:00:00.000-05:00');
    process.env.TZ = 'UTC';
    expect(isoWithOffset('2026-01-10T12:00:00.000Z')).toBe('2026-01-10T12:00:00.000+00:00');
  });

  it('leaves text that is not a time as it is', () => {
    expect(isoWithOffset('not a time')).toBe('not a time');
    expect(localTimeWithOffset(null)).toBe('');
  });
});

// The export's shortcut (isoWithOffset twice per UTC day) must write exactly what isoWithOffset
// writes, for every zone: whole-hour, half- and quarter-hour offsets, a 30-minute DST change
// (Lord Howe), offsets with seconds from before standard time (Monrovia, Amsterdam).
const ZONES: [zone: string, from: string][] = [
  ['UTC', '2026-03-28T00:00:00.000Z'],
  ['Europe/Berlin', '2026-03-28T00:00:00.000Z'],
  ['Europe/Berlin', '2026-10-24T00:00:00.000Z'],
  ['America/New_York', '2026-03-07T00:00:00.000Z'],
  ['America/New_York', '2026-10-31T00:00:00.000Z'],
  ['Asia/Kolkata', '2026-03-28T00:00:00.000Z'],
  ['Asia/Kathmandu', '2026-03-28T00:00:00.000Z'],
  ['America/St_Johns', '2026-03-07T00:00:00.000Z'],
  ['Australia/Lord_Howe', '2026-04-04T00:00:00.000Z'],
  ['Australia/Lord_Howe', '2026-10-03T00:00:00.000Z'],
  ['Pacific/Chatham', '2026-04-04T00:00:00.000Z'],
  ['Africa/Monrovia', '1972-01-05T00:00:00.000Z'],
  ['Europe/Amsterdam', '1937-06-29T00:00:00.000Z'],
];

describe('times with their offset, a day at a time (the CSV export)', () => {
  it.each(ZONES)(
    'writes what isoWithOffset writes in %s from %s, through its changes',
    (zone, from) => {
      process.env.TZ = zone;
      const byDay = isoWithOffsetByDay();
      const start = Date.parse(from);
      // Three days in uneven steps (every minute and second comes up), newest first as exported.
      for (let t = start + 3 * 86_400_000; t >= start; t -= 431_357) {
        const iso = new Date(t).toISOString();
        expect(byDay(iso), iso).toBe(isoWithOffset(iso));
      }
    },
  );

  it.each(ZONES)(
    'writes what isoWithOffset writes in %s from %s for two runs of times taking turns',
    (zone, from) => {
      // An export's creation and final times share one cache: the final time is up to days
      // later, on the same day, the next, or across the zone's change.
      process.env.TZ = zone;
      const byDay = isoWithOffsetByDay();
      const start = Date.parse(from);
      let step = 0;
      for (let t = start + 3 * 86_400_000; t >= start; t -= 1_731_113) {
        const later = t + [0, 61_000, 3_600_000, 86_400_000, 2 * 86_400_000 + 7][step++ % 5]!;
        for (const iso of [new Date(t).toISOString(), new Date(later).toISOString()]) {
          expect(byDay(iso), iso).toBe(isoWithOffset(iso));
        }
      }
    },
  );

  it('pins the text across a summer-time change in Berlin and a half-hour one on Lord Howe', () => {
    process.env.TZ = 'Europe/Berlin';
    let byDay = isoWithOffsetByDay();
    expect(
      [
        '2026-03-29T00:59:59.999Z',
        '2026-03-29T01:00:00.000Z',
        '2026-10-25T00:30:00.000Z',
        '2026-10-25T01:30:00.000Z',
      ].map(byDay),
    ).toEqual([
      '2026-03-29T01:59:59.999+01:00',
      '2026-03-29T03:00:00.000+02:00',
      '2026-10-25T02:30:00.000+02:00',
      '2026-10-25T02:30:00.000+01:00',
    ]);
    process.env.TZ = 'Australia/Lord_Howe';
    byDay = isoWithOffsetByDay();
    expect(
      ['2026-04-04T14:59:59.999Z', '2026-04-04T15:00:00.000Z', '2026-04-04T15:45:00.000Z'].map(
        byDay,
      ),
    ).toEqual([
      '2026-04-05T01:59:59.999+11:00',
      '2026-04-05T01:30:00.000+10:30',
      '2026-04-05T02:15:00.000+10:30',
    ]);
  });

  it('writes text in any other shape as isoWithOffset does', () => {
    process.env.TZ = 'Asia/Kolkata';
    const byDay = isoWithOffsetByDay();
    for (const text of [
      '2026-03-14T03:56:53.120Z',
      '',
      'not a time',
      '2026-03-14T03:56:53Z',
      '2026-03-14 03:56:53.120Z',
      '2026-03-14T03:56:53.120z',
      '2026-03-14T03:56:53.120+01:00',
      '2026-03-14T24:00:00.000Z',
      '2026-03-14T03:60:00.000Z',
      '2026-02-30T03:56:53.120Z',
      '2026-13-14T03:56:53.120Z',
      '2026-03-14T03:56:53.120Z',
    ]) {
      expect(byDay(text), text).toBe(isoWithOffset(text));
    }
  });
});

describe("the journal filter's times", () => {
  it("reads a date, or a date and time, without a zone in the desk's time zone", () => {
    process.env.TZ = 'Europe/Berlin';
    expect(parseFilterTime('2026-03-14')?.toISOString()).toBe('2026-03-13T23:00:00.000Z');
    expect(parseFilterTime('2026-07-14T09:30')?.toISOString()).toBe('2026-07-14T07:30:00.000Z');
    expect(parseFilterTime('2026-07-14 09:30:15.5')?.toISOString()).toBe(
      '2026-07-14T07:30:15.500Z',
    );
  });

  it('reads Z or an offset as that instant, wherever the desk is', () => {
    process.env.TZ = 'Asia/Kolkata';
    expect(parseFilterTime('2026-03-14T09:30:00Z')?.toISOString()).toBe('2026-03-14T09:30:00.000Z');
    expect(parseFilterTime('2026-03-14T09:30-05:30')?.toISOString()).toBe(
      '2026-03-14T15:00:00.000Z',
    );
  });

  it('refuses what is not a time, or not a real day, with a sentence that says how to write one', () => {
    for (const value of [
      'yesterday',
      '2026-02-30',
      '2026-13-01',
      '14/03/2026',
      '2026-03-14T24:00',
      "2026-03-14' OR 1=1",
      '',
    ]) {
      expect(parseFilterTime(value), value).toBeUndefined();
      const parsed = journalFilterSchema.safeParse({ from: value });
      expect(parsed.success, value).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(
        "From is not a time: write a date such as 2026-03-14, or a date and time such as 2026-03-14T09:30; without Z or an offset (+01:00) it is read in this desk's time zone.",
      );
    }
    expect(journalFilterSchema.safeParse({ to: '2026-03-14T09:30:00.000Z' }).success).toBe(true);
  });
});
