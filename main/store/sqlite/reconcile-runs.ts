// Reconciliation runs as stored (migration 15). A run's lines (every journal entry of its range,
// then every order those entries act on) are written with the run, before the first `status`
// is asked, so a run stopped by a pause, a crash or a quit resumes with the lines still `todo`
// and never asks again about one whose answer is kept. What the gateway said and the findings
// are kept as JSON text, written by services/reconcile/ and read back unchanged.

import type Database from 'better-sqlite3';

import type { Db } from './database';
import { Statements } from './statements';

export type RunState = 'running' | 'paused' | 'done';
export type LineKind = 'entry' | 'order';
export type LineState = 'todo' | 'agrees' | 'differs' | 'unreadable' | 'not-askable';

export interface NewRun {
  profileId: string;
  operator: string;
  from: string;
  to: string;
  journalStore: 'sqlite' | 'postgres';
  perSecond: number;
  atOnce: number;
}

export interface Run extends NewRun {
  id: number;
  state: RunState;
  pausedBecause: string | null;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

export interface NewLine {
  kind: LineKind;
  /** An entry's client_orderid, or an order's orderid. */
  ref: string;
  /** What the line is about as the journal had it when the run was planned (JSON text). */
  subject: string;
}

export interface Line extends NewLine {
  runId: number;
  seq: number;
  state: LineState;
  attempts: number;
  gateway: string | null;
  findings: string | null;
  error: string | null;
  readAt: string | null;
}

export interface LineResult {
  state: Exclude<LineState, 'todo'>;
  attempts: number;
  gateway: string | null;
  findings: string | null;
  error: string | null;
}

interface RawRun {
  id: number;
  profile_id: string;
  operator: string;
  date_from: string;
  date_to: string;
  journal_store: 'sqlite' | 'postgres';
  state: RunState;
  per_second: number;
  at_once: number;
  paused_because: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

interface RawLine {
  run_id: number;
  seq: number;
  kind: LineKind;
  ref: string;
  subject: string;
  state: LineState;
  attempts: number;
  gateway: string | null;
  findings: string | null;
  error: string | null;
  read_at: string | null;
}

const toRun = (r: RawRun): Run => ({
  id: r.id,
  profileId: r.profile_id,
  operator: r.operator,
  from: r.date_from,
  to: r.date_to,
  journalStore: r.journal_store,
  state: r.state,
  perSecond: r.per_second,
  atOnce: r.at_once,
  pausedBecause: r.paused_because,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  finishedAt: r.finished_at,
});

const toLine = (r: RawLine): Line => ({
  runId: r.run_id,
  seq: r.seq,
  kind: r.kind,
  ref: r.ref,
  subject: r.subject,
  state: r.state,
  attempts: r.attempts,
  gateway: r.gateway,
  findings: r.findings,
  error: r.error,
  readAt: r.read_at,
});

const now = () => new Date().toISOString();

export class ReconcileRuns {
  private readonly statements: Statements;

  constructor(private readonly db: Db) {
    this.statements = new Statements(db);
  }

  private statement(sql: string): Database.Statement {
    return this.statements.get(sql);
  }

  /** The run and all its lines in one transaction: nothing of it exists until all of it does. */
  create(run: NewRun, lines: readonly NewLine[]): Run {
    return this.db
      .transaction(() => {
        const at = now();
        const { lastInsertRowid } = this.statement(
          `INSERT INTO reconcile_runs (profile_id, operator, date_from, date_to, journal_store, state,
             per_second, at_once, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, 'paused', ?, ?, ?, ?)`,
        ).run(
          run.profileId,
          run.operator,
          run.from,
          run.to,
          run.journalStore,
          run.perSecond,
          run.atOnce,
          at,
          at,
        );
        const id = Number(lastInsertRowid);
        const insert = this.statement(
          `INSERT INTO reconcile_lines (run_id, seq, kind, ref, subject, state) VALUES (?, ?, ?, ?, ?, 'todo')`,
        );
        lines.forEach((line, i) => insert.run(id, i + 1, line.kind, line.ref, line.subject));
        return this.get(id) as Run;
      })
      .immediate();
  }

  get(id: number): Run | undefined {
    const raw = this.statement('SELECT * FROM reconcile_runs WHERE id = ?').get(id) as
      RawRun | undefined;
    return raw ? toRun(raw) : undefined;
  }

  list(limit = 20): Run[] {
    return (
      this.statement('SELECT * FROM reconcile_runs ORDER BY id DESC LIMIT ?').all(limit) as RawRun[]
    ).map(toRun);
  }

  /** Runs that were running when the process that ran them stopped. */
  running(): Run[] {
    return (
      this.statement(
        "SELECT * FROM reconcile_runs WHERE state = 'running' ORDER BY id",
      ).all() as RawRun[]
    ).map(toRun);
  }

  setState(id: number, state: RunState, pausedBecause: string | null = null): Run {
    const at = now();
    this.statement(
      `UPDATE reconcile_runs SET state = ?, paused_because = ?, updated_at = ?,
         finished_at = CASE WHEN ? = 'done' THEN ? ELSE NULL END
       WHERE id = ?`,
    ).run(state, pausedBecause, at, state, at, id);
    return this.get(id) as Run;
  }

  setPace(id: number, perSecond: number, atOnce: number): void {
    this.statement(
      'UPDATE reconcile_runs SET per_second = ?, at_once = ?, updated_at = ? WHERE id = ?',
    ).run(perSecond, atOnce, now(), id);
  }

  /** The lines still to ask about, in their order. */
  todo(runId: number): Line[] {
    return (
      this.statement(
        "SELECT * FROM reconcile_lines WHERE run_id = ? AND state = 'todo' ORDER BY seq",
      ).all(runId) as RawLine[]
    ).map(toLine);
  }

  /** Lines of the given states (every line when none is given), in their order. */
  lines(runId: number, states?: readonly LineState[]): Line[] {
    const raws = states
      ? (this.statement(
          `SELECT * FROM reconcile_lines WHERE run_id = ? AND state IN (${states.map(() => '?').join(', ')}) ORDER BY seq`,
        ).all(runId, ...states) as RawLine[])
      : (this.statement('SELECT * FROM reconcile_lines WHERE run_id = ? ORDER BY seq').all(
          runId,
        ) as RawLine[]);
    return raws.map(toLine);
  }

  counts(runId: number): Record<LineState, number> {
    const counts: Record<LineState, number> = {
      todo: 0,
      agrees: 0,
      differs: 0,
      unreadable: 0,
      'not-askable': 0,
    };
    const raw = this.statement(
      'SELECT state, COUNT(*) AS n FROM reconcile_lines WHERE run_id = ? GROUP BY state',
    ).all(runId) as { state: LineState; n: number }[];
    for (const r of raw) counts[r.state] = r.n;
    return counts;
  }

  /** Several lines' results in one transaction (one commit for all the answers of a moment). */
  record(runId: number, results: readonly { seq: number; result: LineResult }[]): void {
    if (results.length === 0) return;
    const update = this.statement(
      `UPDATE reconcile_lines SET state = ?, attempts = ?, gateway = ?, findings = ?, error = ?, read_at = ?
       WHERE run_id = ? AND seq = ? AND state = 'todo'`,
    );
    this.db
      .transaction(() => {
        const at = now();
        for (const { seq, result: r } of results)
          update.run(r.state, r.attempts, r.gateway, r.findings, r.error, at, runId, seq);
        this.statement('UPDATE reconcile_runs SET updated_at = ? WHERE id = ?').run(at, runId);
      })
      .immediate();
  }
}
