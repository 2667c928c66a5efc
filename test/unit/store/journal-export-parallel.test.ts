// The CSV export shared with a worker thread (main/store/sqlite/journal-export-parallel.ts):
// the same bytes and totals as the export on the main thread alone, for filters that match
// everything, a part, entries crowded at one end and none; one snapshot even when the journal is
// written while the worker starts (the worker is then dropped); the export finished on one
// thread when the worker cannot open the journal or dies half way; small journals and in-memory
// databases never start one; an export given up ends its worker.

import { once } from 'node:events';
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { CsvChunk } from '../../../main/store/journal/csv';
import type { JournalFilter } from '../../../main/store/journal/filter';
import type { JournalTotals } from '../../../main/store/journal/totals';
import { openDatabase, type Db } from '../../../main/store/sqlite/database';
import {
  snapshotCsvChunks,
  startExportThread,
  type ExportOptions,
} from '../../../main/store/sqlite/journal-export';
import { exportThreadsRunning } from '../../../main/store/sqlite/journal-export-thread';
import type { Shared } from '../../../main/store/sqlite/journal-export-parallel';
import { profilesNamed } from '../../support/profiles';

/** Entries: enough for sixty batches of BATCH, so both threads make many. */
const ENTRIES = 3_000;
const BATCH = 50;
/** The fewest entries shared with a worker in these tests (the app's is larger). */
const PARALLEL_FROM = 50;
const DAY_MS = 86_400_000;

let dir: string;
let file: string;
let db: Db;
let names: Map<string, string>;
const profileName = (id: string) => names.get(id) ?? `Removed ${id.slice(0, 4)}`;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-export-parallel-'));
  file = join(dir, 'paydesk.sqlite');
  db = openDatabase(file);
  const made = profilesNamed(db, ['Shop, "North"', '=Shop South', 'Zürich — 東京']);
  names = new Map(made.map((p) => [p.id, p.name]));
  fill(made.map((p) => p.id));
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** ENTRIES entries over two years, newest last, of every kind the export writes differently. */
function fill(profileIds: string[]): void {
  const insert = db.prepare(
    `INSERT INTO journal (client_orderid, profile_id, operator, operation, action, target_orderid,
       orderid, amount_minor, currency, reason, note, email, summary, state, status, created_at,
       updated_at, final_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '{}', ?, ?, ?, ?, ?)`,
  );
  const operations = ['RETURN', 'CAPTURE', 'VOID', 'RETURN'];
  const actions = ['partial-refund', 'capture', 'void', null];
  const currencies = ['EUR', 'JPY', 'KWD', 'EUR', null];
  const statuses = ['approved', 'declined', 'approved', null, 'error'];
  const reasons = ['Damaged', 'Said "wrong size", sent back', 'line\r\nbreak', '+1 call', null];
  const newest = Date.parse('2026-10-25T02:30:00.000Z');
  db.transaction(() => {
    for (let i = 0; i < ENTRIES; i++) {
      const at = new Date(newest - 730 * DAY_MS + Math.floor((730 * DAY_MS * (i + 1)) / ENTRIES));
      const currency = currencies[i % currencies.length] ?? null;
      const status = statuses[i % statuses.length] ?? null;
      insert.run(
        `pd-${i}`,
        profileIds[i % 7 === 0 ? 2 : i % 2] ?? '',
        i % 3 === 0 ? 'ann' : 'bob',
        operations[i % operations.length],
        actions[i % actions.length],
        String(9_000_000 + i),
        status === null ? null : String(7_000_000 + i),
        currency === null ? null : BigInt(1 + ((i * 7919) % 1_000_000)),
        currency,
        reasons[i % reasons.length],
        i % 11 === 0 ? `note ${'é€😀'.repeat(i % 5)}` : null,
        i % 5 === 0 ? `customer${i}@example.com` : null,
        status === null ? 'acknowledged' : 'final',
        status,
        at.toISOString(),
        at.toISOString(),
        status === null ? null : new Date(at.getTime() + 1_234).toISOString(),
      );
    }
  })();
}

interface Exported {
  bytes: Buffer;
  entries: number;
  /** With `release`: the main thread's buffers its chunks came in, and chunks sent back. */
  mainBuffers: Set<ArrayBufferLike>;
  backToWorker: number;
  totals?: JournalTotals;
  shared?: Shared;
  worker?: Worker;
}

/**
 * The filter's export as a file would hold it. Shared, the first chunk after the count is asked
 * for only once the worker has started and said its snapshot is taken, so it has slices to make
 * however fast the main thread is; `onWorker` runs as soon as it is started.
 */
