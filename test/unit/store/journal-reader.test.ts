// The journal's reads on worker threads (main/store/sqlite/journal-reader.ts): a large journal's
// pages, totals and daily close come from the workers, and are what the main thread reads
// itself, pages in a lane of their own; a page after a write shows it; a worker that dies
// mid-read, a read that fails there, a closed reader and a connection inside a transaction all
// give the main thread's answer (or its error); the main thread stays free while the workers
// read; an idle worker ends.

import { once } from 'node:events';
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { JournalFilter } from '../../../main/store/journal/filter';
import type { SummaryQuery } from '../../../main/store/journal/summary';
import { openDatabase, type Db } from '../../../main/store/sqlite/database';
import { Journal } from '../../../main/store/sqlite/journal';
import { SqliteJournalPort } from '../../../main/store/sqlite/journal-port';
import type { Lane, ReaderOptions } from '../../../main/store/sqlite/journal-reader';
import { summarise } from '../../../main/store/sqlite/reports';
import { profilesNamed } from '../../support/profiles';

const ENTRIES = 2_000;
const DAY_MS = 86_400_000;
const NEWEST = Date.parse('2026-10-25T12:00:00.000Z');

let dir: string;
let db: Db;
let ports: SqliteJournalPort[];
let north: string;
let south: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-journal-reader-'));
  db = openDatabase(join(dir, 'paydesk.sqlite'));
  ports = [];
  [north, south] = profilesNamed(db, ['North', 'South']).map((p) => p.id) as [string, string];
  fill();
});

