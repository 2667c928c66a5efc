// The worker thread of a parallel CSV export (journal-export-thread.ts starts it, possibly before
// its export, while the person chooses the file): it opens the journal read-only and waits for
// its export ('begin'); then it takes its own snapshot, says so, and makes the slices the main
// thread hands it into UTF-8 lines, a batch at a time, each batch sent back as a transferred
// buffer with its rows' totals. It keeps at most AHEAD batches unwritten: the main
// thread says when one is written, so a worker faster than the file holds no more than that.
// Whether its snapshot is the main thread's is decided on the main thread; a worker whose
// snapshot is not is simply ended. Built as its own entry (vite.main.config.ts: export-worker).

import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';

import { csvLineWriter } from '../csv-record';
import { RawCsvChunks } from '../journal/csv';
import { openReadOnly } from './database';
import {
  GroupTally,
  readBatch,
  sliceStatement,
  type ChunkMessage,
  type MainMessage,
  type Slice,
  type WorkerData,
  type WorkerMessage,
  type WorkerStart,
} from './journal-export-slices';

/** Batches sent and not yet written that the worker may hold before it waits. */
const AHEAD = 3;

/** The worker's niceness where a thread has its own (Linux): below the main thread's. */
const NICE = 10;

/**
 * On Linux a thread has a niceness of its own: when other work keeps the cores busy, the
 * worker gives way to the main thread, which keeps answering the window and, alone, would have
 * made the whole export. Elsewhere the worker runs as the main thread does.
 */
function giveWayToTheMainThread(): void {
  if (process.platform !== 'linux') return;
  try {
    // "<pid>/task/<tid>"
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (tid > 0) setPriority(tid, NICE);
  } catch {
    // Left as it is: a worker at the main thread's priority only shares the cores evenly.
  }
}

giveWayToTheMainThread();
const port = parentPort;
if (!port) throw new Error('journal-export-worker runs as a worker thread');
const data = workerData as WorkerData;

const db = openReadOnly(data.file);
db.pragma(`cache_size = ${data.cacheSize}`);

let start: WorkerStart | undefined;
const queue: Slice[] = [];
let unwritten = 0;
let wake: (() => void) | undefined;
/** The export's lines, made into chunks (once it has begun). */
let csv: RawCsvChunks | undefined;
port.on('message', (message: MainMessage) => {
  if (message.type === 'begin') start = message.start;
  else if (message.type === 'slice') queue.push(message.slice);
  else {
    unwritten--;
    // A chunk's buffer back from the main thread, its bytes written: the next chunks go in it.
    if (message.buffer) csv?.recycle(new Uint8Array(message.buffer));
  }
  wake?.();
});
const post = (message: WorkerMessage, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

const names = new Map<string, string>();
const nameOf = (id: string): string => {
  const name = names.get(id);
  // Every id of the snapshot was named by the main thread: another id means another snapshot.
  if (name === undefined) throw new Error(`profile ${id} is not in the export's snapshot`);
  return name;
};

/** The bytes as a buffer of their own, to be transferred (not copied) to the main thread. */
function ownBuffer(bytes: Uint8Array): { bytes: Uint8Array; buffer: ArrayBuffer } {
  const own =
    bytes.byteOffset === 0 && bytes.buffer instanceof ArrayBuffer && bytes.byteLength > 4096
      ? bytes
      : new Uint8Array(bytes);
  return { bytes: own, buffer: own.buffer as ArrayBuffer };
}

function waitForMessage(): Promise<void> {
  return new Promise((resolve) => (wake = resolve));
}

/**
 * Waits for its export, takes the snapshot (the first read inside the transaction fixes it, to
 * the export's end) and says so with the journal's newest id in it.
 */
async function begin(): Promise<WorkerStart> {
  while (!start) await waitForMessage();
  db.exec('BEGIN');
  const newest = db.prepare('SELECT MAX(id) FROM journal').pluck().safeIntegers(true).get() as
    bigint | null;
  post({ type: 'ready', newest });
  for (const [id, name] of start.names) names.set(id, name);
  return start;
}

/** Makes the slices it is given, for as long as the main thread keeps it. */
async function run(): Promise<void> {
  const line = await csvLineWriter();
  const work = await begin();
  const chunks = new RawCsvChunks(line, nameOf);
  csv = chunks;
  const tally = new GroupTally();
  const rows = sliceStatement(db, work.filter);
  for (;;) {
    const slice = queue.shift();
    if (!slice) {
      await waitForMessage();
      continue;
    }
    let below = slice.hi;
    for (;;) {
      while (unwritten >= AHEAD) await waitForMessage();
      const read = readBatch(rows, slice, below, work.size, chunks, (row) => tally.add(row));
      below = read.below;
      const { bytes, buffer } = ownBuffer(chunks.take());
      const message: ChunkMessage = {
        type: 'chunk',
        slice: slice.index,
        bytes,
        entries: read.entries,
        groups: tally.take(),
        below,
        end: read.end,
      };
      unwritten++;
      post(message, [buffer]);
      if (read.end) break;
    }
  }
}

// A failure ends the thread; the main thread sees it leave and makes the rest alone.
run().catch((error: unknown) => {
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
