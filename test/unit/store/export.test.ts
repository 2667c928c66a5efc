// The journal's CSV export as the save handler runs it: chunks written to the chosen file as
// they come, the same text as the whole-journal CSV, progress up to the total, and nothing
// that looks like a finished file when the export fails half way.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { writeContent } from '../../../main/files';
import { JournalService, type ExportProgress } from '../../../main/services/journal';
import { journalCsv } from '../../../main/store/csv';
import { openDatabase, type Db } from '../../../main/store/database';
import { Journal } from '../../../main/store/journal';
import { SqliteJournalPort } from '../../../main/store/sqlite-port';
import { Profiles } from '../../../main/store/profiles';

const ENTRIES = 2_345;

let dir: string;
let db: Db;
let journal: Journal;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-export-'));
  db = openDatabase(join(dir, 'paydesk.sqlite'));
  journal = new Journal(db);
  const profileId = new Profiles(db).create({
    name: 'P',
    environment: 'sandbox',
    baseUrl: 'http://127.0.0.1:9/paynet',
    endpointId: '1111',
    login: 'shop',
  }).id;
  db.transaction(() => {
    for (let i = 0; i < ENTRIES; i++) {
      journal.begin({
        clientOrderId: `pd-${i}`,
        profileId,
        operator: 'ann',
        operation: 'RETURN',
        targetOrderId: String(9000 + i),
        amountMinor: BigInt(100 + i),
        currency: 'EUR',
        reason: i % 2 ? 'Returned goods' : 'Said "wrong size", sent back',
        fields: {},
      });
    }
  })();
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('CSV export', () => {
  it('writes the same text as the whole CSV, in chunks, with progress to the total', async () => {
    const out = join(dir, 'journal.csv');
    const progress: ExportProgress[] = [];
    await writeContent(out, () =>
      new JournalService(new SqliteJournalPort(db, journal)).csvChunks({}, (p) => progress.push(p)),
    );
    expect(readFileSync(out, 'utf8')).toBe(journalCsv(journal.iterate()));
    expect(readFileSync(out, 'utf8').trimEnd().split('\r\n')).toHaveLength(ENTRIES + 1);
    expect(progress[0]).toEqual({ done: 0, total: ENTRIES });
    expect(progress.at(-1)).toEqual({ done: ENTRIES, total: ENTRIES });
    expect(progress.length).toBeGreaterThan(2);
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('exports only what the filter matches, newest first', async () => {
    const out = join(dir, 'one.csv');
    await writeContent(out, () =>
      new JournalService(new SqliteJournalPort(db, journal)).csvChunks({ orderRef: '9007' }),
    );
    const lines = readFileSync(out, 'utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(',pd-7,');
  });

  it('leaves no file, finished or partial, when the export fails half way', async () => {
    const out = join(dir, 'broken.csv');
    async function* failing() {
      yield 'created_at\r\n';
      await Promise.resolve();
      throw new Error('disk full');
    }
    await expect(writeContent(out, failing)).rejects.toThrow('disk full');
    expect(existsSync(out)).toBe(false);
    expect(existsSync(`${out}.partial`)).toBe(false);
  });
});