async function exported(
  filter: JournalFilter,
  options: ExportOptions & { alone?: boolean; release?: boolean } = {},
): Promise<Exported> {
  const result: Partial<Exported> = {};
  const mainBuffers = new Set<ArrayBufferLike>();
  let backToWorker = 0;
  let started: Promise<unknown> | undefined;
  const parts: Buffer[] = [];
  let entries = 0;
  const chunks = snapshotCsvChunks(db, filter, BATCH, profileName, {
    parallelFrom: options.alone ? Infinity : PARALLEL_FROM,
    ...options,
    onWorker(worker) {
      result.worker = worker;
      started = once(worker, 'message');
      options.onWorker?.(worker);
    },
    onShared: (shared) => (result.shared = shared),
  });
  for await (const chunk of chunks as AsyncIterable<CsvChunk>) {
    if (chunk.total !== undefined && !options.alone) {
      await vi.waitFor(() => expect(started).toBeDefined(), { timeout: 20_000 });
      await started?.catch(() => undefined);
    }
    parts.push(Buffer.from(chunk.content));
    if (options.release && chunk.release && typeof chunk.content !== 'string') {
      const buffer = chunk.content.buffer;
      chunk.release();
      // A buffer moved back to the worker is detached here; the main thread's stays.
      if (buffer.byteLength === 0) backToWorker++;
      else mainBuffers.add(buffer);
    }
    entries += chunk.entries;
    if (chunk.totals) result.totals = chunk.totals;
  }
  return { ...result, bytes: Buffer.concat(parts), entries, mainBuffers, backToWorker };
}

const FILTERS: [string, JournalFilter][] = [
  ['everything', {}],
  ['approved', { status: 'approved' }],
  ['captures in JPY', { operation: 'CAPTURE', currency: 'jpy' }],
  // Entries crowded at the newest end: slices of ids there hold many batches each.
  ['the last 30 days', { from: '2026-09-25T00:00:00.000Z' }],
  ['an e-mail', { email: 'customer5' }],
  ['nothing', { status: 'no-such-status' }],
];

