// The journal as the Journal screen reads it: searched and paged, amounts as exact text, each
// entry's profile by name, totals per currency of what a filter shows, and exported to CSV (its
// totals in a summary file beside it). Nobody edits or deletes an entry from here. It reads the journal port, so the
// same screen works on the desk's SQLite and on a team's PostgreSQL (every desk's entries); on
// SQLite the export takes the adapter's fast path (raw rows to CSV text, journal-pages.ts).

import { formatMinor } from '../gateway/amount';
import { CSV_COLUMN_NAMES, totalsCsvLines } from '../store/journal/csv';
import type { JournalTotals, Sum } from '../store/journal/totals';
import { csvLineWriter } from '../store/csv-record';
import type { FileChunk } from '../files';
import type {
  JournalEntry,
  JournalFilter,
  JournalPort,
  PreparedExport,
} from '../store/journal/port';
import { actionLabel } from '../../common/journal-actions';
import { ServiceError } from './errors';

/** Lines per chunk of a CSV export: about 190 KB, a few milliseconds of work. */
const EXPORT_BATCH = 1_000;

export interface ExportProgress {
  done: number;
  total: number;
}

export interface JournalRowView {
  id: number;
  createdAt: string;
  operator: string;
  profileId: string;
  /** The profile's name (a profile this desk no longer has: "Removed profile" and its id's start). */
  profileName: string;
  operation: string;
  clientOrderId: string;
  orderId: string | null;
  targetOrderId: string | null;
  targetClientOrderId: string | null;
  action: string | null;
  actionLabel: string;
  amount: string | null;
  currency: string | null;
  reason: string | null;
  note: string | null;
  email: string | null;
  cardLastFour: string | null;
  state: JournalEntry['state'];
  status: string | null;
  errorMessage: string | null;
  finalAt: string | null;
  result: Record<string, string>;
}

/** How an entry names a profile this desk does not have (removed, or another desk's). */
export const removedProfileName = (id: string): string => `Removed profile ${id.slice(0, 8)}`;

export function journalRowView(
  e: JournalEntry,
  /** Without names (an event that only says the journal changed): the id. */
  profileName: (id: string) => string = (id) => id,
): JournalRowView {
  return {
    id: e.id,
    createdAt: e.createdAt,
    operator: e.operator,
    profileId: e.profileId,
    profileName: profileName(e.profileId),
    operation: e.operation,
    clientOrderId: e.clientOrderId,
    orderId: e.orderId,
    targetOrderId: e.targetOrderId,
    targetClientOrderId: e.targetClientOrderId,
    action: e.action,
    actionLabel: actionLabel(e.action, e.operation),
    amount: e.amountMinor === null ? null : formatMinor(e.amountMinor, e.currency),
    currency: e.currency,
    reason: e.reason,
    note: e.note,
    email: e.email,
    cardLastFour: e.cardLastFour,
    state: e.state,
    status: e.status,
    errorMessage: e.errorMessage,
    finalAt: e.finalAt,
    result: e.result,
  };
}

/** A sum as the screen shows it: the count and the amount as exact text of its currency. */
export interface SumView {
  count: number;
  amount: string;
}

export interface TotalsView {
  currencies: {
    currency: string | null;
    approved: SumView;
    open: SumView;
    notMoved: number;
    byAction: {
      action: string;
      label: string;
      approved: SumView;
      open: SumView;
      notMoved: number;
    }[];
  }[];
}

export function totalsView(totals: JournalTotals): TotalsView {
  return {
    currencies: totals.currencies.map((c) => {
      const sum = (s: Sum): SumView => ({
        count: s.count,
        amount: c.currency === null ? '' : formatMinor(s.minor, c.currency),
      });
      return {
        currency: c.currency,
        approved: sum(c.approved),
        open: sum(c.open),
        notMoved: c.notMoved,
        byAction: c.byAction.map((a) => ({
          action: a.action,
          label: actionLabel(a.action, a.action),
          approved: sum(a.approved),
          open: sum(a.open),
          notMoved: a.notMoved,
        })),
      };
    }),
  };
}

export class JournalService {
  /** The name of each profile by its id (removed: removedProfileName). */
  readonly profileName: (id: string) => string;

