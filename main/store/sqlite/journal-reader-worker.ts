// The worker thread of the journal's long reads (journal-reader.ts starts it): the totals beside
// the Journal's list and the daily close, which on a journal of hundreds of thousands of entries
// read every row of a filter and sort its groups, for a second or more. Here they take the other
// core, and the main thread, which answers every window's calls, is not held meanwhile.
//
// It reads on a read-only connection of its own, with the same code the main thread runs
// (JournalPages.totals, reports.ts summarise): one read transaction per read, so each answer is
// of the journal as committed when the read began, as the main thread's would be. It answers one
// read at a time, in the order asked. A read that fails is answered with its message; the main
// thread then makes it itself, so that the person sees the store's own error, worded as always.

import { parentPort, workerData } from 'node:worker_threads';

import { openReadOnly } from './database';
import { JournalPages } from './journal-pages';
import { summarise } from './reports';
import type { ReaderAnswer, ReaderQuestion, ReaderStart } from './journal-reader';

const port = parentPort;
if (!port) throw new Error('journal-reader-worker runs as a worker thread');
const start = workerData as ReaderStart;

const db = openReadOnly(start.file);
db.pragma(`cache_size = ${start.cacheSize}`);
const pages = new JournalPages(db);

function answer(question: ReaderQuestion): ReaderAnswer {
  try {
    const value =
      question.read === 'totals'
        ? db.transaction(() => pages.totals(question.filter)).deferred()
        : db.transaction(() => summarise(db, question.query)).deferred();
    return { id: question.id, ok: true, value };
  } catch (error) {
    return {
      id: question.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    };
  }
}

port.on('message', (question: ReaderQuestion) => port.postMessage(answer(question)));