afterEach(async () => {
  for (const port of ports) await port.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** ENTRIES refunds, captures and voids over 100 days, two profiles, three currencies. */
function fill(): void {
  const insert = db.prepare(
    `INSERT INTO journal (client_orderid, profile_id, operator, operation, action, target_orderid,
       orderid, amount_minor, currency, summary, state, status, created_at, updated_at, final_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, '{}', ?, ?, ?, ?, ?)`,
  );
  const kinds = [
    ['RETURN', 'partial-refund'],
    ['CAPTURE', 'capture'],
    ['VOID', 'void'],
  ] as const;
  const statuses = ['approved', 'declined', null, 'approved'];
  db.transaction(() => {
    for (let i = 0; i < ENTRIES; i++) {
      const at = new Date(NEWEST - 100 * DAY_MS + Math.floor((100 * DAY_MS * i) / ENTRIES));
      const [operation, action] = kinds[i % kinds.length]!;
      const status = statuses[i % statuses.length] ?? null;
      insert.run(
        `pd-${i}`,
        i % 3 === 0 ? north : south,
        i % 2 === 0 ? 'ann' : 'bob',
        operation,
        action,
        String(9_000_000 + i),
        status === null ? null : String(7_000_000 + i),
        BigInt(100 + ((i * 7919) % 100_000)),
        ['EUR', 'JPY', 'KWD'][i % 3],
        status === null ? 'acknowledged' : 'final',
        status,
        at.toISOString(),
        at.toISOString(),
        status === null ? null : at.toISOString(),
      );
    }
  })();
}

/** A port whose long reads go to a worker from 1,000 entries on, and what it told. */
function portOf(options: ReaderOptions = {}) {
  const told = { alone: [] as string[], workers: [] as Worker[], lanes: [] as Lane[] };
  const port = new SqliteJournalPort(db, new Journal(db), {
    reader: {
      from: 1_000,
      onAlone: (why) => told.alone.push(why),
      onWorker: (worker, lane) => {
        told.workers.push(worker);
        told.lanes.push(lane);
      },
      ...options,
    },
  });
  ports.push(port);
  return { port, told };
}

const filters = (): JournalFilter[] => [
  {},
  { status: 'approved' },
  { profileId: north },
  { from: '2026-09-01', to: '2026-10-01', currency: 'EUR' },
];

function days(count: number): SummaryQuery['days'] {
  return Array.from({ length: count }, (_, i) => {
    const from = new Date(NEWEST - (count - i) * DAY_MS);
    const to = new Date(from.getTime() + DAY_MS);
    return { day: from.toISOString().slice(0, 10), from: from.toISOString(), to: to.toISOString() };
  });
}

describe('long reads of a large journal', () => {
  it('reads totals and the daily close on the worker, the same as the main thread reads them', async () => {
    const { port, told } = portOf();
    const journal = new Journal(db);
    for (const filter of filters()) {
      const totals = await port.totals(filter);
      expect(totals, JSON.stringify(filter)).toEqual(journal.totals(filter));
      expect(totals.currencies.length).toBeGreaterThan(0);
    }
    const query = { days: days(30), profileId: south };
    const lines = await port.summary(query);
    expect(lines).toEqual(summarise(db, query));
    expect(lines.length).toBeGreaterThan(0);
    expect(told.workers).toHaveLength(1);
    expect(told.alone).toEqual([]);
  });

  it("reads the list's pages in a lane of their own, the same pages the main thread reads", async () => {
    const { port, told } = portOf();
    const journal = new Journal(db);
    for (const filter of filters())
      for (const [offset, limit] of [
        [0, 100],
        [700, 50],
        [1_990, 100],
      ] as const)
        expect(await port.search(filter, offset, limit), JSON.stringify(filter)).toEqual(
          journal.search(filter, offset, limit),
        );
    // A page and the totals asked at once: each lane its own worker.
    const [page, totals] = await Promise.all([port.search({}, 0, 10), port.totals({})]);
    expect(page.rows).toHaveLength(10);
    expect(totals).toEqual(journal.totals({}));
    expect([...told.lanes].sort()).toEqual(['list', 'long']);
    expect(told.alone).toEqual([]);
  });

  it('sees what the main thread committed just before', async () => {
    const { port } = portOf();
    const before = await port.totals({ currency: 'EUR', status: 'approved' });
    const pageBefore = await port.search({ currency: 'EUR', status: 'approved' }, 0, 1);
    db.prepare(
      `INSERT INTO journal (client_orderid, profile_id, operator, operation, action, target_orderid,
         orderid, amount_minor, currency, summary, state, status, created_at, updated_at, final_at)
       VALUES ('pd-new', @north, 'ann', 'RETURN', 'partial-refund', '1', '2', 12345, 'EUR', '{}',
         'final', 'approved', @at, @at, @at)`,
    ).run({ north, at: new Date(NEWEST).toISOString() });
    const after = await port.totals({ currency: 'EUR', status: 'approved' });
    const newest = await port.search({ currency: 'EUR', status: 'approved' }, 0, 1);
    expect(newest.rows[0]?.clientOrderId).toBe('pd-new');
    expect(newest.total).toBe(pageBefore.total + 1);
    const eur = (t: typeof before) => t.currencies.find((c) => c.currency === 'EUR')!.approved;
    expect(eur(after)).toEqual({
      count: eur(before).count + 1,
      minor: eur(before).minor + 12_345n,
    });
  });

  it('keeps the main thread free while the worker reads', async () => {
    const { port, told } = portOf();
    await port.totals({}); // the worker started and warm
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    try {
      // Many reads queued on the worker at once; the main thread's timer turns meanwhile.
      const all = await Promise.all(
        filters()
          .flatMap((f) => Array.from({ length: 10 }, () => f))
          .map((f) => port.totals(f)),
      );
      expect(all).toHaveLength(40);
    } finally {
      clearInterval(ticking);
    }
    expect(turns).toBeGreaterThan(0);
    expect(told.alone).toEqual([]);
  });

  it('answers on the main thread when the worker ends in the middle of reads', async () => {
    const { port, told } = portOf();
    await port.totals({});
    const [worker] = told.workers;
    const asked = Promise.all(filters().map((f) => port.totals(f)));
    await worker!.terminate();
    const journal = new Journal(db);
    expect(await asked).toEqual(filters().map((f) => journal.totals(f)));
    // The next read starts another worker.
    expect(await port.totals({ status: 'declined' })).toEqual(
      journal.totals({ status: 'declined' }),
    );
    expect(told.workers).toHaveLength(2);
  });

  it('reads on the main thread, and stops starting workers, when a worker cannot open the journal', async () => {
    const { port, told } = portOf();
    const file = db.name;
    const away = `${file}.away`;
    // Moved while the app's connection holds it open: a new connection finds no file.
    renameSync(file, away);
    try {
      const journal = new Journal(db);
      for (let i = 0; i < 4; i++) expect(await port.totals({})).toEqual(journal.totals({}));
      for (let i = 0; i < 3; i++)
        expect(await port.search({}, 0, 10)).toEqual(journal.search({}, 0, 10));
      // Two tries per lane, then no more.
      expect(told.lanes.filter((l) => l === 'long')).toHaveLength(2);
      expect(told.lanes.filter((l) => l === 'list')).toHaveLength(2);
      expect(told.alone.join()).toMatch(/the worker (failed|ended)/);
    } finally {
      renameSync(away, file);
    }
  });

  it("gives the main thread's own error when a read fails on the worker", async () => {
    const { port, told } = portOf();
    await expect(port.totals({ amountMin: 'twelve' })).rejects.toThrow(
      "The journal filter's smallest amount (twelve) is not an amount",
    );
    expect(told.alone.join()).toContain('the read failed on the worker');
    await expect(port.summary({ days: [] })).rejects.toThrow('A summary needs at least one day.');
  });

  it('reads a smaller journal, and a connection inside a transaction, on the main thread', async () => {
    const small = portOf({ from: ENTRIES + 1 });
    expect(await small.port.totals({})).toEqual(new Journal(db).totals({}));
    expect(small.told.workers).toEqual([]);

    const { port, told } = portOf();
    db.exec('BEGIN');
    try {
      db.prepare(`UPDATE journal SET status = 'declined' WHERE status = 'approved'`).run();
      // Its own uncommitted writes, which a worker's connection would not see.
      const totals = await port.totals({ status: 'approved' });
      expect(totals.currencies).toEqual([]);
    } finally {
      db.exec('ROLLBACK');
    }
    expect(told.workers).toEqual([]);
  });

  it('ends its worker when closed, and reads on the main thread after', async () => {
    const { port, told } = portOf();
    await port.totals({});
    const ended = once(told.workers[0]!, 'exit');
    await port.close();
    await ended;
    expect(await port.totals({})).toEqual(new Journal(db).totals({}));
    expect(told.workers).toHaveLength(1);
  });

  it('ends an idle worker', async () => {
    const { port, told } = portOf({ idleMs: 20 });
    await port.totals({});
    await once(told.workers[0]!, 'exit');
    expect(await port.totals({})).toEqual(new Journal(db).totals({}));
    expect(told.workers).toHaveLength(2);
  });
});
