// The journal's state machine as pure decisions, the one copy both stores decide by: the desk's
// SQLite (main/store/sqlite/journal.ts) and the team's PostgreSQL (postgres/journal.ts). Each takes the
// entry as it is and says what to set, 'same' for a legal repeat (nothing changes), or 'illegal'.
// The conformance tests (test/team/journal-port.test.ts) run the same cases on both stores.
// Clocks are the store's business: no decision sets final_at or updated_at.

import { findCardData } from '../../../common/card-data';
import {
  IN_FLIGHT,
  JournalError,
  type EntryResult,
  type GatewayAnswer,
  type HandSettlement,
  type JournalEntry,
  type JournalProblem,
  type NewJournalEntry,
} from './types';
import { freeTextFields } from './redact';

/** Columns to set (snake_case, as stored), 'same', or 'illegal'. */
export type Decision = Record<string, string | null> | 'same' | 'illegal';

export interface Rule {
  /** What the entry becomes, for the message when the move is illegal. */
  to: string;
  decide: (current: JournalEntry) => Decision;
}

/** The entry's result with `more` added, as JSON; undefined when nothing new. */
function mergeResult(current: JournalEntry, more: EntryResult | undefined): string | undefined {
  if (!more) return undefined;
  const fresh = Object.entries(more).filter(([k, v]) => v && current.result[k] !== v);
  if (fresh.length === 0) return undefined;
  return JSON.stringify({ ...current.result, ...Object.fromEntries(fresh) });
}

export function acknowledgeRule(orderId: string | undefined, result?: EntryResult): Rule {
  return {
    to: 'acknowledged',
    decide(current): Decision {
      const merged = mergeResult(current, result);
      // A late acknowledgement of an entry already further on repeats what is known: a no-op.
      if (current.state === 'acknowledged' || current.state === 'final') {
        const set: Record<string, string | null> = {};
        if (orderId && !current.orderId) set.orderid = orderId;
        if (merged) set.result = merged;
        return Object.keys(set).length ? set : 'same';
      }
      if (current.state === 'refused') return 'illegal';
      return {
        state: 'acknowledged',
        orderid: orderId ?? null,
        ...(merged ? { result: merged } : {}),
      };
    },
  };
}

export function finishRule(answer: GatewayAnswer): Rule {
  return {
    to: 'final',
    decide(current): Decision {
      if (current.state === 'final') return current.status === answer.status ? 'same' : 'illegal';
      if (current.state === 'refused') return 'illegal';
      const merged = mergeResult(current, answer.result);
      return {
        ...(merged ? { result: merged } : {}),
        state: 'final',
        status: answer.status,
        orderid: answer.orderId ?? null,
        error_code: answer.errorCode ?? null,
        error_message: answer.errorMessage ?? null,
      };
    },
  };
}

export function refuseRule(error: JournalProblem): Rule {
  return {
    to: 'refused',
    decide(current): Decision {
      if (current.state === 'refused') return 'same';
      if (current.state !== 'sending' && current.state !== 'unknown') return 'illegal';
      return { state: 'refused', error_code: error.code ?? null, error_message: error.message };
    },
  };
}

export function markUnknownRule(error: JournalProblem): Rule {
  return {
    to: 'unknown',
    decide(current): Decision {
      // Already unsettled, or the gateway's word already came: nothing to add.
      if (current.state === 'unknown' || current.state === 'acknowledged') return 'same';
      if (current.state !== 'sending') return 'illegal';
      return { state: 'unknown', error_code: error.code ?? null, error_message: error.message };
    },
  };
}

/** Throws a JournalError for a missing reason or an entry no longer waiting. */
export function settleByHandRule(clientOrderId: string, settlement: HandSettlement): Rule {
  const reason = settlement.reason.trim();
  if (!reason) throw new JournalError('Settling an entry by hand needs a reason.');
  return {
    to: 'settled',
    decide(current): Decision {
      if (!IN_FLIGHT.includes(current.state))
        throw new JournalError(
          `The journal entry ${clientOrderId} is already ${current.state}; only an entry still waiting for the gateway can be settled by hand.`,
        );
      const common = { settled_by: settlement.by, settle_reason: reason };
      return settlement.outcome === 'approved'
        ? { ...common, state: 'final', status: 'approved', error_code: null, error_message: null }
        : {
            ...common,
            state: 'refused',
            error_code: 'SETTLED_BY_HAND',
            error_message: `Settled by hand as not received by ${settlement.by}: ${reason}`,
          };
    },
  };
}

export function illegalMove(
  clientOrderId: string,
  current: JournalEntry,
  to: string,
): JournalError {
  return new JournalError(
    `The journal entry ${clientOrderId} is ${current.state}${current.status ? ` (${current.status})` : ''} and cannot become ${to}.`,
  );
}

/**
 * The last guard before the store, on both: the services refuse card data in
 * free text with a sentence for the clerk; a caller that forgot must still not get it stored.
 */
export function refuseCardData(entry: NewJournalEntry): void {
  const freeText = { reason: entry.reason, note: entry.note, ...freeTextFields(entry.fields) };
  for (const [name, value] of Object.entries(freeText)) {
    if (value !== undefined && findCardData(value) !== null) {
      throw new JournalError(`The ${name} holds card data; it was not stored.`);
    }
  }
}