  constructor(
    private readonly journal: JournalPort,
    /** The profile's name where this desk has it (store/sqlite/profiles.ts nameOf); absent: ids. */
    nameOf?: (id: string) => string | undefined,
  ) {
    this.profileName = nameOf ? (id) => nameOf(id) ?? removedProfileName(id) : (id) => id;
  }

  /** An entry as the screens show it, its profile by name. */
  row(entry: JournalEntry): JournalRowView {
    return journalRowView(entry, this.profileName);
  }

  /**
   * One entry in full for its detail view: every field, the redacted request as it was sent
   * (card numbers masked, secrets never stored), and every answer in the order it came.
   */
  async entry(clientOrderId: string) {
    const entry = await this.journal.get(clientOrderId.trim());
    if (!entry)
      throw new ServiceError('NOT_FOUND', `No journal entry has the action id ${clientOrderId}.`);
    return {
      row: this.row(entry),
      errorCode: entry.errorCode,
      updatedAt: entry.updatedAt,
      settledBy: entry.settledBy,
      settleReason: entry.settleReason,
      uploaded: entry.uploaded ?? null,
      request: entry.summary,
      history: await this.journal.history(entry.clientOrderId),
    };
  }

  async search(filter: JournalFilter, offset: number, limit: number) {
    const page = await this.journal.search(filter, offset, limit);
    return { ...page, rows: page.rows.map((e) => this.row(e)) };
  }

  /** An export's totals file (store/journal/csv.ts totalsCsvLines). */
  async totalsCsv(totals: JournalTotals): Promise<string> {
    return totalsCsvLines(totals, await csvLineWriter());
  }

  /** Totals per currency and action of the filter's entries (store/journal/totals.ts). */
  async totals(filter: JournalFilter): Promise<TotalsView> {
    return totalsView(await this.journal.totals(filter));
  }

  /**
   * Starts what the store can of an export before its file is chosen (on SQLite the worker
   * thread of a large export), and loads the CSV library: neither is then part of the wait for
   * the file. Hand it to csvChunks; end() it once the save dialog has closed, whether an export
   * ran or not.
   */
  prepareCsv(): PreparedExport {
    // The CSV library too, loaded on the first export: now, while the dialog is open. A failure
    // to load it is met again, and said, by the export itself.
    csvLineWriter().catch(() => undefined);
    return this.journal.prepareCsvExport?.() ?? { end: () => undefined };
  }

  /**
   * The CSV of the filter's entries, newest first, in chunks of EXPORT_BATCH lines (UTF-8 bytes
   * from SQLite, lent: files.ts LentBytes; text from another port), to be written to the file
   * as they come: memory holds a few chunks, not the whole file, and the event loop turns
   * between chunks (one takes a few milliseconds), so the main process keeps answering the
   * window through a million entries.
   * Each store makes its chunks (JournalPort.csvChunks) from one view of the journal: entries
   * written or changed after the export started are not in it. `onProgress` hears how many
   * lines of how many are done, from when the store has counted them (SQLite may count beside
   * the first lines), and last the whole count. `onTotals` hears, after the last line, the
   * totals of the lines written (for the summary file beside the export, totalsCsv).
   */
  async *csvChunks(
    filter: JournalFilter,
    onProgress?: (progress: ExportProgress) => void,
    onTotals?: (totals: JournalTotals) => void,
    prepared?: PreparedExport,
  ): AsyncGenerator<FileChunk> {
    let done = 0;
    let total: number | undefined;
    yield (await csvLineWriter())(CSV_COLUMN_NAMES);
    const chunks = this.journal.csvChunks(filter, EXPORT_BATCH, this.profileName, prepared);
    for await (const chunk of chunks) {
      if (chunk.totals) onTotals?.(chunk.totals);
      const counted = total === undefined && chunk.total !== undefined;
      total ??= chunk.total;
      if (chunk.entries > 0 || chunk.content.length > 0) {
        // Lent bytes go back to the store once the file has them (files.ts LentBytes).
        const { content, release } = chunk;
        yield release && typeof content !== 'string' ? { lent: content, release } : content;
        done += chunk.entries;
      } else if (!counted) continue;
      if (total !== undefined) onProgress?.({ done, total: Math.max(total, done) });
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    if (total === undefined) onProgress?.({ done, total: done });
  }
}
