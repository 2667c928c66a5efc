// The CSV export's worker thread as a thing of its own, apart from the export that uses it, so
// that it can be started before the export: when a person asks for an export, the save dialog
// opens and they take seconds to choose the file; the worker's start (a Node isolate, its
// bundled code, better-sqlite3, its connection to the journal) happens meanwhile, off the time
// they then wait for the file. Started before its export, it only opens its connection: its
// snapshot is taken once the export hands it its work ('begin'), after the main reader's, which
// journal-export-parallel.ts proves to be the same.
//
// A thread nobody takes is not kept: end() ends it (the dialog was cancelled, or the export did
// not need it), and so does its own timer after IDLE_MS (a caller that never ends it). Messages
// posted before the thread exists wait for it; its events go to whoever has taken it, and one
// that came before (it failed, or ended) is told to them when they take it.

import type { Worker } from 'node:worker_threads';

import { startWorker } from './journal-export-worker-entry';
import type { MainMessage, WorkerData, WorkerMessage } from './journal-export-slices';

/** A thread started ahead of its export and not taken by one within this is ended. */
export const IDLE_MS = 60_000;
/** The worker's young heap: its garbage is a batch of short lines, collected young. */
const WORKER_YOUNG_MB = 2;

/** What hears a taken thread: its messages, and once, why it is gone. */
export interface ThreadListener {
  message(message: WorkerMessage): void;
  gone(why: string): void;
}

/** Threads started and not yet exited, for tests that check none is left behind. */
let running = 0;

/** How many export threads are running now (started and not yet exited). */
export function exportThreadsRunning(): number {
  return running;
}

export class ExportThread {
  private worker: Worker | undefined;
  private readonly waiting: MainMessage[] = [];
  private listener: ThreadListener | undefined;
  /** Why it is gone, once it is (ended, failed, exited, or never started). */
  private goneWhy: string | undefined;
  private readonly idle: NodeJS.Timeout | undefined;
  /** Who hears the Worker once it exists (tests, which end one half way). */
  private readonly watchers: ((worker: Worker) => void)[] = [];

  /**
   * Starts a thread on the journal `file`, its connection's page cache `cacheSize`;
   * `onWorker` hears the Worker once made; `idleMs`: how long it waits to be taken before it
   * ends itself.
   */
  constructor(data: WorkerData, onWorker?: (worker: Worker) => void, idleMs: number = IDLE_MS) {
    if (onWorker) this.watchers.push(onWorker);
    this.idle = setTimeout(() => this.end('nobody took the worker'), idleMs);
    // Its own timer never keeps the app (or a test's process) from ending.
    this.idle.unref();
    void this.start(data);
  }

  /** True once gone: a taker then gets no work done by it. */
  get gone(): boolean {
    return this.goneWhy !== undefined;
  }

  /**
   * Hands the thread to an export: `listener` hears it from now on, `onWorker` its Worker (now,
   * or once made). False when it was taken already.
   */
  take(listener: ThreadListener, onWorker?: (worker: Worker) => void): boolean {
    if (this.listener) return false;
    clearTimeout(this.idle);
    this.listener = listener;
    if (onWorker) {
      if (this.worker) onWorker(this.worker);
      else this.watchers.push(onWorker);
    }
    if (this.goneWhy !== undefined) listener.gone(this.goneWhy);
    return true;
  }

  /** Posts `message`, moving the buffers of `transfer` to the thread when it has started. */
  post(message: MainMessage, transfer: ArrayBuffer[] = []): void {
    if (this.goneWhy !== undefined) return;
    if (this.worker) this.worker.postMessage(message, transfer);
    else this.waiting.push(message);
  }

  /** Ends the thread (nothing when it is gone already); its taker hears `why`. */
  end(why = ''): void {
    if (this.goneWhy !== undefined) return;
    this.goneWhy = why;
    clearTimeout(this.idle);
    void this.worker?.terminate();
    this.listener?.gone(why);
  }

  private async start(data: WorkerData): Promise<void> {
    const started = await startWorker('export', {
      workerData: data,
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB },
    });
    if ('why' in started) {
      this.end(started.why);
      return;
    }
    const worker = started;
    if (this.goneWhy !== undefined) {
      // Ended while it started (the dialog closed first).
      void worker.terminate();
      return;
    }
    running++;
    this.worker = worker;
    worker.on('message', (message: WorkerMessage) => {
      if (this.goneWhy === undefined) this.listener?.message(message);
    });
    worker.on('error', (error: Error) => this.end(`the worker failed: ${error.message}`));
    worker.on('exit', (code) => {
      running--;
      this.end(`the worker ended (${code})`);
    });
    for (const message of this.waiting.splice(0)) worker.postMessage(message);
    for (const watcher of this.watchers.splice(0)) watcher(worker);
  }
}
