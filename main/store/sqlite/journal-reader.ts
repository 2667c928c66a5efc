// The journal's reads off the main thread. The main thread answers every window's calls (an
// order, a refund's steps, the start's checks), and better-sqlite3 holds it for the whole of a
// read: on a journal of hundreds of thousands of entries a profile's totals or the first page
// of a rare filter read every row of it, and every screen would wait (docs/performance.md). A
// journal of READER_FROM entries or more has the Journal screen's reads made by worker threads
// (journal-reader-worker.ts), each on a read-only connection of its own, in two lanes: the
// list's pages in one, the totals and the daily close (which may take seconds) in the other,
// so a page never waits behind them.
//
// A lane's worker starts at its first read and ends after IDLE_MS without one (it holds a
// connection and a heap; a desk that reads now and then should not keep them). A read a worker
// cannot answer (it failed to start, died, or the read failed there) is made on the main
// thread, as a smaller journal's is: the answer is the same, only slower, and a failure is the
// store's own error, worded as always. A lane whose workers end twice in a row before answering
// anything stops starting them (each start costs a thread and its load).
//
// Smaller journals, an in-memory database (tests), and a connection inside a transaction (whose
// own uncommitted writes another connection would not see) read on the main thread.

import type { Worker } from 'node:worker_threads';

import type { Statement } from 'better-sqlite3';

import type { Db } from './database';
import type { JournalFilter } from '../journal/filter';
import type { ReportLine, SummaryQuery } from '../journal/summary';
import type { JournalTotals } from '../journal/totals';
import type { JournalEntry, Page } from '../journal/types';
import { startWorker } from './journal-export-worker-entry';

/** Journals of at least this many entries (their newest id) are read on the workers. */
export const READER_FROM = 20_000;
/** A worker ends after this long without a read. */
const IDLE_MS = 60_000;
/**
 * Workers in a row that end without answering a read (the file cannot be opened from another
 * connection, say) after which a lane stops starting them: its reads are made on the main thread.
 */
const FAILED_STARTS = 2;
/**
 * A worker's SQLite page cache, in KiB (negative: a size, not pages): the main connection's
 * (better-sqlite3's default). A filter's walk looks each entry's row up from an index, and with
 * a small cache the B-trees' inner pages are read again and again, a first count many times
 * slower (docs/performance.md).
 */
const READER_CACHE_SIZE = -16384;

/** What a worker is started with. */
export interface ReaderStart {
  file: string;
  cacheSize: number;
}

export type Read =
  | { read: 'totals'; filter: JournalFilter }
  | { read: 'summary'; query: SummaryQuery }
  | { read: 'search'; filter: JournalFilter; offset: number; limit: number };

export type ReaderQuestion = Read & { id: number };

export type ReaderValue = JournalTotals | ReportLine[] | Page<JournalEntry>;

export type ReaderAnswer =
  { id: number; ok: true; value: ReaderValue } | { id: number; ok: false; message: string };

export interface ReaderOptions {
  /** The fewest entries whose reads go to the workers (tests: fewer). */
  from?: number;
  /** How long an idle worker is kept (tests: shorter). */
  idleMs?: number;
  /** Hears why a read was made on the main thread after all (tests). */
  onAlone?: (why: string) => void;
  /** Hears each worker once started, and its lane (tests end one mid-read). */
  onWorker?: (worker: Worker, lane: Lane) => void;
}

/** The list's pages, and the reads that may take seconds. */
export type Lane = 'list' | 'long';

export class JournalReader {
  private readonly lanes: Record<Lane, ReaderThread>;
  private closed = false;
  private newest: Statement | undefined;

  constructor(
    private readonly db: Db,
    private readonly options: ReaderOptions = {},
  ) {
    this.lanes = {
      list: new ReaderThread(db, 'list', options),
      long: new ReaderThread(db, 'long', options),
    };
  }

  /** The filter's totals: on a worker for a large journal, else (or if it cannot) here. */
  async totals(filter: JournalFilter, here: () => JournalTotals): Promise<JournalTotals> {
    const value = await this.ask('long', { read: 'totals', filter });
    return value === undefined ? here() : (value as JournalTotals);
  }

  /** The daily close's lines, as totals are read. */
  async summary(query: SummaryQuery, here: () => ReportLine[]): Promise<ReportLine[]> {
    const value = await this.ask('long', { read: 'summary', query });
    return value === undefined ? here() : (value as ReportLine[]);
  }

