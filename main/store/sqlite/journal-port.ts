// The journal port on the desk's embedded SQLite: main/store/sqlite/journal.ts as it is, answering at
// once. claim() is what OrderService does today: the rules and the entry in one IMMEDIATE
// transaction, so a second window or process on the same file sees the first entry as pending.

import { requireWritable, type Db } from './database';
import type { CsvChunk } from '../journal/csv';
import { WalSync } from './durability';
import { GroupCommit, NotDurableError } from './group-commit';
import { snapshotCsvChunks, startExportThread } from './journal-export';
import { ExportThread } from './journal-export-thread';
import { Journal } from './journal';
import { JournalReader, type ReaderOptions } from './journal-reader';
import type { EntryResult, JournalEntry } from '../journal/types';
import type { JournalFilter } from '../journal/filter';
import type { SummaryQuery } from '../journal/summary';
import { summarise } from './reports';
import {
  checkClaimedEntry,
  type ClaimDecision,
  type ClaimResult,
  type HandSettlement,
  type GatewayAnswer,
  type JournalPort,
  type JournalProblem,
  type OrderClaim,
  type PreparedExport,
} from '../journal/port';

/** An export prepared with nothing started (a journal too small to share its export). */
const NOTHING_PREPARED: PreparedExport = { end: () => undefined };

/** The answer of a synchronous call, its throw as a rejection (as a real async store's). */
function at<T>(work: () => T): Promise<T> {
  return new Promise<T>((resolve) => resolve(work()));
}

export class SqliteJournalPort implements JournalPort {
  readonly store = 'sqlite' as const;

  private readonly claims: GroupCommit;
  /** Answers recorded at the same moment share one transaction, committed without an fsync. */
  private readonly answers: GroupCommit;
  /** A large journal's pages, totals and daily close, read off the main thread. */
  private readonly reader: JournalReader;

  /**
   * `syncWal`, `syncWalNow`: how the WAL file is synced to disk, on libuv's pool and on this
   * thread (durability.ts WalSync); tests hold or fail them. `syncWal` given alone: every
   * write-ahead is synced by it, none on this thread. `reader`: when the long reads go to a
   * worker (journal-reader.ts).
   */
  constructor(
    private readonly db: Db,
    readonly journal: Journal = new Journal(db),
    options: {
      syncWal?: (path: string) => Promise<void>;
      syncWalNow?: (path: string) => void;
      reader?: ReaderOptions;
    } = {},
  ) {
    this.reader = new JournalReader(db, options.reader);
    const walSync = WalSync.of(db, options.syncWal, options.syncWalNow);
    this.claims = new GroupCommit(db, { durable: true, ...(walSync ? { walSync } : {}) });
    this.answers = new GroupCommit(db, { durable: false });
  }

  requireWritable(action: string): Promise<void> {
    return at(() => requireWritable(this.db, action));
  }

  /**
   * Claims decided at the same moment share one IMMEDIATE transaction and one fsync
   * (group-commit.ts); each resolves once its entry is on disk. A claim alone is committed and
   * synced at once.
   */
  async claim<T>(claim: OrderClaim, decide: ClaimDecision<T>): Promise<ClaimResult<T>> {
    try {
      return await this.claims.run(
        (): ClaimResult<T> => {
          const claimed = this.journal.get(claim.clientOrderId);
          if (claimed) return { claimed };
          const { entry, decided } = decide(this.journal.forTarget(claim.orderId));
          checkClaimedEntry(claim, entry);
          return { entry: this.journal.begin(entry), decided };
        },
        { alone: claim.alone === true },
      );
    } catch (error) {
      // Written but not known to be on disk: its request will not leave, so the entry says
      // so (refused, not sent) rather than stay in flight as if it might have. Should that
      // write fail too, the entry stays in flight, asked about by `status` at the next start.
      if (error instanceof NotDurableError) {
        const committed = error.committed as ClaimResult<T>;
        if ('entry' in committed && committed.entry) {
          const problem = { code: 'NOT_SENT', message: error.message };
          await this.refuse(committed.entry.clientOrderId, problem).catch(() => undefined);
        }
      }
      throw error;
    }
  }

