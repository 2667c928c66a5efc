// The totals groups both threads of a CSV export tally their rows into
// (main/store/sqlite/journal-export-slices.ts GroupTally): every row counted in the group of
// its five values, its amount added, whatever the order of the rows and however many values a
// column holds, more than its numbering's bits included.

import { describe, expect, it } from 'vitest';

import { CSV_SOURCE_COLUMNS } from '../../../main/store/journal/csv';
import type { TotalsGroup } from '../../../main/store/journal/totals';
import { GroupTally } from '../../../main/store/sqlite/journal-export-slices';

type Values = Pick<TotalsGroup, 'currency' | 'action' | 'operation' | 'state' | 'status'>;

/** A row as the export reads it: CSV_SOURCE_COLUMNS, then the id. */
function row(values: Values, minor: bigint | null): unknown[] {
  const byColumn: Record<string, unknown> = { ...values, amount_minor: minor };
  return [...CSV_SOURCE_COLUMNS.map((column) => byColumn[column] ?? null), 1n];
}

/** The groups as plain records, in a stable order, by their values' text. */
function sorted(groups: TotalsGroup[]) {
  return groups
    .map((g) => ({ ...g, n: Number(g.n), minor: g.minor === null ? null : BigInt(g.minor) }))
    .sort((a, b) =>
      JSON.stringify([a.currency, a.action, a.operation, a.state, a.status]).localeCompare(
        JSON.stringify([b.currency, b.action, b.operation, b.state, b.status]),
      ),
    );
}

/** What the groups must be: each distinct five values once, by a key of their text. */
function reference(rows: [Values, bigint | null][]): TotalsGroup[] {
  const groups = new Map<string, TotalsGroup & { n: number; minor: bigint | null }>();
  for (const [values, minor] of rows) {
    const key = JSON.stringify([
      values.currency,
      values.action,
      values.operation,
      values.state,
      values.status,
    ]);
    const group = groups.get(key);
    if (!group) groups.set(key, { ...values, n: 1, minor });
    else {
      group.n++;
      if (minor !== null) group.minor = (group.minor ?? 0n) + minor;
    }
  }
  return [...groups.values()];
}

function tallied(rows: [Values, bigint | null][]): TotalsGroup[] {
  const tally = new GroupTally();
  for (const [values, minor] of rows) tally.add(row(values, minor));
  return tally.take();
}

describe('the export’s totals groups', () => {
  it('counts each row in the group of its five values, nulls as values of their own', () => {
    const rows: [Values, bigint | null][] = [];
    const currencies = ['EUR', 'JPY', null];
    const statuses = ['approved', 'declined', null];
    for (let i = 0; i < 500; i++) {
      rows.push([
        {
          currency: currencies[i % 3] ?? null,
          action: i % 4 === 0 ? null : 'partial-refund',
          operation: i % 5 === 0 ? 'CAPTURE' : 'RETURN',
          state: i % 7 === 0 ? 'sending' : 'final',
          status: statuses[(i >> 1) % 3] ?? null,
        },
        i % 6 === 0 ? null : BigInt(i * 101),
      ]);
    }
    expect(sorted(tallied(rows))).toEqual(sorted(reference(rows)));
  });

  it.each(['currency', 'action', 'operation', 'state'] as const)(
    'keeps groups apart when the %s column holds more values than its numbering’s bits',
    (column) => {
      // 300 values in the column (its bits hold at most 256), each beside two values of the
      // next column: a number that spilled over into the next column's bits would make two
      // groups one.
      const order = ['currency', 'action', 'operation', 'state', 'status'] as const;
      const next = order[order.indexOf(column) + 1]!;
      const rows: [Values, bigint | null][] = [];
      for (let i = 0; i < 1_200; i++) {
        const values: Values = {
          currency: 'EUR',
          action: 'partial-refund',
          operation: 'RETURN',
          state: 'final',
          status: 'approved',
        };
        values[column] = `${column}-${i % 300}`;
        values[next] = `${next}-${Math.floor(i / 300) % 2}`;
        rows.push([values, BigInt(i)]);
      }
      const groups = tallied(rows);
      expect(groups).toHaveLength(600);
      expect(sorted(groups)).toEqual(sorted(reference(rows)));
      expect(groups.reduce((s, g) => s + BigInt(g.minor ?? 0), 0n)).toBe(719_400n);
    },
  );

  it('starts afresh after a take, its numbering kept', () => {
    const tally = new GroupTally();
    const values: Values = {
      currency: 'EUR',
      action: null,
      operation: 'RETURN',
      state: 'final',
      status: 'approved',
    };
    tally.add(row(values, 100n));
    tally.add(row(values, 5n));
    expect(tally.take()).toEqual([{ ...values, n: 2, minor: 105n }]);
    tally.add(row(values, 1n));
    expect(tally.take()).toEqual([{ ...values, n: 1, minor: 1n }]);
    expect(tally.take()).toEqual([]);
  });
});
