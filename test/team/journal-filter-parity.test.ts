// The Journal screen's filter means the same on a desk's SQLite and on a team's PostgreSQL: the
// same entries, searched (and exported: iterate) with every filter field, alone and with each
// other field, give the same entries on both. A field one store ignored, or matched on fewer
// columns, showed a clerk another list on a team than on a desk alone.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { JournalFilter } from '../../main/store/journal/filter';
import {
  JournalError,
  type JournalPort,
  type NewJournalEntry,
} from '../../main/store/journal/port';
import { journalAdapters, OPERATOR, type PortHarness } from '../support/journal-ports';
import { rejection } from '../support/team';

const adapters = journalAdapters('the journal filter parity tests on PostgreSQL');
const postgres = adapters.find((a) => a.name === 'PostgreSQL')!;

const SHOP = 'shop-a';
const OTHER = 'shop-b';

type Settle = (journal: JournalPort, clientOrderId: string) => Promise<unknown>;

/** The entries both stores get, each written, answered as said, and dated at `at`. */
const ENTRIES: {
  entry: Omit<NewJournalEntry, 'operator' | 'fields'>;
  settle?: Settle;
  at: string;
}[] = [
  {
    entry: {
      clientOrderId: 'pf-1',
      profileId: SHOP,
      operation: 'return',
      targetOrderId: '9001',
      targetClientOrderId: 'order-9001',
      action: 'refund',
      email: 'Buyer@Example.com',
      amountMinor: 500n,
      currency: 'EUR',
      cardLastFour: '1111',
    },
    settle: (j, id) => j.finish(id, { status: 'approved', orderId: 'o-1' }),
    at: '2026-03-01T12:00:00.000Z',
  },
  {
    entry: {
      clientOrderId: 'pf-2',
      profileId: SHOP,
      operation: 'capture',
      targetOrderId: '9002',
      targetClientOrderId: 'order-9002',
      action: 'partial-capture',
      email: 'buyer@example.com',
      amountMinor: 700n,
      currency: 'EUR',
    },
    settle: (j, id) => j.finish(id, { status: 'declined', orderId: 'o-2' }),
    at: '2026-03-02T12:00:00.000Z',
  },
  {
    entry: {
      clientOrderId: 'pf-3',
      profileId: OTHER,
      operation: 'void',
      targetOrderId: '9003',
      targetClientOrderId: 'order-9003',
      action: 'void',
      email: 'other@example.com',
    },
    settle: (j, id) => j.refuse(id, { code: 'E1', message: 'Refused' }),
    at: '2026-03-03T12:00:00.000Z',
  },
  {
    entry: {
      clientOrderId: 'pf-4',
      profileId: OTHER,
      operation: 'return',
      targetOrderId: '9001',
      targetClientOrderId: 'order-9001',
      action: 'partial-refund',
      amountMinor: 100n,
      currency: 'EUR',
      cardLastFour: '1111',
    },
    settle: (j, id) => j.markUnknown(id, { message: 'No answer' }),
    at: '2026-03-04T12:00:00.000Z',
  },
  {
    entry: {
      clientOrderId: 'pf-5',
      profileId: SHOP,
      operation: 'capture',
      targetOrderId: '9004',
      targetClientOrderId: 'order-9004',
      action: 'capture',
      email: 'BUYER@example.com',
    },
    settle: (j, id) => j.acknowledge(id, 'o-5'),
    at: '2026-03-05T12:00:00.000Z',
  },
  {
    entry: {
      clientOrderId: 'pf-6',
      profileId: OTHER,
      operation: 'return',
      targetOrderId: '9005',
      action: 'refund',
      amountMinor: 200n,
      currency: 'EUR',
    },
    at: '2026-03-06T12:00:00.000Z',
  },
];

/** One value for every filter field, and the entries it alone matches (newest first). */
const FIELDS: { [K in keyof Required<JournalFilter>]: [JournalFilter[K], string[]] } = {
  // The target order's shop id: the id a clerk has from the shop's own records.
  orderRef: [' order-9001 ', ['pf-4', 'pf-1']],
  email: ['buyer@EXAMPLE.com', ['pf-5', 'pf-2', 'pf-1']],
  cardLastFour: ['1111', ['pf-4', 'pf-1']],
  amount: ['5.00', ['pf-1']],
  amountMin: ['2', ['pf-6', 'pf-2', 'pf-1']],
  amountMax: ['5', ['pf-6', 'pf-4', 'pf-1']],
  currency: ['eur', ['pf-6', 'pf-4', 'pf-2', 'pf-1']],
  status: ['approved', ['pf-1']],
  state: ['unknown', ['pf-4']],
  pending: [true, ['pf-6', 'pf-5', 'pf-4']],
  operation: ['return', ['pf-6', 'pf-4', 'pf-1']],
  action: ['refund', ['pf-6', 'pf-1']],
  profileId: [OTHER, ['pf-6', 'pf-4', 'pf-3']],
  from: ['2026-03-03T12:00:00.000Z', ['pf-6', 'pf-5', 'pf-4', 'pf-3']],
  to: ['2026-03-05T00:00:00.000Z', ['pf-4', 'pf-3', 'pf-2', 'pf-1']],
};
const fieldNames = Object.keys(FIELDS) as (keyof JournalFilter)[];
const only = (name: keyof JournalFilter): JournalFilter => ({ [name]: FIELDS[name][0] });

