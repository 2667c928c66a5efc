// The team's PostgreSQL journal as the services see it: PgJournal, used only once the database
// has been checked (the server answers, the login is in a Paydesk group, the schema is the one
// this Paydesk knows). Until then every call is refused with what the check said, so a desk that
// started while the database was away sends nothing it could not journal; the first call after
// the database is back checks again and goes through, without a restart.

import type { JournalTotals } from '../../store/journal/totals';
import type { CsvChunk } from '../../store/journal/csv';
import type { StoreError } from '../../store/errors';
import type {
  ClaimDecision,
  ClaimResult,
  EntryResult,
  HandSettlement,
  GatewayAnswer,
  JournalEntry,
  JournalFilter,
  JournalPort,
  JournalProblem,
  JournalStep,
  NewJournalEntry,
  OrderClaim,
  Page,
  ReportLine,
  SummaryQuery,
} from '../../store/journal/port';
import type { TeamConnection } from '../../store/postgres/connect';

export interface TeamFound {
  login: string;
  roles: string[];
  schemaVersion: number;
}

export type Refreshed = { ok: true; found: TeamFound } | { ok: false; error: StoreError };

export class TeamJournalPort implements JournalPort {
  readonly store = 'postgres' as const;
  private checked = false;
  private running: Promise<Refreshed> | undefined;

  constructor(private readonly connection: TeamConnection) {}

  /** Checks the database again (one check at a time); remembers whether it passed. */
  refresh(): Promise<Refreshed> {
    this.running ??= this.connection
      .check()
      .then(
        (found): Refreshed => {
          this.checked = true;
          return { ok: true, found };
        },
        (error: unknown): Refreshed => {
          this.checked = false;
          return { ok: false, error: error as StoreError };
        },
      )
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** The journal, once checked; otherwise checked now, or refused with the check's sentence. */
  private async journal() {
    if (!this.checked) {
      const now = await this.refresh();
      if (!now.ok) throw now.error;
    }
    return this.connection.journal;
  }

  async requireWritable(action: string): Promise<void> {
    return (await this.journal()).requireWritable(action);
  }
  async claim<T>(claim: OrderClaim, decide: ClaimDecision<T>): Promise<ClaimResult<T>> {
    return (await this.journal()).claim(claim, decide);
  }
  async begin(entry: NewJournalEntry): Promise<JournalEntry> {
    return (await this.journal()).begin(entry);
  }
  async get(clientOrderId: string): Promise<JournalEntry | undefined> {
    return (await this.journal()).get(clientOrderId);
  }
  async acknowledge(
    clientOrderId: string,
    orderId: string | undefined,
    result?: EntryResult,
  ): Promise<JournalEntry> {
    return (await this.journal()).acknowledge(clientOrderId, orderId, result);
  }
  async finish(clientOrderId: string, answer: GatewayAnswer): Promise<JournalEntry> {
    return (await this.journal()).finish(clientOrderId, answer);
  }
  async acknowledgeAndFinish(
    clientOrderId: string,
    acknowledged: { orderId: string | undefined; result?: EntryResult },
    answer: GatewayAnswer,
  ): Promise<JournalEntry> {
    return (await this.journal()).acknowledgeAndFinish(clientOrderId, acknowledged, answer);
  }
  async refuse(clientOrderId: string, error: JournalProblem): Promise<JournalEntry> {
    return (await this.journal()).refuse(clientOrderId, error);
  }
  async markUnknown(clientOrderId: string, error: JournalProblem): Promise<JournalEntry> {
    return (await this.journal()).markUnknown(clientOrderId, error);
  }
  async settleByHand(clientOrderId: string, settlement: HandSettlement): Promise<JournalEntry> {
    return (await this.journal()).settleByHand(clientOrderId, settlement);
  }
  async lease(clientOrderId: string, lease: { owner: string; until: Date } | null): Promise<void> {
    return (await this.journal()).lease(clientOrderId, lease);
  }
  async inFlight(profileId?: string): Promise<JournalEntry[]> {
    return (await this.journal()).inFlight(profileId);
  }
  async forTarget(orderId: string): Promise<JournalEntry[]> {
    return (await this.journal()).forTarget(orderId);
  }
  async ofOrder(orderId: string): Promise<JournalEntry[]> {
    return (await this.journal()).ofOrder(orderId);
  }
  async search(
    filter?: JournalFilter,
    offset?: number,
    limit?: number,
  ): Promise<Page<JournalEntry>> {
    return (await this.journal()).search(filter, offset, limit);
  }
  async *iterate(filter?: JournalFilter): AsyncIterable<JournalEntry> {
    yield* (await this.journal()).iterate(filter);
  }
  async *csvChunks(
    filter: JournalFilter,
    size: number,
    profileName?: (id: string) => string,
  ): AsyncIterable<CsvChunk> {
    yield* (await this.journal()).csvChunks(filter, size, profileName);
  }
  async totals(filter?: JournalFilter): Promise<JournalTotals> {
    return (await this.journal()).totals(filter);
  }
  async history(clientOrderId: string): Promise<JournalStep[]> {
    return (await this.journal()).history(clientOrderId);
  }
  async summary(query: SummaryQuery): Promise<ReportLine[]> {
    return (await this.journal()).summary(query);
  }
}

/** Team settings this desk cannot use at all (no password in the keychain...): every call refused. */
export class UnopenedTeamPort implements JournalPort {
  readonly store = 'postgres' as const;

  constructor(private readonly error: StoreError) {}

  private refused(): Promise<never> {
    return Promise.reject(this.error);
  }
  requireWritable(): Promise<void> {
    return this.refused();
  }
  claim<T>(): Promise<ClaimResult<T>> {
    return this.refused();
  }
  begin(): Promise<JournalEntry> {
    return this.refused();
  }
  get(): Promise<JournalEntry | undefined> {
    return this.refused();
  }
  acknowledge(): Promise<JournalEntry> {
    return this.refused();
  }
  finish(): Promise<JournalEntry> {
    return this.refused();
  }
  acknowledgeAndFinish(): Promise<JournalEntry> {
    return this.refused();
  }
  refuse(): Promise<JournalEntry> {
    return this.refused();
  }
  markUnknown(): Promise<JournalEntry> {
    return this.refused();
  }
  settleByHand(): Promise<JournalEntry> {
    return this.refused();
  }
  lease(): Promise<void> {
    return this.refused();
  }
  inFlight(): Promise<JournalEntry[]> {
    return this.refused();
  }
  forTarget(): Promise<JournalEntry[]> {
    return this.refused();
  }
  ofOrder(): Promise<JournalEntry[]> {
    return this.refused();
  }
  search(): Promise<Page<JournalEntry>> {
    return this.refused();
  }
  history(): Promise<JournalStep[]> {
    return this.refused();
  }
  totals(): Promise<JournalTotals> {
    return this.refused();
  }
  summary(): Promise<ReportLine[]> {
    return this.refused();
  }
  iterate(): AsyncIterable<JournalEntry> {
    return this.refusedIteration();
  }
  csvChunks(): AsyncIterable<CsvChunk> {
    return this.refusedIteration();
  }
  private refusedIteration<T>(): AsyncIterable<T> {
    const error = this.error;
    return { [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(error) }) };
  }
}
