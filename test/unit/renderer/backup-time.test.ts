// A backup's time on Backups and on the journal's stop reads as every other time on the screens:
// local, with its offset, never "HH:MM UTC" beside "HH:MM:SS +05:30".

import { afterEach, beforeEach, expect, it } from 'vitest';

import { backupTime } from '../../../renderer/src/screens/settings/BackupsScreen';

let zone: string | undefined;
beforeEach(() => {
  zone = process.env.TZ;
  process.env.TZ = 'Asia/Kolkata';
});
afterEach(() => {
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

it("says when a backup was taken in the desk's local time with its offset", () => {
  expect(backupTime('2026-03-14T08:48:00.000Z')).toBe('2026-03-14 14:18:00 +05:30');
});
