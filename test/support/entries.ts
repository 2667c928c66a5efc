// Builders for the pure rules' inputs: a journal entry as the stores return it, and a parsed
// status answer. Every field is there (the types require them), so a test names only what its
// rule reads and a new field is added here once.

import type { StatusResponse } from '../../main/gateway/response';
import type { JournalEntry } from '../../main/store/journal/types';

let nextId = 1;

/** A journal entry of `operation`; a final entry is approved unless `status` says otherwise. */
export function journalEntry(
  operation: string,
  overrides: Partial<JournalEntry> = {},
): JournalEntry {
  const id = overrides.id ?? nextId++;
  const state = overrides.state ?? 'final';
  return {
    id,
    clientOrderId: `pd-test-${id}`,
    profileId: 'p',
    operator: 'ann',
    operation,
    targetOrderId: '1000001',
    targetClientOrderId: null,
    action: null,
    result: {},
    changedElsewhere: false,
    orderId: null,
    amountMinor: null,
    currency: 'EUR',
    reason: null,
    note: null,
    email: null,
    cardLastFour: null,
    summary: {},
    state,
    status: state === 'final' ? 'approved' : null,
    errorCode: null,
    errorMessage: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    finalAt: null,
    sentAt: null,
    leaseOwner: null,
    leaseUntil: null,
    settledBy: null,
    settleReason: null,
    ...overrides,
  };
}

/** The gateway's status answer for order 1000001: an approved sale of 100.00 EUR by default. */
export function statusAnswer(overrides: Partial<StatusResponse> = {}): StatusResponse {
  return {
    type: 'status-response',
    status: 'approved',
    transactionType: 'sale',
    amount: '100.00',
    currency: 'EUR',
    orderStage: 'sale_approved',
    orderId: '1000001',
    card: {},
    fields: {},
    ...overrides,
  };
}
