// A worker thread of the journal's reads (journal-reader.ts starts one per lane): the Journal's
// pages, the totals beside them and the daily close, which on a journal of hundreds of thousands
// of entries may read every row of a filter, for a second or more. Here they take the other
// core, and the main thread, which answers every window's calls, is not held meanwhile.
//
// It reads on a read-only connection of its own, with the same code the main thread runs
// (JournalReads' search and totals, reports.ts summarise): one read transaction per read, so
// each answer is of the journal as committed when the read began, as the main thread's would be;
// what JournalPages keeps between pages (a filter's count and anchors) is dropped when another
// connection commits (PRAGMA data_version), as on the main thread. It answers one read at a
// time, in the order asked. A read that fails is answered with its message; the main
// thread then makes it itself, so that the person sees the store's own error, worded as always.

import { parentPort, workerData } from 'node:worker_threads';

import { openReadOnly } from './database';
import { JournalReads } from './journal-reads';
import { summarise } from './reports';
import type { ReaderAnswer, ReaderQuestion, ReaderStart, ReaderValue } from './journal-reader';

const port = parentPort;
if (!port) throw new Error('journal-reader-worker runs as a worker thread');
const start = workerData as ReaderStart;

const db = openReadOnly(start.file);
db.pragma(`cache_size = ${start.cacheSize}`);
const reads = new JournalReads(db);

function read(question: ReaderQuestion): ReaderValue {
  switch (question.read) {
    case 'totals':
      return reads.totals(question.filter);
    case 'summary':
      return summarise(db, question.query);
    case 'search':
      return reads.search(question.filter, question.offset, question.limit);
  }
}

function answer(question: ReaderQuestion): ReaderAnswer {
  try {
    const value = db.transaction(() => read(question)).deferred();
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