describe('the CSV export shared with a worker thread', () => {
  it.each(FILTERS)(
    'writes the same bytes and totals as the main thread alone: %s',
    async (_name, filter) => {
      const alone = await exported(filter, { alone: true });
      const shared = await exported(filter);
      expect(shared.bytes.equals(alone.bytes)).toBe(true);
      expect(shared.totals).toEqual(alone.totals);
      expect(shared.entries).toBe(alone.entries);
      expect(shared.shared?.alone).toBeUndefined();
      // The worker made a part of every export that has rows for it to make.
      if (alone.entries >= 2 * BATCH) expect(shared.shared?.workerEntries).toBeGreaterThan(0);
      expect(alone.shared).toBeUndefined(); // the main thread alone: no worker started
    },
  );

  it('makes its chunks again in the buffers of chunks released once copied: the same bytes', async () => {
    const kept = await exported({}, { alone: true });
    expect(kept.entries / BATCH).toBeGreaterThanOrEqual(50);

    // Alone, every chunk is made in the one buffer the last one gave back.
    const alone = await exported({}, { alone: true, release: true });
    expect(alone.bytes.equals(kept.bytes)).toBe(true);
    expect(alone.mainBuffers.size).toBe(1);

    // Shared, the worker's go back to it, and the main thread's own are a few (those it holds
    // ahead while the worker is behind), not one per chunk.
    const shared = await exported({}, { release: true });
    expect(shared.bytes.equals(kept.bytes)).toBe(true);
    expect(shared.totals).toEqual(kept.totals);
    expect(shared.shared?.workerEntries).toBeGreaterThan(0);
    expect(shared.backToWorker).toBe(Math.ceil(shared.shared!.workerEntries / BATCH));
    expect(shared.mainBuffers.size).toBeLessThanOrEqual(5);
  });

  it('writes the first snapshot alone when the app wrote while the worker started', async () => {
    const before = await exported({}, { alone: true });
    const shared = await exported(
      {},
      {
        onWorker() {
          // The worker thread is not running yet: both writes fall between the two snapshots.
          db.prepare(`UPDATE journal SET status = 'approved', state = 'final' WHERE id = ?`).run(
            ENTRIES - 1,
          );
          db.prepare(
            `INSERT INTO journal (client_orderid, profile_id, operator, operation, target_orderid,
               summary, state, created_at, updated_at)
             SELECT 'pd-newer', profile_id, 'ann', 'VOID', '1', '{}', 'sending', created_at,
               created_at FROM journal WHERE id = 1`,
          ).run();
        },
      },
    );
    expect(shared.shared?.alone).toMatch(/written while the worker started/);
    expect(shared.shared?.workerEntries).toBe(0);
    // No entry newer than the export's snapshot, no row in a state it reached after it.
    expect(shared.bytes.equals(before.bytes)).toBe(true);
    expect(shared.totals).toEqual(before.totals);
    const after = await exported({}, { alone: true });
    expect(after.bytes.toString()).toContain('pd-newer');
  });

  it('notices another connection’s commit between the snapshots, too', async () => {
    const before = await exported({}, { alone: true });
    const other = openDatabase(file);
    try {
      const shared = await exported(
        {},
        {
          onWorker: () =>
            void other.prepare(`UPDATE journal SET note = 'changed' WHERE id = ?`).run(ENTRIES),
        },
      );
      expect(shared.shared?.alone).toMatch(/written while the worker started/);
      expect(shared.bytes.equals(before.bytes)).toBe(true);
    } finally {
      other.close();
    }
  });

  it('finishes on the main thread when the worker cannot open the journal', async () => {
    const alone = await exported({}, { alone: true });
    const away = join(dir, 'away.sqlite');
    try {
      const shared = await exported(
        {},
        // Moved while the export's own connections hold it open: the worker finds no file.
        { onWorker: () => renameSync(file, away) },
      );
      expect(shared.shared?.alone).toMatch(/the worker (failed|ended)/);
      expect(shared.shared?.workerEntries).toBe(0);
      expect(shared.bytes.equals(alone.bytes)).toBe(true);
    } finally {
      renameSync(away, file);
    }
  });

  it('finishes on the main thread, from where the worker stopped, when it dies half way', async () => {
    // The last 120 days: the newest slices of ids hold several batches each, so the worker dies
    // inside one, which the main thread goes on with from the worker's last row.
    const filter = { from: '2026-06-27T00:00:00.000Z' };
    const alone = await exported(filter, { alone: true });
    const shared = await exported(filter, {
      onWorker(worker) {
        worker.on('message', (message: { type: string }) => {
          if (message.type === 'chunk') void worker.terminate();
        });
      },
    });
    expect(shared.shared?.alone).toMatch(/the worker ended/);
    expect(shared.shared?.workerEntries).toBeGreaterThan(0);
    expect(shared.shared?.workerEntries).toBeLessThan(alone.entries / 2);
    expect(shared.bytes.equals(alone.bytes)).toBe(true);
    expect(shared.totals).toEqual(alone.totals);
  });

  it('ends the worker when the export is given up', async () => {
    let worker: Worker | undefined;
    const chunks = snapshotCsvChunks(db, {}, BATCH, profileName, {
      parallelFrom: PARALLEL_FROM,
      onWorker: (w) => (worker = w),
    });
    let taken = 0;
    for await (const chunk of chunks) {
      if (chunk.total !== undefined) {
        await vi.waitFor(() => expect(worker).toBeDefined(), { timeout: 20_000 });
      }
      if (++taken === 5) break;
    }
    const exit = once(worker as Worker, 'exit');
    await expect(Promise.race([exit, wait(10_000)])).resolves.toBeDefined();
  });

  it('uses a worker started before the export (while the file is chosen) and ends it after', async () => {
    const alone = await exported({}, { alone: true });
    let worker: Worker | undefined;
    const thread = startExportThread(db, {
      parallelFrom: PARALLEL_FROM,
      onWorker: (w) => (worker = w),
    });
    expect(thread).toBeDefined();
    // The person is in the dialog: the worker is up before the export starts.
    await vi.waitFor(() => expect(worker).toBeDefined(), { timeout: 20_000 });
    await wait(200);
    const shared = await exported({}, { thread });
    expect(shared.bytes.equals(alone.bytes)).toBe(true);
    expect(shared.totals).toEqual(alone.totals);
    expect(shared.shared?.alone).toBeUndefined();
    expect(shared.shared?.workerEntries).toBeGreaterThan(0);
    await vi.waitFor(() => expect(exportThreadsRunning()).toBe(0), { timeout: 10_000 });
  });

  it('ends a worker started for an export that never comes', async () => {
    const thread = startExportThread(db, { parallelFrom: PARALLEL_FROM, idleMs: 200 });
    expect(thread).toBeDefined();
    await vi.waitFor(() => expect(exportThreadsRunning()).toBe(1), { timeout: 20_000 });
    await vi.waitFor(() => expect(exportThreadsRunning()).toBe(0), { timeout: 10_000 });
    // An export handed the ended thread starts its own and is shared all the same.
    const alone = await exported({}, { alone: true });
    const shared = await exported({}, { thread });
    expect(shared.bytes.equals(alone.bytes)).toBe(true);
    expect(shared.shared?.workerEntries).toBeGreaterThan(0);
  });

  it('starts no worker for a small journal or an in-memory one', async () => {
    let started = 0;
    const onWorker = () => started++;
    // The app's own threshold is above this journal.
    for await (const chunk of snapshotCsvChunks(db, {}, BATCH, profileName, { onWorker })) {
      expect(chunk).toBeDefined();
    }
    // Nor is one started ahead of the export, while the file is chosen.
    expect(startExportThread(db)).toBeUndefined();
    const memory = openDatabase(':memory:');
    try {
      expect(startExportThread(memory, { parallelFrom: 1 })).toBeUndefined();
      for await (const chunk of snapshotCsvChunks(memory, {}, BATCH, profileName, {
        parallelFrom: 1,
        onWorker,
      })) {
        expect(chunk).toBeDefined();
      }
    } finally {
      memory.close();
    }
    expect(started).toBe(0);
  });
});

function wait(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms));
}
