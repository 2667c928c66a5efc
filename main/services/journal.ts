// The journal as the Journal screen reads it: searched and paged, amounts as exact text, and
// exported to CSV. Nobody edits or deletes an entry from here.

import { formatMinor } from '../gateway/amount';
import { journalCsv } from '../store/csv';
import type { Journal, JournalEntry, JournalFilter } from '../store/journal';

export interface JournalRowView {
  id: number;
  createdAt: string;
  operator: string;
  profileId: string;
  operation: string;
  clientOrderId: string;
  orderId: string | null;
  targetOrderId: string | null;
  amount: string | null;
  currency: string | null;
  reason: string | null;
  note: string | null;
  email: string | null;
  state: JournalEntry['state'];
  status: string | null;
  errorMessage: string | null;
  finalAt: string | null;
}

export function journalRowView(e: JournalEntry): JournalRowView {
  return {
    id: e.id,
    createdAt: e.createdAt,
    operator: e.operator,
    profileId: e.profileId,
    operation: e.operation,
    clientOrderId: e.clientOrderId,
    orderId: e.orderId,
    targetOrderId: e.targetOrderId,
    amount: e.amountMinor === null ? null : formatMinor(e.amountMinor),
    currency: e.currency,
    reason: e.reason,
    note: e.note,
    email: e.email,
    state: e.state,
    status: e.status,
    errorMessage: e.errorMessage,
    finalAt: e.finalAt,
  };
}

export class JournalService {
  constructor(private readonly journal: Journal) {}

  search(filter: JournalFilter, offset: number, limit: number) {
    const page = this.journal.search(filter, offset, limit);
    return { ...page, rows: page.rows.map(journalRowView) };
  }

  exportCsv(filter: JournalFilter): string {
    return journalCsv(this.journal.iterate(filter));
  }
}
