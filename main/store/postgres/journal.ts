// The journal port on a team's PostgreSQL (paydesk.journal, migrations.ts). Every desk of the
// team reads and writes the same journal, so:
// - every write happens under the order's advisory lock (order-lock.ts): a claim holds it for
//   its decision and its write-ahead INSERT, an answer for reading and writing its entry (with
//   the row locked too), so no desk decides on an order while another changes its entries;
// - the operator of an entry, and whoever records an answer or settles by hand, is the login
//   that connected (session_user): the desk's own `operator` is not asked, and the database
//   refuses anything else;
// - each change of an entry is also kept in paydesk.journal_answers, with the desk that saw it;
// - the state machine is journal-rules.ts, decided here with the row locked, and enforced again
//   by the database's triggers (forward only), so a desk with other code cannot do otherwise.
// Failures come out as StoreError / JournalError (errors.ts), never as raw pg errors.

import type pg from 'pg';

import { csvChunksOfEntries, type CsvChunk } from '../journal/csv';
import { StoreError } from '../errors';
import { JournalError, type EntryResult, type JournalEntry, type Page } from '../journal/types';
import type { JournalFilter } from '../journal/filter';
import type { ReportLine, SummaryQuery } from '../journal/summary';
import { summarise } from './reports';
import {
  acknowledgeRule,
  finishRule,
  illegalMove,
  markUnknownRule,
  refuseCardData,
  refuseRule,
  settleByHandRule,
  type Rule,
} from '../journal/rules';
import {
  checkClaimedEntry,
  type ClaimDecision,
  type ClaimResult,
  type HandSettlement,
  type GatewayAnswer,
  type JournalPort,
  type JournalProblem,
  type JournalStep,
  type NewJournalEntry,
  type OrderClaim,
} from '../journal/port';
import { escapeLike, filterConditions, IN_FLIGHT_SQL, whereOf } from '../journal/filter';
import { entryOfRow, type JournalRow } from '../journal/row';
import {
  totalsGroupsSql,
  totalsOfGroups,
  type JournalTotals,
  type TotalsGroup,
} from '../journal/totals';
import { cardLastFourOf, redactFields } from '../journal/redact';
import type { ConnectionNames } from './advice';
import { toTeamError } from './errors';
import { OrderBusyError, withOrderLock, type OrderRef } from './order-lock';

export interface PgJournalOptions {
  /** This desk's name: stored with each entry and answer, shown to a desk finding an order busy. */
  desk: string;
  /** The server, for messages ("PostgreSQL at db.example.com:5432"). */
  where: string;
  /** The login and database this desk connects with, for what-to-fix sentences (advice.ts). */
  names?: ConnectionNames;
  /**
   * How long a claim waits for another desk holding the order before it is refused naming them
   * (default 2 s: a desk holds an order only for its decision and write-ahead, or to record an
   * answer, milliseconds each; one still holding it after that is named).
   */
  claimWaitMs?: number;
  /** How long recording an answer waits for another desk holding the order (default 5 s). */
  answerWaitMs?: number;
}

/** What journal_answers calls each kind of change. */
type AnswerKind = 'answer' | 'error' | 'by-hand';

const PAGE = 500;
/** Claims of an order found held by a holder already gone, before the order counts as busy. */
const CLAIM_TRIES = 3;
const DEFAULT_CLAIM_WAIT_MS = 2_000;

