// Every row of a batch checked before anything is sent: its shape, its amount in its currency's
// minor units, the order's state and what is left (the gateway's status, merged with the
// journal's pending actions, as a single action sees it), the same order more than once in the
// file (the amounts together must fit what is left), and the totals per currency. A row with a
// problem is never sent; the clerk sees why. A line whose cells do not fit the header, or that
// held card data (taken out before it reached here: card-data.ts), is not looked up.

import { formatMinor, parseAmount, parseCurrency } from '../../gateway/amount';
import type { NewBatchRow } from '../../store/sqlite/batches';
import type { BatchCsvRow } from './csv';
import type { OrderRef, OrderView } from '../orders/orders';

const OPERATIONS = ['capture', 'refund', 'void', 'status'] as const;
type Operation = (typeof OPERATIONS)[number];
const MOVES_MONEY: readonly Operation[] = ['capture', 'refund'];
const REASON_REQUIRED: readonly Operation[] = ['refund', 'void'];

export interface CheckedRow extends NewBatchRow {
  /** The order as it was looked up (undefined when it could not be). */
  orderStatus?: string;
}

export interface BatchTotal {
  operation: string;
  currency: string;
  amount: string;
  rows: number;
}

export interface CheckResult {
  rows: CheckedRow[];
  totals: BatchTotal[];
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs `work` over `items`, at most `limit` at a time, keeping their order. */
async function inPool<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>) {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i] as T);
      }
    }),
  );
  return results;
}

interface Shaped {
  row: BatchCsvRow;
  operation?: Operation;
  amountMinor: bigint | null;
  currency: string | null;
  problems: string[];
}

/** The row on its own: operation, reference, amount, currency, reason. */
function shape(row: BatchCsvRow): Shaped {
  const problems: string[] = [];
  if (row.cardData) problems.push(row.cardData);
  if (row.shapeProblem) {
    problems.push(row.shapeProblem);
    return { row, amountMinor: null, currency: null, problems };
  }
  const op = row.operation.toLowerCase();
  const operation = (OPERATIONS as readonly string[]).includes(op) ? (op as Operation) : undefined;
  if (!operation)
    problems.push(
      `The operation ${JSON.stringify(row.operation)} is not one of ${OPERATIONS.join(', ')}.`,
    );
  if (!row.orderid && !row.client_orderid) problems.push('Give an orderid or a client_orderid.');
  let amountMinor: bigint | null = null;
  let currency: string | null = null;
  if (row.currency) {
    try {
      currency = parseCurrency(row.currency.toUpperCase());
    } catch (error) {
      problems.push(message(error));
    }
  }
  if (operation && MOVES_MONEY.includes(operation)) {
    try {
      // In the currency's own minor units (ISO 4217 exponent: none for JPY, three for KWD).
      amountMinor = parseAmount(row.amount, 'amount', currency).minor;
    } catch (error) {
      problems.push(message(error));
    }
    if (!row.currency) problems.push('Give the currency of the amount, for example EUR.');
  } else if (operation && row.amount) {
    problems.push(`A ${operation} takes no amount; leave the amount empty.`);
  }
  if (operation && REASON_REQUIRED.includes(operation) && !row.reason)
    problems.push(`Give a reason for the ${operation}.`);
  if (row.reason === 'Other' && !row.note)
    problems.push('With the reason "Other", write a note that says what happened.');
  return { row, operation, amountMinor, currency, problems };
}

/**
 * Checks every row. `lookup` is the same status lookup the Orders screen uses (gateway status
 * merged with the journal); each order is looked up once.
 */
