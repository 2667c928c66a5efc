// The journal's long reads on a thread of their own. The main thread answers every window's calls
// (the list's pages, an order, a refund's steps), and better-sqlite3 holds it for the whole of a
// read: one profile's totals over a journal of 1,000,000 entries held it for over two seconds,
// and every screen waited. A journal of READER_FROM entries or more has its totals and its daily
// close read by a worker (journal-reader-worker.ts) on a connection of its own; the main thread
// goes on meanwhile.
//
// The worker starts at the first such read and ends after IDLE_MS without one (it holds a
// connection and a heap; a desk that reads totals now and then should not keep them). A read the
// worker cannot answer (it failed to start, died, or the read failed there) is made on the main
// thread, as a smaller journal's is: the answer is the same, only slower, and a failure is the
// store's own error, worded as always.
//
// Smaller journals, an in-memory database (tests), and a connection inside a transaction (whose
// own uncommitted writes another connection would not see) read on the main thread.

import { Worker, type WorkerOptions } from 'node:worker_threads';

import type { Statement } from 'better-sqlite3';

import type { Db } from './database';
import type { JournalFilter } from '../journal/filter';
import type { ReportLine, SummaryQuery } from '../journal/summary';
import type { JournalTotals } from '../journal/totals';
import { workerEntry } from './journal-export-worker-entry';

/** Journals of at least this many entries (their newest id) read long reads on the worker. */
export const READER_FROM = 20_000;
/** The worker ends after this long without a read. */
const IDLE_MS = 60_000;
/**
 * The worker's SQLite page cache, in KiB (negative: a size, not pages): a whole journal's read
 * meets each page once, and the pages a second read wants are in the system's file cache.
 */
const READER_CACHE_SIZE = -2048;

/** What the worker is started with. */
export interface ReaderStart {
  file: string;
  cacheSize: number;
}

export type ReaderQuestion =
  | { id: number; read: 'totals'; filter: JournalFilter }
  | { id: number; read: 'summary'; query: SummaryQuery };

export type ReaderAnswer =
  | { id: number; ok: true; value: JournalTotals | ReportLine[] }
  | { id: number; ok: false; message: string };

type Ask = { read: 'totals'; filter: JournalFilter } | { read: 'summary'; query: SummaryQuery };

export interface ReaderOptions {
  /** The fewest entries whose reads go to the worker (tests: fewer). */
  from?: number;
  /** How long an idle worker is kept (tests: shorter). */
  idleMs?: number;
  /** Hears why a read was made on the main thread after all (tests). */
  onAlone?: (why: string) => void;
  /** Hears the worker once started (tests end one mid-read). */
  onWorker?: (worker: Worker) => void;
}

interface Waiting {
  resolve: (answer: ReaderAnswer | undefined) => void;
}

export class JournalReader {
  private worker: Worker | undefined;
  private starting: Promise<Worker | undefined> | undefined;
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private idle: NodeJS.Timeout | undefined;
  private closed = false;
  private newest: Statement | undefined;

  constructor(
    private readonly db: Db,
    private readonly options: ReaderOptions = {},
  ) {}

  /** The filter's totals: on the worker for a large journal, else (or if it cannot) here. */
  async totals(filter: JournalFilter, here: () => JournalTotals): Promise<JournalTotals> {
    const answer = await this.ask({ read: 'totals', filter });
    return answer === undefined ? here() : (answer as JournalTotals);
  }

  /** The daily close's lines, as totals are read. */
  async summary(query: SummaryQuery, here: () => ReportLine[]): Promise<ReportLine[]> {
    const answer = await this.ask({ read: 'summary', query });
    return answer === undefined ? here() : (answer as ReportLine[]);
  }

  /** Ends the worker; reads asked after are made on the main thread. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.idle);
    const worker = this.worker ?? (await this.starting);
    this.worker = undefined;
    this.settleAll();
    await worker?.terminate();
  }

  /** The worker's answer, or undefined when the read is to be made here. */
  private async ask(ask: Ask): Promise<JournalTotals | ReportLine[] | undefined> {
    if (!this.wanted()) return undefined;
    const worker = await this.started();
    if (!worker) return undefined;
    const id = this.nextId++;
    clearTimeout(this.idle);
    const answer = await new Promise<ReaderAnswer | undefined>((resolve) => {
      this.waiting.set(id, { resolve });
      worker.postMessage({ id, ...ask } satisfies ReaderQuestion);
    });
    if (this.waiting.size === 0 && this.worker) this.idleFromNow();
    if (answer === undefined) return undefined;
    if (!answer.ok) {
      this.options.onAlone?.(`the read failed on the worker: ${answer.message}`);
      return undefined;
    }
    return answer.value;
  }

  /** Whether this database's reads go to a worker at all. */
  private wanted(): boolean {
    if (this.closed || this.db.memory || this.db.inTransaction) return false;
    const from = this.options.from ?? READER_FROM;
    this.newest ??= this.db.prepare('SELECT MAX(id) FROM journal').pluck();
    const newest = this.newest.get() as number | null;
    return newest !== null && newest >= from;
  }

  private started(): Promise<Worker | undefined> {
    if (this.worker) return Promise.resolve(this.worker);
    this.starting ??= this.start().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async start(): Promise<Worker | undefined> {
    let worker: Worker;
    try {
      const entry = await workerEntry('reader');
      if ('missing' in entry) {
        this.options.onAlone?.(entry.missing);
        return undefined;
      }
      const workerData: ReaderStart = { file: this.db.name, cacheSize: READER_CACHE_SIZE };
      const options: WorkerOptions = { workerData, execArgv: [] };
      worker =
        'url' in entry
          ? new Worker(entry.url, options)
          : new Worker(entry.code, { ...options, eval: true });
    } catch (error) {
      this.options.onAlone?.(`the worker did not start: ${String(error)}`);
      return undefined;
    }
    if (this.closed) {
      await worker.terminate();
      return undefined;
    }
    // An idle worker does not keep the process alive (close() ends it in the app).
    worker.unref();
    worker.on('message', (answer: ReaderAnswer) => {
      const waiting = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      waiting?.resolve(answer);
    });
    worker.on('error', (error: Error) => this.gone(worker, `the worker failed: ${error.message}`));
    worker.on('exit', (code) => this.gone(worker, `the worker ended (${code})`));
    this.worker = worker;
    this.options.onWorker?.(worker);
    return worker;
  }

  /** The worker is gone: what it was asked is made here; the next read starts another. */
  private gone(worker: Worker, why: string): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    clearTimeout(this.idle);
    if (this.waiting.size > 0) this.options.onAlone?.(why);
    this.settleAll();
  }

  private settleAll(): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of waiting) w.resolve(undefined);
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
