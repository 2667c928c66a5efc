// An order's page: everything known about one order, in time order, from the two sources that
// know anything. Paydesk's own entries (every desk's on a team) that made the order or acted on
// it, each with who, when, how much, why and what became of it; what the gateway said was left
// when it refused one of them; what the gateway's stage shows that no entry explains (captures
// or refunds made elsewhere: how much and when it does not say); and the gateway's state as read
// now. The status answer names no creation time or creator, so "created" is the entry that made
// the order when Paydesk made it, and otherwise not given. An entry made on another profile (one
// order seen through two profiles of the same account) names that profile as the profiles list
// does, or says it was removed. Pure: the service reads, this orders.

import { formatMinor } from '../../gateway/amount';
import type { StatusResponse } from '../../gateway/response';
import type { JournalEntry } from '../../store/journal/types';
import { isOpenLink } from '../../../common/journal-actions';
import { journalRowView, removedProfileName, type JournalRowView } from '../journal';
import type { OrderFigures } from './figures';
import { saidLeft, type LeftOf } from './said';

/** What became of an entry, as a word the screen can style and a sentence it can show. */
export type EntryOutcome =
  | 'approved'
  | 'declined'
  | 'refused'
  | 'not-sent'
  | 'not-received'
  | 'pending'
  | 'open'
  | 'unknown';

export type TimelineItem =
  | {
      kind: 'entry';
      at: string;
      /** `made`: the entry that made this order; `acted`: one that acted on it. */
      role: 'made' | 'acted';
      entry: JournalRowView;
      outcome: EntryOutcome;
      outcomeText: string;
      /** Made on another profile than the page's: its name, null once it was removed. */
      otherProfile: { name: string | null } | null;
    }
  | {
      kind: 'said';
      at: string;
      of: LeftOf;
      /** What the gateway said was left then, in the order's currency. */
      amount: string;
      /** The entry it refused while saying it. */
      clientOrderId: string;
    }
  | {
      kind: 'elsewhere';
      /** The gateway does not say when. */
      at: null;
      of: LeftOf;
      text: string;
    }
  | {
      kind: 'read';
      at: string;
      status: string;
      stateLabel: string;
      orderStage: string | null;
    };

export interface OrderCreated {
  /** Who made the order and when, as far as anyone says; null when nobody does. */
  at: string | null;
  by: string | null;
  /** Where that comes from: the gateway's status never says, Paydesk's entry may. */
  source: 'paydesk' | 'not-given';
  clientOrderId: string | null;
}

/** The entry that made the order: it carries the order's own id and acts on no other order. */
function madeIt(entry: JournalEntry, orderId: string): boolean {
  return entry.orderId === orderId && entry.targetOrderId !== orderId;
}

export function orderCreated(entries: readonly JournalEntry[], orderId: string): OrderCreated {
  const made = entries.find((e) => madeIt(e, orderId));
  return made
    ? {
        at: made.createdAt,
        by: made.operator,
        source: 'paydesk',
        clientOrderId: made.clientOrderId,
      }
    : { at: null, by: null, source: 'not-given', clientOrderId: null };
}

/** The entry's fate in one word and one sentence; main knows what never left, so it says it. */
export function entryOutcome(entry: JournalEntry): { outcome: EntryOutcome; text: string } {
  const byHand = entry.settledBy
    ? ` Settled by hand by ${entry.settledBy}${entry.settleReason ? `: ${entry.settleReason}` : ''}.`
    : '';
  const message = entry.errorMessage ? `: ${entry.errorMessage.replace(/\.?$/, '.')}` : '.';
  switch (entry.state) {
    case 'sending':
      return { outcome: 'pending', text: 'Being sent: waiting for the gateway’s answer.' };
    case 'acknowledged':
      return isOpenLink(entry)
        ? { outcome: 'open', text: 'Open: the gateway made the link; waiting for the customer.' }
        : { outcome: 'pending', text: 'Pending: the gateway has it; its final status is owed.' };
    case 'unknown':
      return {
        outcome: 'unknown',
        text: 'Unknown: the answer was lost. Paydesk asks the gateway’s status and never sends it again.',
      };
    case 'final':
      return entry.status === 'approved'
        ? { outcome: 'approved', text: `Approved by the gateway.${byHand}` }
        : {
            outcome: 'declined',
            text: `Declined (${entry.status ?? 'no status'})${message}${byHand}`,
          };
    case 'refused':
      if (entry.errorCode === 'NOT_SENT')
        return { outcome: 'not-sent', text: `Nothing was sent${message}` };
      if (entry.errorCode === 'NOT_RECEIVED' || entry.settledBy)
        return {
          outcome: 'not-received',
          text: `Not received by the gateway${message}${byHand}`,
        };
      return {
        outcome: 'refused',
        // The gateway's refusal already says who refused: it is not said twice.
        text: `Refused by the gateway${message.replace(/^: The gateway refused the request: /, ': ')}`,
      };
  }
}

const ELSEWHERE_TEXT: Record<LeftOf, string> = {
  capture:
    'Captures made outside Paydesk: the gateway’s stage shows them; how much and when it does not say.',
  refund:
    'Refunds made outside Paydesk: the gateway’s stage shows them; how much and when it does not say.',
};

/** A profile's name as the profiles list has it; undefined once it was removed. */
export type ProfileNameOf = (id: string) => string | undefined;

export function orderTimeline(p: {
  orderId: string;
  /** The profile the order was looked up with: an entry made on another one says which. */
  profileId: string;
  profileName: ProfileNameOf;
  status: StatusResponse;
  /** The profile's entries that made the order or acted on it, oldest first. */
  entries: readonly JournalEntry[];
  figures: OrderFigures;
  stateLabel: string;
  /** When the status was read. */
  readAt: string;
  /** The journal could not be read: nothing is said that only comparing with it could tell. */
  journalUnreadable?: boolean;
}): TimelineItem[] {
  const currency = p.status.currency;
  const items: TimelineItem[] = [];
  const nameOf = (id: string) => p.profileName(id) ?? removedProfileName(id);
  for (const entry of p.entries) {
    const { outcome, text } = entryOutcome(entry);
    items.push({
      kind: 'entry',
      at: entry.createdAt,
      role: madeIt(entry, p.orderId) ? 'made' : 'acted',
      entry: journalRowView(entry, nameOf),
      outcome,
      outcomeText: text,
      otherProfile:
        entry.profileId === p.profileId ? null : { name: p.profileName(entry.profileId) ?? null },
    });
    const said = entry.targetOrderId === p.orderId ? saidLeft(entry, currency) : undefined;
    if (said)
      items.push({
        kind: 'said',
        at: said.at,
        of: said.of,
        amount: formatMinor(said.leftMinor, currency),
        clientOrderId: said.clientOrderId,
      });
  }
  // Same times keep their order (a refusal and what it said): the sort is stable.
  items.sort((a, b) => Date.parse(a.at ?? '') - Date.parse(b.at ?? ''));
  if (p.figures.changedElsewhere && !p.journalUnreadable) {
    const of: LeftOf = p.figures.kind === 'hold' ? 'capture' : 'refund';
    items.push({ kind: 'elsewhere', at: null, of, text: ELSEWHERE_TEXT[of] });
  }
  items.push({
    kind: 'read',
    at: p.readAt,
    status: p.status.status,
    stateLabel: p.stateLabel,
    orderStage: p.status.orderStage ?? null,
  });
  return items;
}