export async function checkBatch(
  rows: readonly BatchCsvRow[],
  lookup: (ref: OrderRef) => Promise<OrderView>,
  newActionId: () => string,
  concurrency = 4,
): Promise<CheckResult> {
  const shaped = rows.map(shape);
  const refKey = (r: BatchCsvRow) =>
    r.cardData || r.shapeProblem
      ? ''
      : r.orderid
        ? `o:${r.orderid}`
        : r.client_orderid
          ? `c:${r.client_orderid}`
          : '';
  const refs = [...new Set(rows.map(refKey).filter(Boolean))];
  const views = new Map<string, OrderView | Error>();
  await inPool(refs, concurrency, async (key) => {
    const ref: OrderRef = key.startsWith('o:')
      ? { orderid: key.slice(2) }
      : { client_orderid: key.slice(2) };
    try {
      views.set(key, await lookup(ref));
    } catch (error) {
      views.set(key, error instanceof Error ? error : new Error(String(error)));
    }
  });

  // Per order (by the gateway's orderid once known): what earlier rows of the file take.
  const usedByOrder = new Map<string, { capture: bigint; refund: bigint; lines: number[] }>();
  const voidLines = new Map<string, number[]>();
  const actingLines = new Map<string, number[]>();
  for (const s of shaped) {
    const view = views.get(refKey(s.row));
    const orderId = view && !(view instanceof Error) ? view.orderId : undefined;
    if (orderId && s.operation && s.operation !== 'status')
      actingLines.set(orderId, [...(actingLines.get(orderId) ?? []), s.row.line]);
    if (orderId && s.operation === 'void')
      voidLines.set(orderId, [...(voidLines.get(orderId) ?? []), s.row.line]);
  }

  const checked: CheckedRow[] = shaped.map((s) => {
    const { row, operation } = s;
    const problems = [...s.problems];
    const warnings: string[] = [];
    const view = views.get(refKey(row));
    let orderid: string | null = row.orderid || null;
    if (view instanceof Error) {
      problems.push(`The order could not be looked up: ${view.message}`);
    } else if (view && operation) {
      orderid = view.orderId || orderid;
      if (operation !== 'status') {
        const allowance = view.actions[operation];
        if (!allowance.allowed) problems.push(allowance.reason ?? `No ${operation} is possible.`);
        if (s.currency && view.currency && s.currency !== view.currency)
          problems.push(
            `The order is in ${view.currency}; the amount must be in ${view.currency} too.`,
          );
        const used = usedByOrder.get(view.orderId) ?? { capture: 0n, refund: 0n, lines: [] };
        if (used.lines.length > 0)
          warnings.push(`The same order is also on line ${used.lines.join(', ')}.`);
        // A void with any other action on the same order: one of them cannot happen.
        const voids = (
          operation === 'void'
            ? (actingLines.get(view.orderId) ?? [])
            : (voidLines.get(view.orderId) ?? [])
        ).filter((l) => l !== row.line);
        if (voids.length > 0)
          problems.push(
            operation === 'void'
              ? `Line ${voids.join(', ')} acts on the same order; a void and other actions on one order cannot be in one file.`
              : `Line ${voids.join(', ')} voids the same order; a void and other actions on one order cannot be in one file.`,
          );
        if (allowance.allowed && s.amountMinor !== null) {
          const kind = operation === 'capture' ? 'capture' : 'refund';
          const cur = view.currency ?? '';
          const minor = (text: string) => parseAmount(text, 'amount', view.currency).minor;
          // What is left, when Paydesk knows it; otherwise (changed outside Paydesk) only the
          // gateway knows, and the order's amount is the most that can be left.
          const known = allowance.max !== undefined;
          const left = known ? minor(allowance.max ?? '') : minor(view.amount);
          if (!known)
            warnings.push(
              `Part of this order was captured or refunded outside Paydesk: only the gateway knows what is left, at most ${view.amount} ${cur}.`,
            );
          const after = used[kind] + s.amountMinor;
          const leftWords = known ? 'what is left' : "the order's amount";
          if (after > left)
            problems.push(
              used[kind] > 0n
                ? `With the earlier lines of this order (${formatMinor(used[kind], cur)} ${cur}), ${formatMinor(after, cur)} is more than ${leftWords}, ${formatMinor(left, cur)} ${cur}.`
                : `${formatMinor(s.amountMinor, cur)} ${cur} is more than ${leftWords}, ${formatMinor(left, cur)} ${cur}.`,
            );
        }
        if (problems.length === 0 && s.amountMinor !== null) {
          if (operation === 'capture') used.capture += s.amountMinor;
          if (operation === 'refund') used.refund += s.amountMinor;
        }
        if (problems.length === 0) used.lines.push(row.line);
        usedByOrder.set(view.orderId, used);
      }
    }
    const problem = problems.length > 0 ? problems.join(' ') : null;
    return {
      line: row.line,
      operation: operation ?? row.operation,
      orderid,
      refClientOrderId: row.client_orderid || null,
      amountMinor: s.amountMinor,
      currency: s.currency,
      reason: row.reason || null,
      note: row.note || null,
      problem,
      warning: warnings.length > 0 ? warnings.join(' ') : null,
      // The action id is fixed here, stored with the batch before anything is sent.
      actionId: !problem && operation && operation !== 'status' ? newActionId() : null,
      cells: row.cells,
      ...(view && !(view instanceof Error) ? { orderStatus: view.status } : {}),
    };
  });

  return { rows: checked, totals: totalsOf(checked) };
}

/** What the batch moves, per operation and currency, over the rows that will be sent. */
export function totalsOf(
  rows: readonly Pick<NewBatchRow, 'operation' | 'currency' | 'amountMinor' | 'problem'>[],
): BatchTotal[] {
  const sums = new Map<string, { minor: bigint; rows: number }>();
  for (const r of rows) {
    if (r.problem || r.amountMinor === null || !r.currency) continue;
    const key = `${r.operation} ${r.currency}`;
    const sum = sums.get(key) ?? { minor: 0n, rows: 0 };
    sum.minor += r.amountMinor;
    sum.rows++;
    sums.set(key, sum);
  }
  return [...sums.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, sum]) => {
      const [operation = '', currency = ''] = key.split(' ');
      return { operation, currency, amount: formatMinor(sum.minor, currency), rows: sum.rows };
    });
}

/** The text a clerk types to confirm a batch on a production profile: its totals. */
export function confirmationText(totals: readonly BatchTotal[]): string {
  return totals.map((t) => `${t.operation} ${t.amount} ${t.currency}`).join(', ');
}
