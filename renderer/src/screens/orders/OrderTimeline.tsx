// An order's history, as main put it in time order (main/services/orders/timeline.ts): every
// journal entry that made the order or acted on it (who, when, how much, why, what became of
// it, and a link to the entry in the Journal), what the gateway said was left when it refused
// one, what the gateway's stage shows that no entry explains, and the state as read now. The
// outcome sentences are main's: only main knows whether a request never left. An entry made on
// another profile names it (as the profiles list does), or says it was removed.

import type { OrderViewData } from '../../../../common/contract';
import { localTimeWithOffset } from '../../../../common/time';
import { hrefOf } from '../../route';
import { showMoney } from './money';

type Item = OrderViewData['timeline'][number];

/** The Journal screen opened on one entry. */
export function entryHref(clientOrderId: string): string {
  return hrefOf({ screen: 'journal', param: `entry:${clientOrderId}` });
}

const OUTCOME_LABEL: Record<Extract<Item, { kind: 'entry' }>['outcome'], string> = {
  approved: 'Approved',
  declined: 'Declined',
  refused: 'Refused',
  'not-sent': 'Not sent',
  'not-received': 'Not received',
  pending: 'Pending',
  open: 'Open',
  unknown: 'Unknown',
};

/** The pill colours the journal uses for the same states. */
const OUTCOME_PILL: Record<Extract<Item, { kind: 'entry' }>['outcome'], string> = {
  approved: 'status-approved',
  declined: 'status-declined',
  refused: 'status-refused',
  'not-sent': 'status-refused',
  'not-received': 'status-refused',
  pending: 'status-pending',
  open: 'status-open',
  unknown: 'status-unknown',
};

export function OrderTimeline({ order }: { order: OrderViewData }) {
  const currency = order.currency ?? '';
  return (
    <section className="card order-timeline" aria-labelledby="order-timeline-heading">
      <h2 id="order-timeline-heading">History of this order</h2>
      <p className="field-hint">
        What Paydesk did (every desk’s journal entries), what the gateway said, and its state as
        read now; oldest first.
      </p>
      {order.journalUnreadable !== null && (
        <p className="order-not-given">
          Paydesk’s own entries cannot be shown: the journal cannot be read now.
        </p>
      )}
      <ol className="timeline">
        {order.timeline.map((item, index) => (
          <li key={keyOf(item, index)} className={`timeline-item timeline-${item.kind}`}>
            <span className="timeline-when">
              {item.at ? localTimeWithOffset(item.at) : 'Time not given by the gateway'}
            </span>
            <div className="timeline-what">
              <TimelineWhat item={item} currency={currency} />
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

function keyOf(item: Item, index: number): string {
  if (item.kind === 'entry') return `entry-${item.entry.clientOrderId}`;
  if (item.kind === 'said') return `said-${item.clientOrderId}`;
  return `${item.kind}-${index}`;
}

function TimelineWhat({ item, currency }: { item: Item; currency: string }) {
  switch (item.kind) {
    case 'entry': {
      const e = item.entry;
      const amount = e.amount ? ` of ${showMoney(e.amount)} ${e.currency ?? currency}` : '';
      const other = item.otherProfile;
      return (
        <>
          <p className="timeline-title">
            <strong>
              {e.actionLabel}
              {amount}
            </strong>{' '}
            {item.role === 'made' ? 'that made this order, ' : ''}by {e.operator}
            {other
              ? ` (on ${other.name === null ? 'a removed profile' : `“${other.name}”`})`
              : ''}{' '}
            <span className={`status-pill ${OUTCOME_PILL[item.outcome]}`}>
              {OUTCOME_LABEL[item.outcome]}
            </span>
          </p>
          {(e.reason || e.note) && (
            <p className="timeline-reason">
              Reason: {[e.reason, e.note].filter(Boolean).join(': ')}
            </p>
          )}
          <p className="timeline-outcome">{item.outcomeText}</p>
          <p className="timeline-link">
            <a
              href={entryHref(e.clientOrderId)}
              aria-label={`Open journal entry ${e.clientOrderId}`}
            >
              Journal entry <code>{e.clientOrderId}</code>
            </a>
          </p>
        </>
      );
    }
    case 'said':
      return (
        <p className="timeline-title">
          <strong>
            The gateway said {showMoney(item.amount)} {currency} was left to {item.of}
          </strong>
          , when it refused <code>{item.clientOrderId}</code>.
        </p>
      );
    case 'elsewhere':
      return <p className="timeline-title">{item.text}</p>;
    case 'read':
      return (
        <p className="timeline-title">
          <strong>The gateway’s state, as read now: {item.stateLabel}</strong> (status{' '}
          <code>{item.status}</code>
          {item.orderStage ? (
            <>
              , stage <code>{item.orderStage}</code>
            </>
          ) : null}
          ).
        </p>
      );
  }
}
