// A large CSV export on two threads: the main thread and a worker (journal-export-worker.ts)
// each read and make lines of slices of the journal's ids (journal-export-slices.ts), and the
// main thread hands the chunks on in the slices' order. Making lines is most of an export's
// work and the main thread is otherwise mostly idle while a clerk exports, so the second core
// does about half of it.
//
// One snapshot: the worker reads on a connection of its own, whose snapshot is the main
// reader's only if nothing was committed between the two. Every write of the app goes through
// its one connection on the main thread, so the app connection's total_changes() (its own
// writes) and PRAGMA data_version (any other connection's or process's commits) read before the
// main reader's snapshot and again once the worker has taken its own prove it: unchanged, no
// commit came between. Changed, the worker is ended and the main thread makes every slice alone
// (correct, slower).
//
// The worker is given a few slices at a time and holds at most a few batches not yet written
// (it waits for the main thread's word that one was): memory holds a few chunks. While the
// worker starts, or while it is behind, the main thread makes the next slices itself, keeping
// at most MAIN_AHEAD batches of its own ahead of the one being handed on. A worker that fails to
// start, fails or ends leaves its unfinished slices to the main thread, from the row where it
// stopped: the export finishes, on one thread. The thread itself (started here, or before the
// export while its file was chosen): journal-export-thread.ts; its code:
// journal-export-worker-entry.ts.

import type { Worker } from 'node:worker_threads';

import type { Db } from './database';
import { csvLineWriter } from '../csv-record';
import { RawCsvChunks, tallyRawRow, type CsvChunk, type ProfileName } from '../journal/csv';
import type { JournalFilter } from '../journal/filter';
import { TotalsTally } from '../journal/totals';
import {
  addGroups,
  readBatch,
  sliceStatement,
  slicesOf,
  type ChunkMessage,
  type MainMessage,
  type WorkerData,
  type WorkerMessage,
  type WorkerStart,
  type Slice,
} from './journal-export-slices';
import { ExportThread } from './journal-export-thread';
import type { Matches } from './journal-walks';

/** Batches the main thread makes ahead of the one being handed on, while the worker is behind. */
const MAIN_AHEAD = 3;
/**
 * The main thread's first `size * WARM_BATCHES` rows are made in batches of `size / WARM_BATCHES`:
 * its first batches run before V8 has optimised the code, while the worker starting beside it
 * takes the other core, and a whole batch then held the event loop past the export's limit.
 */
const WARM_BATCHES = 4;
/** Slices the worker is given at once: one to make, the others next. */
const WORKER_SLICES = 3;
/** A worker silent for this long while it is waited for is ended, and its slices made here. */
const WORKER_SILENCE_MS = 10_000;

/** How an export was shared out (for tests and the bench). */
export interface Shared {
  /** Entries the worker made. */
  workerEntries: number;
  /** Why the main thread went on alone, when it did. */
  alone?: string;
}

export interface ParallelOptions {
  /** Hears the worker once started (tests end one mid-export). */
  onWorker?: (worker: Worker) => void;
  /** Hears, at the end, how the export was shared out. */
  onShared?: (shared: Shared) => void;
}

/**
 * What the app connection has written and seen committed: the same twice, nothing was committed
 * between. Undefined when that cannot be told (the connection is inside a transaction, whose
 * writes total_changes() counts before they are committed, or busy): no worker then.
 */
export function writesSeen(app: Db): string | undefined {
  if (app.inTransaction) return undefined;
  try {
    const changes = app.prepare('SELECT total_changes()').pluck().get() as number;
    const version = app.prepare('PRAGMA data_version').pluck().get() as number;
    return `${changes}/${version}`;
  } catch {
    return undefined;
  }
}

/** Every profile id in the snapshot's journal and its name (one index step per profile). */
export function profileNames(reader: Db, profileName: ProfileName): [string, string][] {
  const ids = reader
    .prepare(
      `WITH RECURSIVE p(id) AS (
         SELECT MIN(profile_id) FROM journal
         UNION ALL
         SELECT (SELECT MIN(profile_id) FROM journal WHERE profile_id > p.id) FROM p
         WHERE p.id IS NOT NULL
       ) SELECT id FROM p WHERE id IS NOT NULL`,
    )
    .pluck()
    .all() as string[];
  return ids.map((id) => [id, profileName(id)]);
}

