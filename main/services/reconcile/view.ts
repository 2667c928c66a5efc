// A reconciliation line as the screen, the CSV and the printable page show it: what the journal
// held when the run was planned, what the gateway said, and the findings in words. Built from the
// stored line alone, so a finished run reads the same a month later.

import type { Line, LineKind, LineState, RunState } from '../../store/sqlite/reconcile-runs';
import { formatMinor } from '../../gateway/amount';
import type { JournalEntry } from '../../store/journal/types';
import { readingWords, type Finding, type GatewayReading } from './compare';

/** What a line is about, as the journal held it when the run was planned. */
export interface Subject {
  /** An entry's action id, or an order line's shop id. */
  clientOrderId?: string | null;
  operation?: string;
  action?: string | null;
  orderId?: string | null;
  targetOrderId?: string | null;
  targetClientOrderId?: string | null;
  /** Major units as text. */
  amount?: string | null;
  currency?: string | null;
  state?: string;
  status?: string | null;
  createdAt?: string;
}

export interface RunProgress {
  total: number;
  /** Lines answered (agrees + differs + unreadable + notAskable). */
  done: number;
  agrees: number;
  differs: number;
  unreadable: number;
  notAskable: number;
  left: number;
  /** Lines answered per second since this process took the run up; null before the first. */
  ratePerSecond: number | null;
  secondsLeft: number | null;
}

export interface RunView {
  id: number;
  profileId: string;
  profileName: string;
  operator: string;
  from: string;
  to: string;
  journalStore: 'sqlite' | 'postgres';
  state: RunState;
  /** While running: pause was asked and the requests under way are getting their answer. */
  pausing: boolean;
  pausedBecause: string | null;
  perSecond: number;
  atOnce: number;
  createdAt: string;
  finishedAt: string | null;
  progress: RunProgress;
}

export interface LineView {
  seq: number;
  kind: LineKind;
  state: Exclude<LineState, 'todo'> | 'todo';
  /** The order to open on Orders: the order the entry acts on, or its own, or the order line's. */
  orderId: string | null;
  /** The entry's action id (an entry line), or the order's shop id (an order line). */
  clientOrderId: string | null;
  operation: string | null;
  action: string | null;
  createdAt: string | null;
  /** The journal's word when the run was planned: "approved, 10.00 EUR", "unsettled". */
  journal: string;
  /** The gateway's word: "approved (sale_reversed), 10.00 EUR"; null when not read or no record. */
  gateway: string | null;
  findings: Finding[];
  /** Why the line could not be read (or cannot be asked). */
  error: string | null;
}

function journalWords(s: Subject, kind: LineKind): string {
  if (kind === 'order') return 'acted on by entries of this range';
  const state =
    s.state === 'final'
      ? (s.status ?? 'final')
      : s.state === 'unknown'
        ? 'unsettled'
        : s.state === 'refused'
          ? 'refused'
          : `in flight (${s.state ?? ''})`;
  return `${state}${s.amount ? `, ${s.amount}${s.currency ? ` ${s.currency}` : ''}` : ''}`;
}

export function lineView(line: Line): LineView {
  const s = JSON.parse(line.subject) as Subject;
  const reading = line.gateway ? (JSON.parse(line.gateway) as GatewayReading) : null;
  return {
    seq: line.seq,
    kind: line.kind,
    state: line.state,
    orderId:
      line.kind === 'order' ? line.ref : (s.targetOrderId ?? s.orderId ?? reading?.orderId ?? null),
    clientOrderId: line.kind === 'order' ? (s.clientOrderId ?? null) : line.ref,
    operation: s.operation ?? null,
    action: s.action ?? null,
    createdAt: s.createdAt ?? null,
    journal: journalWords(s, line.kind),
    gateway: reading ? readingWords(reading) : null,
    findings: line.findings ? (JSON.parse(line.findings) as Finding[]) : [],
    error: line.error,
  };
}

/** What a line keeps of its entry when the run is planned. */
export function subjectOf(e: JournalEntry): Subject {
  return {
    clientOrderId: e.clientOrderId,
    operation: e.operation,
    action: e.action,
    orderId: e.orderId,
    targetOrderId: e.targetOrderId,
    targetClientOrderId: e.targetClientOrderId,
    amount: e.amountMinor === null ? null : formatMinor(e.amountMinor, e.currency),
    currency: e.currency,
    state: e.state,
    status: e.status,
    createdAt: e.createdAt,
  };
}
