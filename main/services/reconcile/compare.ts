// What a reconciliation line finds: the journal's word on an entry (or on an order its entries
// act on) beside what the gateway's `status` says now, and every disagreement between them in a
// sentence a controller can sign off. Pure: no store, no gateway. "No record" of a request that
// may have left is "not yet", never a disagreement; only an entry the journal calls approved
// and the gateway does not know is one. A line whose status could not be read is never compared
// (the service marks it "could not be read").

import { formatMinor, parseAmount } from '../../gateway/amount';
import type { StatusResponse } from '../../gateway/response';
import { IN_FLIGHT, type JournalEntry } from '../../store/journal/types';
import { stageSuffix } from '../orders/figures';
import { gatewayClientOrderId } from '../action/outcomes';

/** What the gateway said about a line's order, as kept with the line. */
export interface GatewayReading {
  status: string;
  stage: string | null;
  amount: string | null;
  currency: string | null;
  orderId: string | null;
  clientOrderId: string | null;
  transactionType: string | null;
  errorMessage: string | null;
}

export type FindingKind =
  /** The journal says approved; the gateway now says declined, error or filtered. */
  | 'declined-after-approval'
  /** Both are final and name different outcomes (declined in the journal, approved now...). */
  | 'status-differs'
  | 'amount-differs'
  | 'currency-differs'
  /** Paydesk still calls the entry unsettled (or in flight); the gateway now knows its outcome. */
  | 'now-known'
  /** The journal says approved; the gateway has no record of the request. */
  | 'no-record'
  /** The journal says refused (nothing processed); the gateway holds it. */
  | 'refused-but-recorded'
  | 'refunded-elsewhere'
  | 'voided-elsewhere'
  | 'captured-elsewhere'
  /** The journal holds approved refunds or voids the gateway's order does not show. */
  | 'journal-only';

export interface Finding {
  kind: FindingKind;
  message: string;
}

const DECLINED = ['declined', 'error', 'filtered'];
const FINAL = ['approved', ...DECLINED];

/** Operations whose own order takes money in, and can be refunded, voided or captured. */
export const ORDER_MAKING: ReadonlySet<string> = new Set([
  'SALE',
  'PREAUTH',
  'SALEFORM',
  'PREAUTHFORM',
  'CAPTURE',
  'REBILL',
  'PAYMENTFORM',
]);

export function readingOf(status: StatusResponse): GatewayReading {
  return {
    status: status.status,
    stage: status.orderStage ?? null,
    amount: status.amount ?? null,
    currency: status.currency ?? null,
    orderId: status.orderId ?? null,
    clientOrderId: status.clientOrderId ?? null,
    transactionType: status.transactionType ?? null,
    errorMessage: status.errorMessage ?? null,
  };
}

const money = (minor: bigint, currency: string | null) =>
  `${formatMinor(minor, currency)}${currency ? ` ${currency}` : ''}`;

/** The gateway's amount in minor units of its currency, or undefined when it cannot be read. */
export function readingMinor(reading: GatewayReading): bigint | undefined {
  if (!reading.amount) return undefined;
  try {
    return parseAmount(reading.amount, 'amount', reading.currency).minor;
  } catch {
    return undefined;
  }
}

/** How the gateway's answer reads to a person: "approved (sale_partially_reversed)". */
export function readingWords(reading: GatewayReading): string {
  const amount =
    reading.amount !== null
      ? `, ${reading.amount}${reading.currency ? ` ${reading.currency}` : ''}`
      : '';
  return `${reading.status}${reading.stage ? ` (${reading.stage})` : ''}${amount}`;
}

function journalWords(entry: JournalEntry): string {
  if (entry.state === 'final') return entry.status ?? 'final';
  if (entry.state === 'refused') return 'refused, nothing processed';
  if (entry.state === 'unknown') return 'unsettled';
  return `in flight (${entry.state})`;
}

/**
 * The disagreements between a journal entry, as the journal has it now, and the gateway's status
 * of its request (undefined: the gateway has no record of it).
 */