  begin(entry: Parameters<Journal['begin']>[0]): Promise<JournalEntry> {
    return at(() => this.journal.begin(entry));
  }

  get(clientOrderId: string): Promise<JournalEntry | undefined> {
    return at(() => this.journal.get(clientOrderId));
  }

  acknowledge(
    clientOrderId: string,
    orderId: string | undefined,
    result?: EntryResult,
  ): Promise<JournalEntry> {
    return this.answers.run(() => this.journal.acknowledge(clientOrderId, orderId, result));
  }

  finish(clientOrderId: string, answer: GatewayAnswer): Promise<JournalEntry> {
    return this.answers.run(() => this.journal.finish(clientOrderId, answer));
  }

  acknowledgeAndFinish(
    clientOrderId: string,
    acknowledged: { orderId: string | undefined; result?: EntryResult },
    answer: GatewayAnswer,
  ): Promise<JournalEntry> {
    return this.answers.run(() =>
      this.journal.acknowledgeAndFinish(clientOrderId, acknowledged, answer),
    );
  }

  refuse(clientOrderId: string, error: JournalProblem): Promise<JournalEntry> {
    return this.answers.run(() => this.journal.refuse(clientOrderId, error));
  }

  markUnknown(clientOrderId: string, error: JournalProblem): Promise<JournalEntry> {
    return this.answers.run(() => this.journal.markUnknown(clientOrderId, error));
  }

  settleByHand(clientOrderId: string, settlement: HandSettlement): Promise<JournalEntry> {
    return at(() => this.journal.settleByHand(clientOrderId, settlement));
  }

  lease(clientOrderId: string, lease: { owner: string; until: Date } | null): Promise<void> {
    return at(() => this.journal.lease(clientOrderId, lease));
  }

  inFlight(profileId?: string): Promise<JournalEntry[]> {
    return at(() => this.journal.inFlight(profileId));
  }

  forTarget(orderId: string): Promise<JournalEntry[]> {
    return at(() => this.journal.forTarget(orderId));
  }

  ofOrder(orderId: string): Promise<JournalEntry[]> {
    return at(() => this.journal.ofOrder(orderId));
  }

  search(filter: JournalFilter = {}, offset = 0, limit = 100) {
    return this.reader.search({ filter, offset, limit }, () =>
      this.journal.search(filter, offset, limit),
    );
  }

  totals(filter: JournalFilter = {}) {
    return this.reader.totals(filter, () => this.journal.totals(filter));
  }

  history(clientOrderId: string) {
    return at(() => this.journal.history(clientOrderId));
  }

  /**
   * Read whole before the first yield: better-sqlite3 keeps the connection busy while a
   * statement iterates, so a caller awaiting another journal call between rows would fail.
   * (A keyset page in journal.ts would stream; it can come when the services move here.)
   */
  async *iterate(filter?: JournalFilter): AsyncGenerator<JournalEntry> {
    const all = await at(() => [...this.journal.iterate(filter)]);
    yield* all;
  }

  /**
   * One snapshot of the journal as UTF-8 CSV chunks, on the export's own connection; `prepared`
   * from prepareCsvExport (its worker thread, started while the file was chosen).
   */
  csvChunks(
    filter: JournalFilter,
    size: number,
    profileName?: (id: string) => string,
    prepared?: PreparedExport,
  ): AsyncIterable<CsvChunk> {
    const thread = prepared instanceof ExportThread ? prepared : undefined;
    return snapshotCsvChunks(this.db, filter, size, profileName, thread && { thread });
  }

  /** The export's worker thread, when the journal is large enough to share the export. */
  prepareCsvExport(): PreparedExport {
    return startExportThread(this.db) ?? NOTHING_PREPARED;
  }

  summary(query: SummaryQuery) {
    return this.reader.summary(query, () => summarise(this.db, query));
  }

  /** Ends the reads' workers, if any run (the database is closed after). */
  close(): Promise<void> {
    return this.reader.close();
  }
}
