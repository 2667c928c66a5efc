// The thread that checks a backup's copy (backup-check.ts starts it): integrity_check of a large
// journal runs for seconds inside SQLite, and on the main process's thread it would stop every
// bridge call and timer for as long. Plain CommonJS, not TypeScript: backup-check.ts imports
// this file's text (`?raw`, which Vite inlines in the main bundle and Vitest reads from the
// sources) and runs it as an eval'd worker, so the same text works from the sources under
// Vitest, from out/main and from inside the packaged app.asar, with no worker file to build,
// copy, unpack or find at run time. An eval'd worker resolves `require` from the working
// folder, so better-sqlite3 is required by the absolute path the main process resolved.
// It reports what it found; what that means (a problem or a good backup) is decided in
// backup-check.ts, the same decision as for the synchronous check at a restore.

/* eslint-disable @typescript-eslint/no-require-imports */
const { parentPort, workerData } = require('node:worker_threads');

const Database = require(workerData.betterSqlite3);

let db;
try {
  db = new Database(workerData.file, {
    fileMustExist: true,
    readonly: !workerData.makeStandalone,
  });
  if (workerData.makeStandalone) db.pragma('journal_mode = DELETE');
  const rows = db.pragma('integrity_check');
  const version = db.pragma('user_version', { simple: true });
  parentPort.postMessage({
    found: { integrity: rows.map((row) => row.integrity_check), version },
  });
} catch (error) {
  parentPort.postMessage({ failed: error instanceof Error ? error.message : String(error) });
} finally {
  if (db) db.close();
}
