// Row "reports": the daily close of a month of 100,000 journal entries (Reports -> Daily close,
// issue 26), summed by each store's own SQL through the service the screen calls: on the
// desk's SQLite, and on a team's PostgreSQL when a server can be started here. The reference is
// the least any summary must do: one indexed count of the month's entries on the same database.

import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import pg from 'pg';

import { ReportService } from '../../../main/services/reports/reports';
import { openDatabase } from '../../../main/store/sqlite/database';
import { SqliteJournalPort } from '../../../main/store/sqlite/journal-port';
import { PgJournal } from '../../../main/store/postgres/journal';
import { postgresAvailability, startCluster } from '../../support/postgres';
import { createTeamDatabase } from '../../support/team';
import type { BenchLine, BenchRow } from '../lib/report';
import { interleave, median, ms, now, ratio } from '../lib/stats';

const ENTRIES = 100_000;
const REPS = 5;
/** March 2026 in the bench's zone (the process's: the desk's). */
const MONTH = { from: '2026-03-01', to: '2026-03-31' };
const TARGET_MS = 250;
const ACTIONS = [
  ['capture', 'CAPTURE'],
  ['partial-capture', 'CAPTURE'],
  ['refund', 'RETURN'],
  ['partial-refund', 'RETURN'],
  ['void', 'VOID'],
  ['payout', 'PAYOUT'],
  ['rebill', 'REBILL'],
  ['save-card', 'CARDREF'],
] as const;
const CURRENCIES = ['EUR', 'EUR', 'USD', 'JPY'];
const STATES = [
  ['final', 'approved'],
  ['final', 'approved'],
  ['final', 'approved'],
  ['final', 'declined'],
  ['refused', null],
  ['unknown', null],
] as const;
const OPERATORS = ['ann', 'bob', 'cem', 'dee', 'eve'];

/** The i-th entry of the month: spread evenly over it, every kind, currency and outcome. */
function entryOf(i: number, monthStart: number, monthMs: number) {
  const [action, operation] = ACTIONS[i % ACTIONS.length]!;
  const [state, status] = STATES[i % STATES.length]!;
  return {
    clientOrderId: `pd-bench-report-${i}`,
    action,
    operation,
    state,
    status,
    currency: CURRENCIES[i % CURRENCIES.length]!,
    amount: 100 + ((i * 7919) % 100_000),
    operator: OPERATORS[i % OPERATORS.length]!,
    at: new Date(monthStart + Math.floor((monthMs * i) / ENTRIES)).toISOString(),
  };
}

function monthBounds() {
  const start = new Date(2026, 2, 1).getTime();
  return { start, ms: new Date(2026, 3, 1).getTime() - start };
}

async function timed(
  label: string,
  summary: () => Promise<unknown>,
  reference: () => Promise<unknown>,
  log: (m: string) => void,
): Promise<BenchLine> {
  const time = (work: () => Promise<unknown>) => async () => {
    const start = now();
    await work();
    return now() - start;
  };
  await summary(); // warm-up, untimed
  await reference();
  const runs = await interleave(REPS, time(summary), time(reference));
  const a = median(runs.project);
  const b = median(runs.reference);
  log(`row reports: ${label}: ${ms(a)} (count ${ms(b)})`);
  return {
    figure: `daily close of a month of ${ENTRIES.toLocaleString('en-US')} entries, ${label}`,
    project: ms(a),
    reference: `indexed count of the month: ${ms(b)}`,
    ratio: ratio(a, b),
    target: `<= ${TARGET_MS} ms (issue 26: well under a second)`,
    met: a <= TARGET_MS,
    note: `Reports -> Daily close: ReportService.lines for ${MONTH.from} to ${MONTH.to} (the desk's days) over ${ENTRIES.toLocaleString('en-US')} entries of that month (8 actions, 3 currencies, 5 operators, approved, declined, refused and unknown), grouped and summed by the store's SQL over its journal_report index; median of ${REPS}, interleaved with the reference.`,
  };
}

