// The journal's CSV export as the save handler runs it: chunks written to the chosen file as
// they come, the same text as the whole-journal CSV, progress up to the total, and nothing
// that looks like a finished file when the export fails half way.

import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { writeContent } from '../../../main/files';
import { JournalService, type ExportProgress } from '../../../main/services/journal';
import { journalCsv } from '../../../main/store/journal/csv';
import { countInPieces } from '../../../main/store/sqlite/journal-export';
import { openDatabase, type Db } from '../../../main/store/sqlite/database';
import { Journal } from '../../../main/store/sqlite/journal';
import { SqliteJournalPort } from '../../../main/store/sqlite/journal-port';
import { Profiles } from '../../../main/store/sqlite/profiles';

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
  it('writes chunks of any size in order, some larger than one write and many smaller', async () => {
    const out = join(dir, 'sizes.csv');
    // Sizes around the writer's 1 MiB buffers: under, exactly, across and several times over.
    const sizes = [1, 1_048_575, 1, 1_048_576, 3_000_001, 0, 17, 524_288, 524_288, 2_097_153];
    const chunks = sizes.map((size, i) => {
      const bytes = new Uint8Array(size);
      for (let at = 0; at < size; at++) bytes[at] = (at * 31 + i * 7) % 251;
      return bytes;
    });
    await writeContent(out, async function* () {
      for (const [i, chunk] of chunks.entries()) {
        yield i % 3 === 2 ? Buffer.from(chunk) : chunk;
        await Promise.resolve();
      }
      yield 'the end';
    });
    expect(readFileSync(out).equals(Buffer.concat([...chunks, Buffer.from('the end')]))).toBe(true);
  });

  it('writes the same text as the whole CSV, in chunks, with progress to the total', async () => {
    const out = join(dir, 'journal.csv');
    const progress: ExportProgress[] = [];
    let totals: unknown;
    const port = new SqliteJournalPort(db, journal);
    await writeContent(out, () =>
      new JournalService(port).csvChunks(
        {},
        (p) => progress.push(p),
        (t) => (totals = t),
      ),
    );
    expect(readFileSync(out, 'utf8')).toBe(await journalCsv(journal.iterate()));
    // The totals of the lines written, as the Journal screen totals the same entries.
    expect(totals).toEqual(await port.totals({}));
    expect(readFileSync(out, 'utf8').trimEnd().split('\r\n')).toHaveLength(ENTRIES + 1);
    expect(progress[0]).toEqual({ done: 0, total: ENTRIES });
    expect(progress.at(-1)).toEqual({ done: ENTRIES, total: ENTRIES });
    expect(progress.length).toBeGreaterThan(2);
    expect(readdirSync(dir).filter((f) => f.endsWith('.partial'))).toEqual([]);
  });

  it('writes long lines and any characters the same, in a non-UTC zone across a summer-time change', async () => {
    const zone = process.env.TZ;
    process.env.TZ = 'Europe/Berlin';
    try {
      // Notes longer than a chunk's first size, in characters of one to four UTF-8 bytes, in
      // entries deep inside a chunk and at its start (1,000 entries per chunk, newest first).
      const notes = ['é€😀x'.repeat(40_000), '=SUM(A1)', 'line\r\nbreak, "quoted"', '\ud800 alone'];
      const setNote = db.prepare('UPDATE journal SET note = ? WHERE id = ?');
      for (const [i, id] of [1_500, 1_497, 2_345, 345, 346].entries()) {
        setNote.run(notes[i % notes.length], id);
      }
      journal.begin({
        clientOrderId: 'pd-yen',
        profileId: journal.get('pd-0')!.profileId,
        operator: 'ann',
        operation: 'RETURN',
        targetOrderId: '7000',
        amountMinor: 1n,
        currency: 'JPY',
        fields: {},
      });
      // Times on both sides of Berlin's change to summer time, stored as the journal stores them.
      const update = db.prepare('UPDATE journal SET created_at = ?, final_at = ? WHERE id = ?');
      const start = Date.parse('2026-03-28T20:00:00.000Z');
      db.transaction(() => {
        for (let id = 1; id <= ENTRIES + 1; id++) {
          const at = new Date(start + id * 47_113).toISOString();
          update.run(at, id % 3 ? at : null, id);
        }
      })();
      const out = join(dir, 'long.csv');
      await writeContent(out, () =>
        new JournalService(new SqliteJournalPort(db, journal)).csvChunks({}),
      );
      const text = readFileSync(out, 'utf8');
      expect(text).toBe(await journalCsv(journal.iterate()));
      expect(text).toContain('2026-03-29T01:59:');
      expect(text).toContain('2026-03-29T03:00:');
      expect(text).toContain(`,${'é€😀x'.repeat(40_000)},`);
      expect(text).toContain(',1,JPY,');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('writes cells a spreadsheet would run as a formula, fullwidth ones too, as text', async () => {
    // Some spreadsheets read the fullwidth ＝ ＋ － ＠ as = + - @ and run the cell.
    const cells = ['=1+1', '\uFF1DHYPERLINK("http://evil")', '\uFF0B1', '\uFF0D1', '\uFF20SUM(A1)'];
    const setNote = db.prepare('UPDATE journal SET note = ?, reason = ? WHERE id = ?');
    cells.forEach((cell, i) => setNote.run(cell, `lone\r${cell}\nbreaks`, i + 1));
    const out = join(dir, 'formulas.csv');
    await writeContent(out, () =>
      new JournalService(new SqliteJournalPort(db, journal)).csvChunks({}),
    );
    const [header = [], ...rows] = parse(readFileSync(out, 'utf8'));
    expect(rows).toHaveLength(ENTRIES);
    const oldest = rows.slice(-cells.length).reverse();
    const column = (name: string) => oldest.map((row) => row[header.indexOf(name)]);
    expect(column('note')).toEqual(cells.map((cell) => `'${cell}`));
    expect(column('reason')).toEqual(cells.map((cell) => `lone\r${cell}\nbreaks`));
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

  it('reads a filtered export by ranges of ids: no batch gathers and sorts the matches again', async () => {
    // Every statement the export prepares, on whichever connection (it reads on its own).
    const prepare = vi.spyOn(Database.prototype, 'prepare');
    const out = join(dir, 'dates.csv');
    const filter = { from: '2000-01-01', to: '2100-01-01' };
    let prepared: string[];
    try {
      await writeContent(out, () =>
        new JournalService(new SqliteJournalPort(db, journal)).csvChunks(filter),
      );
    } finally {
      prepared = prepare.mock.calls.map(([sql]) => sql);
      prepare.mockRestore();
    }
    const reads = prepared.filter((sql) => /FROM journal\b/.test(sql) && /ORDER BY/.test(sql));
    expect(reads.length).toBeGreaterThan(0);
    for (const sql of reads) {
      // The plan does not depend on the values: each named one is bound to 0.
      const names = [...sql.matchAll(/@(\w+)/g)].map((match) => match[1] as string);
      const params = Object.fromEntries(names.map((name) => [name, 0]));
      const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[])
        .map((step) => step.detail)
        .join('; ');
      expect(plan, sql).not.toMatch(/TEMP B-TREE/);
    }
    const lines = readFileSync(out, 'utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(ENTRIES + 1);
    expect(lines[1]).toContain(`,pd-${ENTRIES - 1},`);
    expect(lines[ENTRIES]).toContain(',pd-0,');
  });

  it('writes the journal as it was when the export started, whatever is written meanwhile', async () => {
    const before = await journalCsv(journal.iterate());
    const out = join(dir, 'snapshot.csv');
    const service = new JournalService(new SqliteJournalPort(db, journal));
    const progress: ExportProgress[] = [];
    let chunks = 0;
    // The app goes on while the file is written: after the first lines, a new entry, and an
    // answer to one of the oldest entries (read in the export's last chunk).
    async function* meanwhile() {
      for await (const chunk of service.csvChunks({}, (p) => progress.push(p))) {
        yield chunk;
        if (++chunks === 2) {
          journal.begin({
            clientOrderId: 'pd-new',
            profileId: journal.get('pd-0')!.profileId,
            operator: 'bob',
            operation: 'RETURN',
            targetOrderId: '8000',
            amountMinor: 5n,
            currency: 'EUR',
            fields: {},
          });
          journal.finish('pd-3', { status: 'approved', orderId: '777003' });
        }
      }
    }
    await writeContent(out, meanwhile);
    expect(chunks).toBeGreaterThan(3);
    expect(readFileSync(out, 'utf8')).toBe(before);
    expect(progress.at(-1)).toEqual({ done: ENTRIES, total: ENTRIES });
    // The next export sees both.
    const next = join(dir, 'next.csv');
    await writeContent(next, () => service.csvChunks({}));
    expect(readFileSync(next, 'utf8')).toBe(await journalCsv(journal.iterate()));
    expect(readFileSync(next, 'utf8')).toContain(',pd-new,');
    expect(readFileSync(next, 'utf8')).toMatch(/,pd-3,777003,.*,final,approved,/);
  });

  it('lets go of the journal when the file cannot be written half way', async () => {
    const out = join(dir, 'full.csv');
    const service = new JournalService(new SqliteJournalPort(db, journal));
    async function* diskFull() {
      let chunks = 0;
      for await (const chunk of service.csvChunks({})) {
        yield chunk;
        if (++chunks === 2) throw new Error('No space left on device');
      }
    }
    await expect(writeContent(out, diskFull)).rejects.toThrow('No space left on device');
    expect(readdirSync(dir).filter((f) => f.includes('full.csv'))).toEqual([]);
    // Nothing still reads the journal: a new entry is written, and the whole write-ahead log
    // goes into the database file (a reader left open would keep it from being emptied).
    journal.begin({
      clientOrderId: 'pd-after',
      profileId: journal.get('pd-0')!.profileId,
      operator: 'ann',
      operation: 'RETURN',
      targetOrderId: '8001',
      amountMinor: 7n,
      currency: 'EUR',
      fields: {},
    });
    expect(db.pragma('wal_checkpoint(TRUNCATE)')).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
  });

  it('exports a journal moved away from its folder while the app has it open', async () => {
    renameSync(join(dir, 'paydesk.sqlite'), join(dir, 'moved.sqlite'));
    const out = join(dir, 'moved.csv');
    await writeContent(out, () =>
      new JournalService(new SqliteJournalPort(db, journal)).csvChunks({}),
    );
    expect(readFileSync(out, 'utf8')).toBe(await journalCsv(journal.iterate()));
  });

  it('says what is wrong with the file when the journal cannot be read', async () => {
    db.pragma('wal_checkpoint(TRUNCATE)');
    // Most pages are overwritten on disk, as a failing disk would; the first ones (the schema)
    // are left, so the file still opens.
    const file = join(dir, 'paydesk.sqlite');
    const size = statSync(file).size;
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(size - 16_384, 0x5a), 0, size - 16_384, 16_384);
    closeSync(fd);
    const out = join(dir, 'damaged.csv');
    await expect(
      writeContent(out, () => new JournalService(new SqliteJournalPort(db, journal)).csvChunks({})),
    ).rejects.toThrow(/^Paydesk’s database at .*paydesk\.sqlite is damaged/);
    expect(readdirSync(dir).filter((f) => f.includes('damaged.csv'))).toEqual([]);
  });

  it('counts the whole journal in pieces to the exact number of entries, whatever gaps the ids have', async () => {
    // Entries removed here and there, and one written with an id far above the others.
    db.prepare('DELETE FROM journal WHERE id % 7 = 3 OR id BETWEEN 1000 AND 1100').run();
    db.prepare(
      `INSERT INTO journal (id, client_orderid, profile_id, operator, operation, summary, state,
         created_at, updated_at)
       SELECT 9000000000000000, 'pd-far', profile_id, operator, operation, summary, state,
         created_at, updated_at FROM journal WHERE id = 1`,
    ).run();
    const entries = Number(db.prepare('SELECT COUNT(*) FROM journal').pluck().get());
    expect(entries).toBe(ENTRIES - 335 - 101 + 14 + 1);
    for (const piece of [1, 100, 333, 5_000]) {
      expect(await countInPieces(db, piece, 0)).toBe(entries);
    }
    expect(await countInPieces(db)).toBe(entries); // at once
    db.prepare('DELETE FROM journal').run();
    expect(await countInPieces(db)).toBe(0);
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