export function entryFindings(
  entry: JournalEntry,
  reading: GatewayReading | undefined,
  /** The entry's outcome read from the status by its operation's rule; undefined while not final. */
  gatewayOutcome: string | undefined,
  /** Every journal entry acting on the entry's own order, for refunds or voids made elsewhere. */
  actingOnIt: readonly JournalEntry[] = [],
): Finding[] {
  const inFlight = IN_FLIGHT.includes(entry.state);
  if (!reading) {
    if (entry.state === 'final' && entry.status === 'approved')
      return [
        {
          kind: 'no-record',
          message:
            'The journal says approved; the gateway has no record of this request. Ask the operator about it.',
        },
      ];
    return [];
  }
  const findings: Finding[] = [];
  if (inFlight) {
    if (gatewayOutcome)
      findings.push({
        kind: 'now-known',
        message: `Paydesk still calls this entry ${journalWords(entry)}; the gateway now says ${readingWords(reading)}. Settle it by hand with what the gateway says.`,
      });
    return findings;
  }
  if (entry.state === 'refused') {
    if (gatewayOutcome)
      findings.push({
        kind: 'refused-but-recorded',
        message: `The journal says the gateway refused this request and nothing was processed; the gateway now says ${readingWords(reading)}.`,
      });
    return findings;
  }
  if (gatewayOutcome && FINAL.includes(gatewayOutcome) && gatewayOutcome !== entry.status) {
    const declined = entry.status === 'approved' && DECLINED.includes(gatewayOutcome);
    findings.push({
      kind: declined ? 'declined-after-approval' : 'status-differs',
      message: declined
        ? `The journal says approved; the gateway now says ${readingWords(reading)}${reading.errorMessage ? `: ${reading.errorMessage}` : ''}.`
        : `The journal says ${journalWords(entry)}; the gateway now says ${readingWords(reading)}.`,
    });
  }
  // The amount and currency are the request's own only when the status is of its own order.
  if (reading.clientOrderId === gatewayClientOrderId(entry))
    findings.push(...moneyFindings(entry, reading));
  if (ORDER_MAKING.has(entry.operation) && entry.status === 'approved')
    findings.push(...elsewhereFindings(reading, actingOnIt));
  return findings;
}

function moneyFindings(entry: JournalEntry, reading: GatewayReading): Finding[] {
  if (entry.currency && reading.currency && entry.currency !== reading.currency)
    return [
      {
        kind: 'currency-differs',
        message: `The journal says ${entry.currency}; the gateway says ${reading.currency}.`,
      },
    ];
  const gatewayMinor = readingMinor(reading);
  if (
    entry.amountMinor === null ||
    gatewayMinor === undefined ||
    gatewayMinor === entry.amountMinor
  )
    return [];
  return [
    {
      kind: 'amount-differs',
      message: `The journal says ${money(entry.amountMinor, entry.currency)}; the gateway says ${money(gatewayMinor, reading.currency)}.`,
    },
  ];
}

const approvedOf = (entries: readonly JournalEntry[], operation: string) =>
  entries.filter(
    (e) => e.operation === operation && e.state === 'final' && e.status === 'approved',
  );
const sumOf = (entries: readonly JournalEntry[]) =>
  entries.reduce((total, e) => total + (e.amountMinor ?? 0n), 0n);

/**
 * What the gateway's order stage shows that the journal's own entries on the order do not
 * explain: refunds, voids or captures made elsewhere, or refunds the journal holds and the
 * gateway does not show. While an entry of ours on the order is still in flight the stage may
 * be its doing: nothing is said (that entry's own line says what the gateway knows of it).
 */
export function elsewhereFindings(
  reading: GatewayReading,
  entriesOfOrder: readonly JournalEntry[],
): Finding[] {
  if (reading.status !== 'approved') return [];
  if (entriesOfOrder.some((e) => IN_FLIGHT.includes(e.state))) return [];
  const suffix = stageSuffix(reading.stage);
  const total = readingMinor(reading);
  const refunds = approvedOf(entriesOfOrder, 'RETURN');
  const refunded = sumOf(refunds);
  const voids = approvedOf(entriesOfOrder, 'VOID');
  const captures = approvedOf(entriesOfOrder, 'CAPTURE');
  const ours = (minor: bigint) =>
    minor > 0n
      ? `Paydesk's journal holds refunds of ${money(minor, reading.currency)}`
      : "Paydesk's journal holds no refund of it";
  if (suffix === 'reversed' && total !== undefined && refunded < total)
    return [
      {
        kind: 'refunded-elsewhere',
        message: `The gateway says the order is fully refunded (${money(total, reading.currency)}); ${ours(refunded)}: the rest was refunded elsewhere.`,
      },
    ];
  if (suffix === 'partially_reversed' && refunds.length === 0)
    return [
      {
        kind: 'refunded-elsewhere',
        message:
          "The gateway says the order is partly refunded; Paydesk's journal holds no refund of it: it was refunded elsewhere (the gateway does not say how much).",
      },
    ];
  if (suffix === 'voided' && voids.length === 0)
    return [
      {
        kind: 'voided-elsewhere',
        message: "The gateway says the order is voided; Paydesk's journal holds no void of it.",
      },
    ];
  if ((suffix === 'captured' || suffix === 'partially_captured') && captures.length === 0)
    return [
      {
        kind: 'captured-elsewhere',
        message: `The gateway says the hold is ${suffix.replace('_', ' ')}; Paydesk's journal holds no capture of it.`,
      },
    ];
  if (suffix === 'approved' && (refunds.length > 0 || voids.length > 0))
    return [
      {
        kind: 'journal-only',
        message: `Paydesk's journal holds ${refunds.length > 0 ? `refunds of ${money(refunded, reading.currency)}` : 'a void'} of this order; the gateway shows none.`,
      },
    ];
  return [];
}
