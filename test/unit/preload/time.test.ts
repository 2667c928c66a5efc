// Times with their offset: the CSV's ISO 8601 and the screens' local time say where the desk
// was, so 09:26 in Kolkata is never read as 09:26 UTC.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { isoWithOffset, localTimeWithOffset } from '../../../preload/time';

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
