// Counts what the process asks of SQLite while it runs: every statement run (run, get, all,
// iterate, exec) and every commit (a COMMIT, or a statement that writes outside a transaction
// and so commits by itself), and the time spent inside them, per database file. A measurement for the bench (better-sqlite3's
// statements are patched while counting), never used by the app.

import Database from 'better-sqlite3';

export interface SqliteCounts {
  /** Statements run, by database file. */
  calls: Map<string, number>;
  /** Commits, by database file. */
  commits: Map<string, number>;
  /** Statements run, by database file and SQL text (the first 80 characters). */
  bySql: Map<string, number>;
  /** Milliseconds spent inside SQLite's calls, by database file, and by file and SQL text. */
  ms: Map<string, number>;
  msBySql: Map<string, number>;
}

type Method = (...args: unknown[]) => unknown;

interface CountedStatement {
  source: string;
  reader: boolean;
  database: { name: string; inTransaction: boolean };
}

const add = (map: Map<string, number>, key: string, n = 1) => map.set(key, (map.get(key) ?? 0) + n);

/** Starts counting; `stop()` puts better-sqlite3 back as it was and returns the counts. */
export function countSqliteCalls(): { stop(): SqliteCounts } {
  const counts: SqliteCounts = {
    calls: new Map(),
    commits: new Map(),
    bySql: new Map(),
    ms: new Map(),
    msBySql: new Map(),
  };
  const probe = new Database(':memory:');
  const statementProto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as Record<string, Method>;
  probe.close();
  const dbProto = Database.prototype as unknown as Record<string, Method>;
  const saved: [Record<string, Method>, string, Method][] = [];
  const patch = (proto: Record<string, Method>, name: string, wrap: (m: Method) => Method) => {
    const original = proto[name] as Method;
    saved.push([proto, name, original]);
    proto[name] = wrap(original);
  };
  for (const name of ['run', 'get', 'all', 'iterate']) {
    patch(
      statementProto,
      name,
      (original) =>
        function (this: CountedStatement, ...args: unknown[]) {
          const file = this.database.name;
          const sql = this.source.replace(/\s+/g, ' ').trim();
          const autocommit = !this.database.inTransaction;
          add(counts.calls, file);
          add(counts.bySql, `${file}\t${sql.slice(0, 80)}`);
          const start = performance.now();
          const out = original.apply(this, args);
          add(counts.ms, file, performance.now() - start);
          add(counts.msBySql, `${file}\t${sql.slice(0, 80)}`, performance.now() - start);
          if (sql === 'COMMIT' || (autocommit && !this.reader && !/^(BEGIN|PRAGMA)/i.test(sql)))
            add(counts.commits, file);
          return out;
        },
    );
  }
  patch(
    dbProto,
    'exec',
    (original) =>
      function (this: { name: string }, ...args: unknown[]) {
        add(counts.calls, this.name);
        add(counts.bySql, `${this.name}\t${String(args[0]).replace(/\s+/g, ' ').slice(0, 80)}`);
        const start = performance.now();
        const out = original.apply(this, args);
        add(counts.ms, this.name, performance.now() - start);
        return out;
      },
  );
  return {
    stop() {
      for (const [proto, name, original] of saved.reverse()) proto[name] = original;
      return counts;
    },
  };
}
