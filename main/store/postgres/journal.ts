// The journal port on a team's PostgreSQL (paydesk.journal, migrations.ts): this class is what the
// services hold, and here live its connections, the order's lock around every write, and who the
// login is. The SQL sits beside it by job: journal-writes.ts (the write-ahead and each state
// move), journal-reads.ts (an entry, an order, what is in flight, a history) and
// journal-search.ts (by a filter: pages, export, totals); the daily close is reports.ts.
// Every desk of the team reads and writes the same journal, so:
// - every write happens under the order's advisory lock (order-lock.ts): a claim holds it for
//   its decision and its write-ahead INSERT, an answer for reading and writing its entry (with
//   the row locked too), so no desk decides on an order while another changes its entries;
// - the operator of an entry, and whoever records an answer or settles by hand, is the login
//   that connected (session_user): the desk's own `operator` is not asked, and the database
//   refuses anything else;
// - each change of an entry is also kept in paydesk.journal_answers, with the desk that saw it;
// - the state machine is ../journal/rules.ts, decided with the row locked, and enforced again
//   by the database's triggers (forward only), so a desk with other code cannot do otherwise.
// Failures come out as StoreError / JournalError (errors.ts), never as raw pg errors.

import type pg from 'pg';

import { csvChunksOfEntries, type CsvChunk } from '../journal/csv';
import { StoreError } from '../errors';
import {
  IN_FLIGHT,
  JournalError,
  type EntryResult,
  type JournalEntry,
  type Page,
} from '../journal/types';
import type { JournalFilter } from '../journal/filter';
import type { ReportLine, SummaryQuery } from '../journal/summary';
import type { JournalTotals } from '../journal/totals';
import { summarise } from './reports';
import {
  acknowledgeRule,
  finishRule,
  markUnknownRule,
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
import type { ConnectionNames } from './advice';
import { toTeamError } from './errors';
import {
  entriesForTarget,
  entriesOfOrder,
  historyOf,
  inFlightEntries,
  readEntry,
  type JournalQuery,
} from './journal-reads';
import { iterateEntries, searchPage, totalsOf } from './journal-search';
import { applyRule, insertEntry, transaction, type AnswerKind } from './journal-writes';
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

  /** A query on the pool, its failures mapped (errors.ts); the reads of journal-*.ts take it. */
  private readonly query: JournalQuery = <R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
  ) => this.guard(() => this.pool.query<R>(text, values));

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
            const claimed = await readEntry(locked, claim.clientOrderId);
            if (claimed) return { claimed };
            const { entry, decided } = decide(await entriesForTarget(locked, claim.orderId));
            checkClaimedEntry(claim, entry);
            return { entry: await insertEntry(locked, this.options.desk, entry), decided };
          },
        ),
      ),
    );
  }

  async begin(entry: NewJournalEntry): Promise<JournalEntry> {
    return this.guard(() =>
      this.withClient((client) =>
        this.underOrderLock(client, entry.profileId, entry.targetOrderId ?? null, 'writing', (c) =>
          insertEntry(c, this.options.desk, entry),
        ),
      ),
    );
  }

  get(clientOrderId: string): Promise<JournalEntry | undefined> {
    return this.guard(() => readEntry(this.pool, clientOrderId));
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

  /** Both answers in one transaction under the order's lock (see JournalPort). */
  acknowledgeAndFinish(
    clientOrderId: string,
    acknowledged: { orderId: string | undefined; result?: EntryResult },
    answer: GatewayAnswer,
  ): Promise<JournalEntry> {
    const { orderId, result } = acknowledged;
    return this.underEntryLock(clientOrderId, async (c) => {
      const seen = await applyRule(
        c,
        this.options.desk,
        clientOrderId,
        acknowledgeRule(orderId, result),
        'answer',
        { ...(orderId ? { orderid: orderId } : {}), ...result },
      );
      if (!IN_FLIGHT.includes(seen.state)) return seen;
      return applyRule(c, this.options.desk, clientOrderId, finishRule(answer), 'answer', {
        status: answer.status,
        ...(answer.orderId ? { orderid: answer.orderId } : {}),
        ...answer.result,
      });
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

  /**
   * Reads the entry, then decides by `rule`, writes and records the answer (journal-writes.ts)
   * in one transaction under the order's lock, with the row locked.
   */
  private transition(
    clientOrderId: string,
    rule: Rule,
    kind: AnswerKind,
    fields: Record<string, string>,
  ): Promise<JournalEntry> {
    return this.underEntryLock(clientOrderId, (c) =>
      applyRule(c, this.options.desk, clientOrderId, rule, kind, fields),
    );
  }

  /** Runs `work` in one transaction under the lock of the order the entry acts on. */
  private underEntryLock(
    clientOrderId: string,
    work: (client: pg.ClientBase) => Promise<JournalEntry>,
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
          work,
        ),
      );
    });
  }

  // ---- reads (journal-reads.ts, journal-search.ts) ----------------------------------------

  inFlight(profileId?: string): Promise<JournalEntry[]> {
    return inFlightEntries(this.query, profileId);
  }

  forTarget(orderId: string): Promise<JournalEntry[]> {
    return this.guard(() => entriesForTarget(this.pool, orderId));
  }

  /** An order's page: what forTarget reads, and the entry that made the order. */
  ofOrder(orderId: string): Promise<JournalEntry[]> {
    return this.guard(() => entriesOfOrder(this.pool, orderId));
  }

  search(filter: JournalFilter = {}, offset = 0, limit = 100): Promise<Page<JournalEntry>> {
    return searchPage(this.query, filter, offset, limit);
  }

  history(clientOrderId: string): Promise<JournalStep[]> {
    return historyOf(this.query, clientOrderId);
  }

  iterate(filter: JournalFilter = {}): AsyncGenerator<JournalEntry> {
    return iterateEntries(this.query, filter);
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

  totals(filter: JournalFilter = {}): Promise<JournalTotals> {
    return totalsOf(this.query, filter);
  }
}