async function onSqlite(log: (m: string) => void): Promise<BenchLine> {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-bench-reports-'));
  const db = openDatabase(join(dir, 'paydesk.sqlite'));
  // One port, as the app's handlers hold one (its readers' workers live with it).
  const port = new SqliteJournalPort(db);
  try {
    const at = new Date().toISOString();
    db.prepare(
      `INSERT INTO profiles (id, name, environment, base_url, endpoint_id, login, created_at, updated_at)
       VALUES ('bench', 'Bench', 'sandbox', 'http://127.0.0.1:9/paynet', '1111', 'bench', ?, ?)`,
    ).run(at, at);
    const insert = db.prepare(
      `INSERT INTO journal (client_orderid, profile_id, operator, operation, action, amount_minor,
         currency, summary, state, status, created_at, updated_at)
       VALUES (?, 'bench', ?, ?, ?, ?, ?, '{}', ?, ?, ?, ?)`,
    );
    const month = monthBounds();
    db.transaction(() => {
      for (let i = 0; i < ENTRIES; i++) {
        const e = entryOf(i, month.start, month.ms);
        insert.run(
          e.clientOrderId,
          e.operator,
          e.operation,
          e.action,
          e.amount,
          e.currency,
          e.state,
          e.status,
          e.at,
          e.at,
        );
      }
    })();
    db.exec('ANALYZE');
    const reports = new ReportService(() => port);
    const count = db.prepare(
      'SELECT count(*) FROM journal WHERE created_at >= ? AND created_at < ?',
    );
    const [from, to] = [
      new Date(month.start).toISOString(),
      new Date(month.start + month.ms).toISOString(),
    ];
    return await timed(
      'SQLite',
      () => reports.lines(MONTH),
      () => Promise.resolve(count.get(from, to)),
      log,
    );
  } finally {
    await port.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The server runs as another user (test/support/postgres.ts), who cannot enter the bench's own
 * private temp folder: the cluster gets a folder of this row's own in the system's, removed after.
 */
async function clusterOutsideRunDir() {
  const dir = mkdtempSync(join('/tmp', 'paydesk-bench-reports-pg-'));
  chmodSync(dir, 0o755);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    const cluster = await startCluster();
    return {
      cluster,
      stop: async () => {
        await cluster.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  } finally {
    process.env.TMPDIR = before;
  }
}

async function onPostgres(log: (m: string) => void): Promise<BenchLine> {
  const { cluster, stop } = await clusterOutsideRunDir();
  const team = await createTeamDatabase(cluster, 'bench_reports');
  const pool = new pg.Pool({ connectionString: team.urlOf('ann'), max: 2 });
  try {
    const owner = await team.owner();
    await owner.query(
      `INSERT INTO paydesk.profiles (id, name, environment, base_url, endpoint_id, login)
       VALUES ('bench', 'Bench', 'sandbox', 'http://127.0.0.1:9/paynet', '1111', 'bench')`,
    );
    // The journal's triggers stamp created_at with now(): the schema's owner, as a replica, passes them.
    await owner.query('SET session_replication_role = replica');
    const month = monthBounds();
    const rows = Array.from({ length: ENTRIES }, (_, i) => entryOf(i, month.start, month.ms));
    await owner.query(
      `INSERT INTO paydesk.journal (client_orderid, profile_id, desk, operator, operation, action,
         amount_minor, currency, state, status, created_at, updated_at)
       SELECT r.id, 'bench', 'Bench-1', r.operator, r.operation, r.action, r.amount, r.currency,
              r.state, r.status, r.at, r.at
         FROM jsonb_to_recordset($1::jsonb) AS r(id text, operator text, operation text, action text,
              amount bigint, currency text, state text, status text, at timestamptz)`,
      [JSON.stringify(rows.map((r) => ({ ...r, id: r.clientOrderId })))],
    );
    await owner.query('SET session_replication_role = DEFAULT');
    await owner.query('VACUUM ANALYZE paydesk.journal');
    const journal = new PgJournal(pool, { desk: 'Bench-1', where: 'the bench cluster' });
    const reports = new ReportService(() => journal);
    const [from, to] = [
      new Date(month.start).toISOString(),
      new Date(month.start + month.ms).toISOString(),
    ];
    return await timed(
      'PostgreSQL',
      () => reports.lines(MONTH),
      () =>
        pool.query(
          'SELECT count(*) FROM paydesk.journal WHERE created_at >= $1 AND created_at < $2',
          [from, to],
        ),
      log,
    );
  } finally {
    await pool.end();
    await team.close();
    await stop();
  }
}

export const reportsRow: BenchRow = {
  id: 'reports',
  title: 'daily close of a month',
  async run(context) {
    const lines = [await onSqlite(context.log)];
    const postgres = postgresAvailability();
    if (!postgres.usable) {
      context.log(`row reports: no PostgreSQL figure: ${postgres.reason}`);
      return lines;
    }
    try {
      lines.push(await onPostgres(context.log));
    } catch (error) {
      // The SQLite figure stands on its own when the server cannot be started here.
      lines.push({
        figure: `daily close of a month of ${ENTRIES.toLocaleString('en-US')} entries, PostgreSQL`,
        project: 'failed',
        reference: '',
        ratio: '',
        target: '',
        note: `PostgreSQL: ${error instanceof Error ? error.message : String(error)}`,
      });
    }
    return lines;
  },
};