/** A chunk the worker made; `out` until the worker was told it was handed on. */
interface WorkerChunk extends CsvChunk {
  worker: true;
  out: boolean;
}

interface SliceState {
  slice: Slice;
  owner?: 'main' | 'worker';
  /** Made and not yet handed on. */
  chunks: (CsvChunk | WorkerChunk)[];
  /** Where the slice goes on (`id <= below`). */
  below: bigint;
  done: boolean;
}

/**
 * The filter's chunks, made on the main thread (`reader`, in its read transaction) and by
 * `helper` (started once the reader's snapshot was taken), and last the totals. `matches`: the
 * filter's count in the snapshot and the ids its rows lie between (the slices span those alone);
 * `names` every profile's name in it.
 */
export async function* parallelCsvChunks(
  helper: Helper,
  reader: Db,
  filter: JournalFilter,
  size: number,
  matches: Matches,
  names: readonly [string, string][],
  profileName: ProfileName,
  options: ParallelOptions = {},
): AsyncGenerator<CsvChunk> {
  try {
    // The journal's newest id, which the worker's snapshot must have too.
    const journalNewest = reader
      .prepare('SELECT MAX(id) FROM journal')
      .pluck()
      .safeIntegers(true)
      .get() as bigint | null;
    const { newest, oldest, total } = matches;
    const tally = new TotalsTally();
    const states: SliceState[] =
      newest === null || oldest === null
        ? []
        : slicesOf(newest, oldest, total, size).map((slice) => ({
            slice,
            chunks: [],
            below: slice.hi,
            done: false,
          }));
    helper.attach(states, journalNewest, (message) => addGroups(tally, message.groups));

    const nameOf = new Map(names);
    const csv = new RawCsvChunks(await csvLineWriter(), (id) => nameOf.get(id) ?? profileName(id));
    const rows = sliceStatement(reader, filter);
    let made = 0;
    const makeBatch = (s: SliceState) => {
      // Smaller batches first: the code is not yet optimised and the worker is starting beside.
      const limit = made < size * WARM_BATCHES ? Math.ceil(size / WARM_BATCHES) : size;
      const read = readBatch(rows, s.slice, s.below, limit, csv, (row) => tallyRawRow(tally, row));
      made += read.entries;
      s.below = read.below;
      s.done = read.end;
      s.chunks.push(csv.takeLent(read.entries));
    };
    let emit = 0; // the slice being handed on
    let next = 0; // the first slice no thread has been given
    while (emit < states.length) {
      next = helper.give(next);
      const s = states[emit] as SliceState;
      const chunk = s.chunks.shift();
      if (chunk) {
        yield chunk;
        // Handed on, its bytes released or kept by the taker: the worker may make another.
        if ('worker' in chunk) helper.handedOn(chunk);
        continue;
      }
      if (s.done) {
        emit++;
        continue;
      }
      if (!s.owner) {
        s.owner = 'main';
        next = emit + 1;
      }
      if (s.owner === 'main') {
        makeBatch(s);
        continue;
      }
      // The worker's slice, not here yet: the main thread makes a later one meanwhile.
      const later = states.slice(emit + 1, next);
      const ahead = later.find((a) => a.owner === 'main' && !a.done);
      const buffered = later.reduce((n, a) => n + (a.owner === 'main' ? a.chunks.length : 0), 0);
      const mine = buffered < MAIN_AHEAD ? (ahead ?? states[next]) : undefined;
      if (mine) {
        if (mine !== ahead) next++;
        mine.owner = 'main';
        makeBatch(mine);
        // Nothing was handed on, so nothing turned the event loop: a turn per batch.
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      await helper.news();
    }
    yield { content: '', entries: 0, totals: tally.totals() };
  } finally {
    helper.stop();
    options.onShared?.(helper.shared());
  }
}

/** The worker, as the main thread sees it: starting, working, or gone (its slices taken back). */
export class Helper {
  private readonly thread: ExportThread;
  private state: 'starting' | 'working' | 'gone' = 'starting';
  private ready: { newest: bigint | null } | undefined;
  private states: SliceState[] = [];
  private newest: bigint | null | undefined;
  private onChunk: ((message: ChunkMessage) => void) | undefined;
  private alone: string | undefined;
  private workerEntries = 0;
  /** Slices given to the worker and not yet done. */
  private open = 0;
  private heard: (() => void) | undefined;

  /**
   * Hands the export `start` to `given` (a thread started before the export, while the file was
   * chosen), or to a thread started now when there is none or it is gone; `seen` is
   * writesSeen(app) from before the main reader's snapshot was taken.
   */
  constructor(
    private readonly app: Db,
    private readonly seen: string | undefined,
    data: WorkerData,
    start: WorkerStart,
    given?: ExportThread,
    onWorker?: (worker: Worker) => void,
  ) {
    const listener = {
      message: (message: WorkerMessage) => this.hear(message),
      gone: (why: string) => this.leave(why),
    };
    if (given && !given.gone && given.take(listener, onWorker)) {
      this.thread = given;
    } else {
      this.thread = new ExportThread(data);
      this.thread.take(listener, onWorker);
    }
    this.thread.post({ type: 'begin', start });
  }

  /** The slices, the main snapshot's newest id, and who hears the worker's chunks. */
  attach(
    states: SliceState[],
    newest: bigint | null,
    onChunk: (message: ChunkMessage) => void,
  ): void {
    this.states = states;
    this.newest = newest;
    this.onChunk = onChunk;
    this.check();
  }

  /** Gives the worker slices from `next` while it has fewer than WORKER_SLICES to make. */
  give(next: number): number {
    if (this.state !== 'working') return next;
    while (this.open < WORKER_SLICES && next < this.states.length) {
      const s = this.states[next++] as SliceState;
      s.owner = 'worker';
      this.post({ type: 'slice', slice: s.slice });
      this.open++;
    }
    return next;
  }

  /**
   * One of the worker's chunks was handed on: the worker may make another (told once per
   * chunk), in `buffer` when given: the chunk's own, its bytes copied by their taker.
   */
  handedOn(chunk: WorkerChunk, buffer?: ArrayBuffer): void {
    if (!chunk.out) return;
    chunk.out = false;
    if (this.state !== 'working') return;
    if (buffer) this.thread.post({ type: 'taken', buffer }, [buffer]);
    else this.post({ type: 'taken' });
  }

  /** Settles when the worker says something or is gone (or has been silent too long). */
  news(): Promise<void> {
    return new Promise((resolve) => {
      const silence = setTimeout(
        () => this.leave('the worker was silent too long'),
        WORKER_SILENCE_MS,
      );
      this.heard = () => {
        clearTimeout(silence);
        this.heard = undefined;
        resolve();
      };
    });
  }

  stop(): void {
    this.leave('');
  }

  shared(): Shared {
    return { workerEntries: this.workerEntries, ...(this.alone && { alone: this.alone }) };
  }

  private hear(message: WorkerMessage): void {
    if (this.state === 'gone') return;
    if (message.type === 'ready') {
      // The worker's snapshot is taken: the main reader's only if nothing was committed since.
      const now = writesSeen(this.app);
      if (now === undefined || now !== this.seen) {
        this.leave('the journal was written while the worker started');
      } else {
        this.ready = { newest: message.newest };
        this.check();
      }
    } else if (message.type === 'chunk') {
      const s = this.states[message.slice] as SliceState;
      s.chunks.push(this.workerChunk(message));
      s.below = message.below;
      s.done = message.end;
      if (s.done) this.open--;
      this.workerEntries += message.entries;
      this.onChunk?.(message);
    } else {
      this.leave(`the worker failed: ${message.message}`);
    }
    this.heard?.();
  }

  /** A chunk of the worker's: its taker releases it once its bytes are copied. */
  private workerChunk(message: ChunkMessage): WorkerChunk {
    const chunk: WorkerChunk = {
      content: message.bytes,
      entries: message.entries,
      worker: true,
      out: true,
      release: () => this.handedOn(chunk, message.bytes.buffer as ArrayBuffer),
    };
    return chunk;
  }

  /** Working once both snapshots are known to be one (their newest ids agree too). */
  private check(): void {
    if (this.state !== 'starting' || !this.ready || this.newest === undefined) return;
    if (this.ready.newest === this.newest) this.state = 'working';
    else this.leave('the worker saw another journal');
  }

  /** The worker is ended; its unfinished slices are the main thread's, from where it stopped. */
  private leave(why: string): void {
    if (this.state === 'gone') return;
    this.state = 'gone';
    if (why) this.alone = why;
    for (const s of this.states) if (s.owner === 'worker' && !s.done) s.owner = 'main';
    this.thread.end(why);
    this.heard?.();
  }

  private post(message: MainMessage): void {
    this.thread.post(message);
  }
}
