// The backups' retention: the newest backup of each of the last 7 days that have one and of
// each of the last 4 weeks, and nothing else in the folder touched; a backup is listed only
// once it is whole (its .partial name is not a backup).

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, expect, it } from 'vitest';

import { listBackups, pruneBackups } from '../../../main/store/sqlite/backup';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const nameAt = (iso: string) => `paydesk-${iso.replace(/[:.]/g, '-')}.sqlite`;

it('keeps 7 daily and 4 weekly backups and leaves other files alone', () => {
  const folder = mkdtempSync(join(tmpdir(), 'paydesk-retention-'));
  dirs.push(folder);
  // Every 4 hours of use for 60 days, ending Friday 2026-11-27.
  const end = Date.parse('2026-11-27T20:00:00.000Z');
  for (let t = end - 60 * 86_400_000; t <= end; t += 4 * 3_600_000) {
    writeFileSync(join(folder, nameAt(new Date(t).toISOString())), 'x');
  }
  writeFileSync(join(folder, 'notes.txt'), 'mine');
  writeFileSync(join(folder, `${nameAt('2026-11-27T21:00:00.000Z')}.partial`), 'half');

  pruneBackups(folder);

  const kept = listBackups(folder).map((b) => b.takenAt);
  expect(kept).toEqual([
    // The newest of each of the last 7 days...
    '2026-11-27T20:00:00.000Z',
    '2026-11-26T20:00:00.000Z',
    '2026-11-25T20:00:00.000Z',
    '2026-11-24T20:00:00.000Z',
    '2026-11-23T20:00:00.000Z',
    '2026-11-22T20:00:00.000Z', // Sunday: also the newest of the week of 16 November
    '2026-11-21T20:00:00.000Z',
    // ...and of each of the 4 weeks (Monday to Sunday; this week's and the 16th's are above).
    '2026-11-15T20:00:00.000Z',
    '2026-11-08T20:00:00.000Z',
  ]);
  expect(readdirSync(folder)).toContain('notes.txt');
  expect(readdirSync(folder).filter((n) => n.endsWith('.partial'))).toHaveLength(1);
});
