// Where the desk's connection keeps its temporary storage: in memory while it writes, in files
// while it sorts many rows.
//
// Inside a transaction, a statement that may fail after it has written (every INSERT and UPDATE
// of the journal: its history trigger runs after the row is written) first copies each page it
// changes to a statement journal, to undo itself alone. A journal entry's INSERT changes about 20
// pages (the row, each index, the history), more than the 64 KiB SQLite keeps in memory before it
// moves that journal to a temporary file, written and truncated for every write-ahead entry. So
// the connection keeps temporary storage in memory.
//
// The same setting holds a sort's every row in memory: a GROUP BY or an ORDER BY that no index
// serves sorts every row it reads, not only the rows it returns, and in files SQLite spills a
// large sort to disk past its cache, where in memory it grows the process by the whole sort
// (docs/performance.md, "Journal reads at 1,000,000 entries"). The reads that may sort a
// whole journal (the totals' groups, the daily close's, every id of a filter's dates) run in
// `sortingInFiles`. The setting is the connection's; all of its use is on one thread, so nothing
// else runs on it meanwhile.

import type { Db } from './database';

/** Temporary storage in memory: set once the connection is open (after the migrations). */
export function keepTempInMemory(db: Db): void {
  db.pragma('temp_store = MEMORY');
}

/**
 * Runs `read` with the connection's temporary storage in files, then back in memory. SQLite
 * applies this pragma when it compiles it, so it is exec'd each time (a prepared one would not
 * change it again). Allowed inside a read transaction: the connection holds no TEMP table.
 */
export function sortingInFiles<T>(db: Db, read: () => T): T {
  db.exec('PRAGMA temp_store = FILE');
  try {
    return read();
  } finally {
    db.exec('PRAGMA temp_store = MEMORY');
  }
}
