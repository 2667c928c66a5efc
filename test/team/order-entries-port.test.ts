// JournalPort.ofOrder on both stores: an order's page reads every entry that acts on the order
// and the one that made it (a rebill: its own orderid once acknowledged), oldest first, and
// nothing of another order, whichever store holds the journal.

import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { JournalPort, NewJournalEntry } from '../../main/store/journal/port';
import { journalAdapters, OPERATOR, type PortHarness } from '../support/journal-ports';

const adapters = journalAdapters('the order page journal read on PostgreSQL');

describe.each(adapters)('an order’s entries on $name', ({ open, skip }) => {
  let harness: PortHarness;
  let journal: JournalPort;
  let profileId: string;

  beforeAll(async () => {
    if (skip) return;
    harness = await open();
    journal = harness.port;
    profileId = `p-${randomUUID().slice(0, 8)}`;
    await harness.addProfile(profileId);
  });
  afterAll(async () => {
    await harness?.close();
  });

  const entry = (operation: string, extra: Partial<NewJournalEntry> = {}): NewJournalEntry => ({
    clientOrderId: `pd-${randomUUID()}`,
    profileId,
    operator: OPERATOR,
    operation,
    amountMinor: 500n,
    currency: 'EUR',
    fields: { amount: '5.00' },
    ...extra,
  });

  it.skipIf(skip)(
    'lists the entry that made the order and those acting on it, oldest first',
    async () => {
      const made = await journal.begin(entry('REBILL'));
      await journal.acknowledge(made.clientOrderId, '7001');
      const refund = await journal.begin(
        entry('RETURN', { targetOrderId: '7001', reason: 'Damaged' }),
      );
      await journal.refuse(refund.clientOrderId, {
        code: '8',
        message: 'A return of 9.00 EUR is above what is left to return, 5.00 EUR.',
      });
      const other = await journal.begin(entry('RETURN', { targetOrderId: '7002' }));
      // An entry whose own orderid is another order's, acting on 7001 (a capture of a hold).
      const capture = await journal.begin(entry('CAPTURE', { targetOrderId: '7001' }));
      await journal.acknowledge(capture.clientOrderId, '7003');

      const ofOrder = await journal.ofOrder('7001');
      expect(ofOrder.map((e) => e.clientOrderId)).toEqual([
        made.clientOrderId,
        refund.clientOrderId,
        capture.clientOrderId,
      ]);
      expect(ofOrder[1]).toMatchObject({
        state: 'refused',
        errorMessage: 'A return of 9.00 EUR is above what is left to return, 5.00 EUR.',
        reason: 'Damaged',
      });
      expect(ofOrder[1]!.finalAt).not.toBeNull();
      // The capture's own order shows the capture that made it.
      expect((await journal.ofOrder('7003')).map((e) => e.clientOrderId)).toEqual([
        capture.clientOrderId,
      ]);
      expect((await journal.ofOrder('7002')).map((e) => e.clientOrderId)).toEqual([
        other.clientOrderId,
      ]);
      expect(await journal.ofOrder('7999')).toEqual([]);
    },
  );
});