/** Every field alone, every pair, and all of them at once. */
const FILTERS: JournalFilter[] = [
  {},
  ...fieldNames.map(only),
  // Each id an entry carries, as the orderRef field matches them.
  { orderRef: 'pf-3' },
  { orderRef: 'o-2' },
  { orderRef: '9002' },
  ...fieldNames.flatMap((a, i) => fieldNames.slice(i + 1).map((b) => ({ ...only(a), ...only(b) }))),
  { ...Object.fromEntries(fieldNames.map((n) => [n, FIELDS[n][0]])), state: 'final' },
  { email: 'buyer@example.com', operation: 'capture', profileId: SHOP, from: '2026-03-02' },
];

/**
 * What a store's journal shows for each filter: the page, its total, the export's order, and
 * the pages of two at every offset (PostgreSQL counts the older half from the oldest).
 */
async function answers(journal: JournalPort) {
  const out: {
    filter: JournalFilter;
    page: string[];
    total: number;
    exported: string[];
    byTwo: string[][];
  }[] = [];
  for (const filter of FILTERS) {
    const page = await journal.search(filter, 0, 100);
    const exported: string[] = [];
    for await (const entry of journal.iterate(filter)) exported.push(entry.clientOrderId);
    const byTwo: string[][] = [];
    for (let offset = 0; offset <= page.total; offset++) {
      const two = await journal.search(filter, offset, 2);
      byTwo.push(two.rows.map((e) => e.clientOrderId));
    }
    out.push({
      filter,
      page: page.rows.map((e) => e.clientOrderId),
      total: page.total,
      exported,
      byTwo,
    });
  }
  return out;
}

describe.skipIf(postgres.skip)('the journal filter on SQLite and PostgreSQL', () => {
  const opened: PortHarness[] = [];
  const seen = new Map<string, Awaited<ReturnType<typeof answers>>>();

  beforeAll(async () => {
    for (const adapter of adapters) {
      const harness = await adapter.open();
      opened.push(harness);
      await harness.addProfile(SHOP);
      await harness.addProfile(OTHER);
      for (const { entry, settle, at } of ENTRIES) {
        await harness.port.begin({ ...entry, operator: OPERATOR, fields: { amount: '1.00' } });
        await settle?.(harness.port, entry.clientOrderId);
        await harness.setCreatedAt(entry.clientOrderId, at);
      }
      seen.set(adapter.name, await answers(harness.port));
    }
  }, 60_000);
  afterAll(async () => {
    await Promise.all(opened.map((h) => h.close()));
  });

  it('each field alone matches what it says, on both stores', () => {
    for (const name of fieldNames) {
      for (const store of ['SQLite', 'PostgreSQL']) {
        // FILTERS lists the fields alone right after the empty filter.
        const answer = seen.get(store)![1 + fieldNames.indexOf(name)]!;
        expect
          .soft({ store, name, ids: answer.page })
          .toEqual({ store, name, ids: FIELDS[name][1] });
      }
    }
  });

  it('refuses a from or to that is not a time, on both stores, with the same sentence', async () => {
    for (const harness of opened) {
      for (const [label, filter, value] of [
        ['From', { from: 'yesterday' }, 'yesterday'],
        ['To', { to: '2026-02-30' }, '2026-02-30'],
      ] as const) {
        const refused = await rejection(harness.port.search(filter, 0, 10));
        expect(refused).toBeInstanceOf(JournalError);
        expect(refused.message).toBe(
          `The journal filter's ${label} (${value}) is not a time: write a date such as 2026-03-14, or a date and time such as 2026-03-14T09:30; without Z or an offset (+01:00) it is read in this desk's time zone.`,
        );
      }
    }
  });

  it('every filter, alone and combined, gives the same entries on both stores', () => {
    const sqlite = seen.get('SQLite')!;
    const pg = seen.get('PostgreSQL')!;
    expect(pg.length).toBe(FILTERS.length);
    for (const [i, a] of sqlite.entries()) {
      expect.soft(pg[i]).toEqual(a);
      expect(a.exported).toEqual(a.page);
      expect(a.total).toBe(a.page.length);
      expect(a.byTwo).toEqual(a.page.map((_, o) => a.page.slice(o, o + 2)).concat([[]]));
    }
  });
});