  /** One page of the list, in a lane of its own: it never waits behind totals. */
  async search(
    read: { filter: JournalFilter; offset: number; limit: number },
    here: () => Page<JournalEntry>,
  ): Promise<Page<JournalEntry>> {
    const value = await this.ask('list', { read: 'search', ...read });
    return value === undefined ? here() : (value as Page<JournalEntry>);
  }

  /** Ends the workers; reads asked after are made on the main thread. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([this.lanes.list.close(), this.lanes.long.close()]);
  }

  private async ask(lane: Lane, read: Read): Promise<ReaderValue | undefined> {
    if (!this.wanted()) return undefined;
    return this.lanes[lane].ask(read);
  }

  /** Whether this database's reads go to the workers at all. */
  private wanted(): boolean {
    if (this.closed || this.db.memory || this.db.inTransaction) return false;
    const from = this.options.from ?? READER_FROM;
    this.newest ??= this.db.prepare('SELECT MAX(id) FROM journal').pluck();
    const newest = this.newest.get() as number | null;
    return newest !== null && newest >= from;
  }
}

/** One lane's worker: started when first asked, ended when idle, closed, or gone. */
class ReaderThread {
  private worker: Worker | undefined;
  private starting: Promise<Worker | undefined> | undefined;
  private readonly waiting = new Map<number, (answer: ReaderAnswer | undefined) => void>();
  private nextId = 1;
  private idle: NodeJS.Timeout | undefined;
  private closed = false;
  /** Whether the running worker has answered a read. */
  private answered = false;
  /** Workers in a row that ended without answering one. */
  private failedStarts = 0;

  constructor(
    private readonly db: Db,
    private readonly lane: Lane,
    private readonly options: ReaderOptions,
  ) {}

  /** The worker's answer, or undefined when the read is to be made on the main thread. */
  async ask(read: Read): Promise<ReaderValue | undefined> {
    const worker = await this.started();
    if (!worker) return undefined;
    const id = this.nextId++;
    clearTimeout(this.idle);
    const answer = await new Promise<ReaderAnswer | undefined>((resolve) => {
      this.waiting.set(id, resolve);
      worker.postMessage({ id, ...read } satisfies ReaderQuestion);
    });
    if (this.waiting.size === 0 && this.worker) this.idleFromNow();
    if (answer === undefined) return undefined;
    if (!answer.ok) {
      this.options.onAlone?.(`the read failed on the worker: ${answer.message}`);
      return undefined;
    }
    return answer.value;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idle);
    const worker = this.worker ?? (await this.starting);
    this.worker = undefined;
    this.settleAll();
    await worker?.terminate();
  }

  private started(): Promise<Worker | undefined> {
    if (this.closed || this.failedStarts >= FAILED_STARTS) return Promise.resolve(undefined);
    if (this.worker) return Promise.resolve(this.worker);
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async start(): Promise<Worker | undefined> {
    const workerData: ReaderStart = { file: this.db.name, cacheSize: READER_CACHE_SIZE };
    const started = await startWorker('reader', { workerData });
    if ('why' in started) {
      this.options.onAlone?.(started.why);
      return undefined;
    }
    const worker = started;
    if (this.closed) {
      await worker.terminate();
      return undefined;
    }
    // An idle worker does not keep the process alive (close() ends it in the app).
    worker.unref();
    this.answered = false;
    worker.on('message', (answer: ReaderAnswer) => {
      this.answered = true;
      this.failedStarts = 0;
      const resolve = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      resolve?.(answer);
    });
    worker.on('error', (error: Error) => this.gone(worker, `the worker failed: ${error.message}`));
    worker.on('exit', (code) => this.gone(worker, `the worker ended (${code})`));
    this.worker = worker;
    this.options.onWorker?.(worker, this.lane);
    return worker;
  }

  /** The worker is gone: what it was asked is made on the main thread; the next read starts another. */
  private gone(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    if (!this.answered) this.failedStarts++;
    clearTimeout(this.idle);
    if (this.waiting.size > 0) this.options.onAlone?.(why);
    this.settleAll();
  }

  private settleAll(): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const resolve of waiting) resolve(undefined);
  }

  private idleFromNow(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => {
      const worker = this.worker;
      if (!worker || this.waiting.size > 0) return;
      this.worker = undefined;
      void worker.terminate();
    }, this.options.idleMs ?? IDLE_MS);
    this.idle.unref();
  }
}
