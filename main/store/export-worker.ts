// The export worker: a thread that makes slices of the journal's CSV export (export-slices.ts)
// beside the main thread, on its own read-only connection, so a large export runs on two cores.
// Started by journal-export.ts, one per export; built as out/main/export-worker.cjs.
//
// It opens one read transaction and keeps it to the end: every slice it makes, and the count it
// reports, come from that one snapshot. The main thread uses the worker only if that snapshot is
// the one its own export reads (journal-export.ts checks that no commit came in between).
// Anything that goes wrong is reported as `failed`; the main thread then makes the worker's
// slices itself, and any real problem with the file reaches the user from there.

import { parentPort, workerData } from 'node:worker_threads';

import Database from 'better-sqlite3';

import {
  SliceReader,
  snapshotIds,
  type FromExportWorker,
  type ToExportWorker,
} from './export-slices';

const port = parentPort;
const { file, busyTimeoutMs } = workerData as { file: string; busyTimeoutMs: number };

function send(message: FromExportWorker, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

function failed(error: unknown): void {
  send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}

try {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: busyTimeoutMs });
  db.exec('BEGIN');
  // The first read opens the snapshot; the count comes from the same one.
  const ids = snapshotIds(db);
  const total = Number(db.prepare('SELECT COUNT(*) FROM journal').pluck().get());
  const reader = new SliceReader(db);
  port?.on('message', (message: ToExportWorker) => {
    try {
      const { bytes, entries } = reader.read(message.slice);
      const whole = bytes.byteLength > 0 ? [bytes.buffer as ArrayBuffer] : [];
      send({ kind: 'slice', index: message.slice.index, bytes, entries }, whole);
    } catch (error) {
      failed(error);
    }
  });
  send({ kind: 'ready', ids, total });
} catch (error) {
  failed(error);
}
