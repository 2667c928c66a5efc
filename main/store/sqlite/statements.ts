// Prepared statements kept by their SQL text: compiling is most of the cost of a small query,
// so each store (the journal, its pages, batches, the sandbox's database) compiles a text once
// and runs it again and again. The texts are fixed, or built from column names and a filter's
// shape, never from values, so a cache stays small. Each store keeps its own: a statement's
// modes (pluck, raw, safeIntegers) stay set on it, and one store's must not surprise another.

import type Database from 'better-sqlite3';

export class Statements {
  private readonly cache = new Map<string, Database.Statement>();

  constructor(
    private readonly db: { prepare(sql: string): Database.Statement },
    /** Set once on every statement when compiled (batches read every integer as a bigint). */
    private readonly setUp: (statement: Database.Statement) => Database.Statement = (s) => s,
  ) {}

  /** The statement for `sql`, compiled on first use. */
  get(sql: string): Database.Statement {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.setUp(this.db.prepare(sql));
      this.cache.set(sql, statement);
    }
    return statement;
  }
}