export class PgJournal implements JournalPort {
  readonly store = 'postgres' as const;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: PgJournalOptions,
  ) {
    // An idle connection the server dropped (restart, network): the pool replaces it; whoever
    // uses the journal next gets a StoreError 'UNREACHABLE' if the server is still away.
    pool.on('error', () => undefined);
  }

  // ---- connections ----------------------------------------------------------------------

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toTeamError(error, this.options.where, this.options.names);
    }
  }

  /** One pooled connection for `work`; a connection that failed is closed, not reused. */
  private async withClient<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let lost: Error | undefined;
    // Between two queries the server may go away; pg then emits 'error' on the checked-out
    // client, which with no listener would end the process.
    const onError = (error: Error) => {
      lost = error;
    };
    client.on('error', onError);
    try {
      return await work(client);
    } catch (error) {
      const mapped = toTeamError(error, this.options.where, this.options.names);
      if (mapped instanceof StoreError && mapped.code === 'UNREACHABLE') lost ??= error as Error;
      throw error;
    } finally {
      client.off('error', onError);
      client.release(lost);
    }
  }

  private query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
    return this.guard(() => this.pool.query<R>(text, values));
  }

  // ---- writes ---------------------------------------------------------------------------

  async claim<T>(claim: OrderClaim, decide: ClaimDecision<T>): Promise<ClaimResult<T>> {
    // A holder that finished before it could be named held the order for its few milliseconds
    // of decision and write-ahead, and it is free now: try again (a few times) rather than
    // refuse the clerk with nobody to name. The next try counts what that holder wrote.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.claimOnce(claim, decide);
      } catch (error) {
        if (!(error instanceof OrderBusyError) || error.holder !== null || attempt >= CLAIM_TRIES)
          throw error;
      }
    }
  }

  private claimOnce<T>(claim: OrderClaim, decide: ClaimDecision<T>): Promise<ClaimResult<T>> {
    return this.guard(() =>
      this.withClient((client) =>
        withOrderLock(
          client,
          { profileId: claim.profileId, orderId: claim.orderId },
          {
            desk: this.options.desk,
            action: claim.action,
            waitMs: this.options.claimWaitMs ?? DEFAULT_CLAIM_WAIT_MS,
          },
          async (locked): Promise<ClaimResult<T>> => {
            const claimed = await read(locked, claim.clientOrderId);
            if (claimed) return { claimed };
            const { entry, decided } = decide(await forTarget(locked, claim.orderId));
            checkClaimedEntry(claim, entry);
            return { entry: await this.insert(locked, entry), decided };
          },
        ),
      ),
    );
  }

  async begin(entry: NewJournalEntry): Promise<JournalEntry> {
    return this.guard(() =>
      this.withClient((client) =>
        this.underOrderLock(client, entry.profileId, entry.targetOrderId ?? null, 'writing', (c) =>
          this.insert(c, entry),
        ),
      ),
    );
  }

  get(clientOrderId: string): Promise<JournalEntry | undefined> {
    return this.guard(() => read(this.pool, clientOrderId));
  }

  acknowledge(
    clientOrderId: string,
    orderId: string | undefined,
    result?: EntryResult,
  ): Promise<JournalEntry> {
    return this.transition(clientOrderId, acknowledgeRule(orderId, result), 'answer', {
      ...(orderId ? { orderid: orderId } : {}),
      ...result,
    });
  }

  finish(clientOrderId: string, answer: GatewayAnswer): Promise<JournalEntry> {
    return this.transition(clientOrderId, finishRule(answer), 'answer', {
      status: answer.status,
      ...(answer.orderId ? { orderid: answer.orderId } : {}),
      ...answer.result,
    });
  }

  refuse(clientOrderId: string, error: JournalProblem): Promise<JournalEntry> {
    return this.transition(clientOrderId, refuseRule(error), 'error', {});
  }

  markUnknown(clientOrderId: string, error: JournalProblem): Promise<JournalEntry> {
    return this.transition(clientOrderId, markUnknownRule(error), 'error', {});
  }

  async settleByHand(clientOrderId: string, settlement: HandSettlement): Promise<JournalEntry> {
    // Whoever the desk says settles it, the database records the login that did.
    const by = await this.login();
    return this.transition(
      clientOrderId,
      settleByHandRule(clientOrderId, { ...settlement, by }),
      'by-hand',
      { outcome: settlement.outcome },
    );
  }

  async lease(clientOrderId: string, lease: { owner: string; until: Date } | null): Promise<void> {
    await this.query(
      'UPDATE paydesk.journal SET lease_owner = $2, lease_until = $3 WHERE client_orderid = $1',
      [clientOrderId, lease?.owner ?? null, lease?.until ?? null],
    );
  }

  /** Who this desk's person is, as the database sees them (paydesk.me): login and groups. */
  async me(): Promise<{ login: string; roles: string[] }> {
    const { rows } = await this.query<{ login: string; roles: string[] }>(
      'SELECT login, roles FROM paydesk.me',
    );
    return rows[0] ?? { login: await this.login(), roles: [] };
  }

  async requireWritable(action: string): Promise<void> {
    const { login, roles } = await this.me();
    if (roles.includes('paydesk_finance')) return;
    const groups = roles.length ? `is in ${roles.join(' and ')}` : 'is in no Paydesk group';
    throw new StoreError(
      'NOT_ALLOWED',
      `Your team login ${login} ${groups}, so it cannot ${action}: only paydesk_finance moves money. Nothing was sent or changed. Ask your database administrator if you should be in paydesk_finance.`,
    );
  }

  private loginName: string | undefined;

  /** The database login this desk's person connected as. */
  async login(): Promise<string> {
    if (this.loginName === undefined) {
      const { rows } = await this.query<{ login: string }>('SELECT session_user AS login');
      this.loginName = rows[0]?.login ?? '';
    }
    return this.loginName;
  }

  /** Runs `work` in a transaction holding the order's lock (a bare transaction with no order). */
  private underOrderLock<T>(
    client: pg.PoolClient,
    profileId: string,
    orderId: string | null,
    action: string,
    work: (client: pg.ClientBase) => Promise<T>,
  ): Promise<T> {
    if (orderId === null) return transaction(client, work);
    const order: OrderRef = { profileId, orderId };
    return withOrderLock(
      client,
      order,
      { desk: this.options.desk, action, waitMs: this.options.answerWaitMs ?? 5_000 },
      work,
    );
  }

  private async insert(client: pg.ClientBase, entry: NewJournalEntry): Promise<JournalEntry> {
    refuseCardData(entry);
    try {
      const { rows } = await client.query<JournalRow>(
        `INSERT INTO paydesk.journal (client_orderid, profile_id, desk, operation, target_orderid,
           amount_minor, currency, reason, note, email, summary, lease_owner, lease_until,
           target_client_orderid, action, changed_elsewhere, card_last_four)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
         RETURNING *`,
        [
          entry.clientOrderId,
          entry.profileId,
          this.options.desk,
          entry.operation,
          entry.targetOrderId ?? null,
          entry.amountMinor === undefined ? null : entry.amountMinor.toString(),
          entry.currency ?? null,
          entry.reason ?? null,
          entry.note ?? null,
          entry.email ?? null,
          JSON.stringify(redactFields(entry.fields)),
          entry.lease?.owner ?? null,
          entry.lease?.until ?? null,
          entry.targetClientOrderId ?? null,
          entry.action ?? null,
          entry.changedElsewhere ?? false,
          cardLastFourOf(entry.cardLastFour, entry.fields),
        ],
      );
      return entryOfRow(rows[0] as JournalRow);
    } catch (error) {
      const e = error as { code?: string; constraint?: string };
      if (e.code === '23505' && e.constraint === 'journal_client_orderid_key') {
        throw new JournalError(
          `client_orderid ${entry.clientOrderId} is already in the journal; every operation needs a fresh one.`,
        );
      }
      throw error;
    }
  }

  /**
   * Reads the entry with its row locked, decides by `rule`, writes, and records the answer, in
   * one transaction under the order's lock. The database's triggers check the move again.
   */
  private transition(
    clientOrderId: string,
    rule: Rule,
    kind: AnswerKind,
    fields: Record<string, string>,
  ): Promise<JournalEntry> {
    return this.guard(async () => {
      // The order an entry acts on never changes, so it can be read before taking its lock.
      const first = await this.get(clientOrderId);
      if (!first) throw new JournalError(`No journal entry for client_orderid ${clientOrderId}.`);
      return this.withClient((client) =>
        this.underOrderLock(
          client,
          first.profileId,
          first.targetOrderId,
          'recording an answer on',
          async (c) => {
            const { rows } = await c.query<JournalRow>(
              'SELECT * FROM paydesk.journal WHERE client_orderid = $1 FOR UPDATE',
              [clientOrderId],
            );
            const current = entryOfRow(rows[0] as JournalRow);
            const set = rule.decide(current);
            if (set === 'same') return current;
            if (set === 'illegal') throw illegalMove(clientOrderId, current, rule.to);
            // COALESCE keeps an orderid learned earlier when a later answer does not repeat it;
            // settled_by is the login, whatever the desk said.
            const values: unknown[] = [clientOrderId];
            const assignments = Object.entries(set).map(([column, value]) => {
              if (column === 'settled_by') return 'settled_by = session_user';
              values.push(value);
              if (column === 'result') return `result = $${values.length}::jsonb`;
              return column === 'orderid'
                ? `orderid = COALESCE($${values.length}, orderid)`
                : `${column} = $${values.length}`;
            });
            const updated = await c.query<JournalRow>(
              `UPDATE paydesk.journal SET ${assignments.join(', ')} WHERE client_orderid = $1 RETURNING *`,
              values,
            );
            const after = updated.rows[0] as JournalRow;
            await c.query(
              `INSERT INTO paydesk.journal_answers (journal_id, kind, state, status, fields, error_code,
                 error_message, desk) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
              [
                after.id,
                kind,
                after.state,
                after.status,
                JSON.stringify({
                  ...fields,
                  ...(after.settle_reason ? { reason: after.settle_reason } : {}),
                }),
                set.error_code ?? null,
                set.error_message ?? null,
                this.options.desk,
              ],
            );
            return entryOfRow(after);
          },
        ),
      );
    });
  }

  // ---- reads ----------------------------------------------------------------------------

  async inFlight(profileId?: string): Promise<JournalEntry[]> {
    const { rows } = await this.query<JournalRow>(
      `SELECT * FROM paydesk.journal WHERE ${IN_FLIGHT_SQL}
       ${profileId ? 'AND profile_id = $1' : ''} ORDER BY id`,
      profileId ? [profileId] : [],
    );
    return rows.map(entryOfRow);
  }

  forTarget(orderId: string): Promise<JournalEntry[]> {
    return this.guard(() => forTarget(this.pool, orderId));
  }

  /** An order's page: what forTarget reads, and the entry that made the order. */
  ofOrder(orderId: string): Promise<JournalEntry[]> {
    return this.guard(async () => {
      const { rows } = await this.pool.query<JournalRow>(
        'SELECT * FROM paydesk.journal WHERE target_orderid = $1 OR orderid = $1 ORDER BY id',
        [orderId],
      );
      return rows.map(entryOfRow);
    });
  }

  /**
   * One page, newest first. A page in the older half is counted from the oldest entry (and put
   * newest first): OFFSET steps over every row before the page, so the last page of a million
   * entries steps over none, not a million, and no page steps over more than half the matches.
   */
  async search(filter: JournalFilter = {}, offset = 0, limit = 100): Promise<Page<JournalEntry>> {
    const { where, values } = whereClause(filter);
    const counted = await this.query<{ n: string }>(
      `SELECT COUNT(*) AS n FROM paydesk.journal ${where}`,
      values,
    );
    const total = Number(counted.rows[0]?.n ?? 0);
    const skip = Math.max(0, offset);
    const take = Math.min(Math.max(1, Math.min(limit, 1000)), total - skip);
    if (take <= 0) return { rows: [], total, offset, limit };
    const older = total - skip - take; // matches older than the page
    const fromOldest = older < skip;
    const { rows } = await this.query<JournalRow>(
      `SELECT * FROM paydesk.journal ${where} ORDER BY id ${fromOldest ? 'ASC' : 'DESC'}
       LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
      [...values, take, fromOldest ? older : skip],
    );
    if (fromOldest) rows.reverse();
    return { rows: rows.map(entryOfRow), total, offset, limit };
  }

  /**
   * The write-ahead as the first step, then every change any desk recorded (journal_answers),
   * oldest first: the same steps the SQLite journal's history trigger keeps.
   */
  async history(clientOrderId: string): Promise<JournalStep[]> {
    const { rows } = await this.query<{
      state: JournalEntry['state'];
      status: string | null;
      orderid: string | null;
      error_code: string | null;
      error_message: string | null;
      at: Date;
    }>(
      `SELECT 'sending' AS state, NULL AS status, NULL AS orderid, NULL AS error_code,
              NULL AS error_message, j.created_at AS at, 0 AS step, 0::bigint AS id
         FROM paydesk.journal j WHERE j.client_orderid = $1
       UNION ALL
       SELECT a.state, a.status, COALESCE(a.fields->>'orderid', j.orderid), a.error_code,
              a.error_message, a.received_at, 1, a.id
         FROM paydesk.journal_answers a JOIN paydesk.journal j ON j.id = a.journal_id
        WHERE j.client_orderid = $1
       ORDER BY step, id`,
      [clientOrderId],
    );
    return rows.map((r) => ({
      state: r.state,
      status: r.status,
      orderId: r.orderid,
      errorCode: r.error_code,
      errorMessage: r.error_message,
      at: r.at.toISOString(),
    }));
  }

  /** Newest first, a page at a time by id, so entries written meanwhile neither repeat nor hide others. */
  async *iterate(filter: JournalFilter = {}): AsyncGenerator<JournalEntry> {
    const { where, values } = whereClause(filter);
    let before: JournalRow['id'] | undefined;
    for (;;) {
      const bound =
        before === undefined ? '' : `${where ? 'AND' : 'WHERE'} id < $${values.length + 1}`;
      const { rows } = await this.query<JournalRow>(
        `SELECT * FROM paydesk.journal ${where} ${bound} ORDER BY id DESC LIMIT ${PAGE}`,
        before === undefined ? values : [...values, before],
      );
      for (const row of rows) yield entryOfRow(row);
      if (rows.length < PAGE) return;
      before = rows[rows.length - 1]?.id;
    }
  }

  summary(query: SummaryQuery): Promise<ReportLine[]> {
    return this.guard(() => summarise(this.pool, query));
  }

  csvChunks(
    filter: JournalFilter,
    size: number,
    profileName?: (id: string) => string,
  ): AsyncIterable<CsvChunk> {
    const count = async () => (await this.search(filter, 0, 1)).total;
    return csvChunksOfEntries(this.iterate(filter), size, count, profileName);
  }

  /** The filter's totals per currency and action (journal/totals.ts), from PostgreSQL's groups. */
  async totals(filter: JournalFilter = {}): Promise<JournalTotals> {
    const { where, values } = whereClause(filter);
    const { rows } = await this.query<TotalsGroup>(
      totalsGroupsSql('paydesk.journal', where),
      values,
    );
    return totalsOfGroups(rows);
  }
}

async function read(client: pg.ClientBase | pg.Pool, clientOrderId: string) {
  const { rows } = await client.query<JournalRow>(
    'SELECT * FROM paydesk.journal WHERE client_orderid = $1',
    [clientOrderId],
  );
  return rows[0] ? entryOfRow(rows[0]) : undefined;
}

async function forTarget(client: pg.ClientBase | pg.Pool, orderId: string) {
  const { rows } = await client.query<JournalRow>(
    'SELECT * FROM paydesk.journal WHERE target_orderid = $1 ORDER BY id',
    [orderId],
  );
  return rows.map(entryOfRow);
}

async function transaction<T>(
  client: pg.ClientBase,
  work: (client: pg.ClientBase) => Promise<T>,
): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** The filter's WHERE in PostgreSQL's words (journal-filter.ts says what each field means). */
function whereClause(filter: JournalFilter): { where: string; values: string[] } {
  const values: string[] = [];
  const where = whereOf(
    filterConditions(filter, {
      bind(_field, value) {
        values.push(value);
        return `$${values.length}`;
      },
      // SQLite's NOCASE folds ASCII letters only; lower() on ASCII e-mail addresses does the same.
      equalsIgnoringCase: (column, p) => `lower(${column}) = lower(${p})`,
      time: (p) => `${p}::timestamptz`,
      integer: (p) => `${p}::bigint`,
      // LIKE keeps letter case, as SQLite's GLOB does; a text_pattern_ops index serves it.
      startsWith(column, _name, value) {
        values.push(`${escapeLike(value)}%`);
        return `${column} LIKE $${values.length} ESCAPE '\\'`;
      },
      likeIgnoringCase: (column, p) => `lower(${column}) LIKE lower(${p}) ESCAPE '\\'`,
    }),
  );
  return { where, values };
}
