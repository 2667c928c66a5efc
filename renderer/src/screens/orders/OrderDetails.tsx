// An order as support and finance read it: status in plain words, who made it and the customer's
// e-mail, the amounts (a figure the gateway named shows with the time it said it), the masked
// card, what of ours is still pending on it, and the captures made from a preauth.

import type { Ref } from 'react';

import type { OrderViewData } from '../../../../common/contract';
import { localTimeWithOffset } from '../../../../common/time';
import { Notice } from '../../components/Notice';
import { hrefOf } from '../../route';
import { refParam } from './ref';
import { SavedCard, ThreeDsAddress } from './ThreeDsAddress';
import { operationWords, STATE_WORDS, statusLabel, typeWords } from './words';
import { GATEWAY_KNOWS, lowerBoundUnknown, showMoney } from './money';
import { entryHref } from './OrderTimeline';

export function OrderDetails({
  order,
  headingRef,
}: {
  order: OrderViewData;
  headingRef: Ref<HTMLHeadingElement>;
}) {
  const isPreauth = order.figureKind === 'hold';
  const currency = order.currency ?? '';
  // Before the gateway approved it nothing was charged, so nothing is left to capture or refund.
  const approved = order.status === 'approved';
  const money = (text: string) => (
    <>
      {showMoney(text)} <span className="currency">{currency}</span>
    </>
  );
  const unread = order.journalUnreadable !== null;
  const atLeast = (text: string | null, lowerBound: boolean) =>
    unread ? (
      'Unknown: the journal cannot be read'
    ) : text === null ? (
      '—'
    ) : lowerBoundUnknown(text, lowerBound) ? (
      GATEWAY_KNOWS
    ) : lowerBound ? (
      <>at least {money(text)}</>
    ) : (
      money(text)
    );
  const left = (text: string | null, unknownWhy: boolean, said: Said, sent: string) =>
    !approved ? (
      '—'
    ) : unread ? (
      'Unknown: the journal cannot be read'
    ) : text !== null ? (
      <>
        {money(text)}
        {said && <SaidWhen said={said} currency={currency} sent={sent} />}
      </>
    ) : unknownWhy ? (
      GATEWAY_KNOWS
    ) : (
      '—'
    );
  const said = isPreauth ? order.remainingCapturableSaid : order.remainingRefundableSaid;

  return (
    <>
      <div className="order-head">
        <h2 id="order-heading" ref={headingRef} tabIndex={-1}>
          Order {order.orderId}
        </h2>
        <span className={`status-pill state-${order.state}`}>{order.stateLabel}</span>
        {!order.final && (
          <span className="order-refreshing">Not final yet: refreshed every few seconds</span>
        )}
      </div>
      <p className="order-status-text">{order.statusText}</p>

      {order.threeDsPending && (
        <Notice kind="info">
          <strong>3-D Secure pending.</strong> The customer has not finished the bank’s check yet;
          the order becomes final when they do, or when the check times out.
          <ThreeDsAddress order={order} />
        </Notice>
      )}

      <div className="order-grid">
        <dl className="order-facts">
          <dt>Client order id</dt>
          <dd>{order.clientOrderId ?? '—'}</dd>
          <dt>Created</dt>
          <dd>
            <Created order={order} />
          </dd>
          <dt>Customer e-mail</dt>
          <dd>{order.email ?? 'Not given by the gateway'}</dd>
          <dt>Type</dt>
          <dd>{typeWords(order.transactionType)}</dd>
          <dt>Stage</dt>
          <dd>
            <code>{order.orderStage ?? '—'}</code>
          </dd>
          <dt>Card</dt>
          <dd>
            <CardSummary card={order.card} />
            <SavedCard order={order} />
          </dd>
        </dl>

        <table className="data order-amounts">
          <caption>Amounts in {currency || 'the order’s currency'}</caption>
          <tbody>
            <tr>
              <th scope="row">{isPreauth ? 'Authorized (held)' : 'Amount'}</th>
              <td className="num money">{money(order.amount)}</td>
            </tr>
            {order.figureKind === 'hold' && (
              <>
                <tr>
                  <th scope="row">Captured</th>
                  <td className="num money">{atLeast(order.captured, order.capturedAtLeast)}</td>
                </tr>
                <tr className="order-remaining">
                  <th scope="row">Left to capture</th>
                  <td className="num money">
                    {left(
                      order.remainingCapturable,
                      order.capturedAtLeast,
                      order.remainingCapturableSaid,
                      'captured',
                    )}
                  </td>
                </tr>
              </>
            )}
            {order.figureKind === 'payment' && (
              <>
                <tr>
                  <th scope="row">Refunded</th>
                  <td className="num money">{atLeast(order.refunded, order.refundedAtLeast)}</td>
                </tr>
                <tr className="order-remaining">
                  <th scope="row">Left to refund</th>
                  <td className="num money">
                    {left(
                      order.remainingRefundable,
                      order.refundedAtLeast,
                      order.remainingRefundableSaid,
                      'refunded',
                    )}
                  </td>
                </tr>
              </>
            )}
          </tbody>
        </table>
      </div>
      {order.journalUnreadable !== null && (
        <Notice kind="warning">
          <strong>The journal cannot be read, so nothing can be sent on this order now.</strong>{' '}
          {order.journalUnreadable} What the gateway says of the order is shown; what Paydesk desks
          captured or refunded is unknown until the journal answers again.
        </Notice>
      )}
      {order.changedElsewhere && !said && (
        <Notice kind="info">
          {isPreauth ? 'Captures' : 'Refunds'} of this order were made outside Paydesk; only the
          gateway knows how much. Enter the amount yourself: the gateway refuses more than what is
          really left and says how much that is.
        </Notice>
      )}
      {order.changedElsewhere && said && (
        <Notice kind="info">
          {isPreauth ? 'Captures' : 'Refunds'} of this order were made outside Paydesk. What is left
          is the figure the gateway named at {localTimeWithOffset(said.at)}
          {said.since ? ', less what Paydesk sent since' : ''}; anything done elsewhere after that
          is not in it, and the gateway still refuses more than what is really left.
        </Notice>
      )}
      {order.figureKind !== 'amount-only' && (
        <p className="field-hint order-footnote">
          {isPreauth ? 'Captured counts the captures' : 'Refunded counts the refunds'} sent from
          Paydesk, pending ones included. The gateway also knows what was done elsewhere and refuses
          more than what is really left.
        </p>
      )}

      {order.pending.length > 0 && (
        <>
          <h3 id="order-pending-heading">Pending operations</h3>
          <table className="data" aria-labelledby="order-pending-heading">
            <thead>
              <tr>
                <th scope="col">Operation</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">State</th>
                <th scope="col">Action id</th>
              </tr>
            </thead>
            <tbody>
              {order.pending.map((p) => (
                <tr key={p.clientOrderId}>
                  <td>{operationWords(p.operation, isPreauth)}</td>
                  <td className="num money">{p.amount ? money(p.amount) : '—'}</td>
                  <td>
                    <span className={`status-pill status-${p.state}`}>
                      {STATE_WORDS[p.state] ?? p.state}
                    </span>
                  </td>
                  <td>
                    <code>{p.clientOrderId}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}

      {order.captures.length > 0 && (
        <>
          <h3 id="order-captures-heading">Captures from this hold</h3>
          <p className="field-hint">Refund captured money on the capture’s own order.</p>
          <table className="data" aria-labelledby="order-captures-heading">
            <thead>
              <tr>
                <th scope="col">Capture order</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {order.captures.map((c, index) => (
                <tr key={c.orderId ?? `capture-${index}`}>
                  <td>
                    {c.orderId ? (
                      <a
                        href={hrefOf({
                          screen: 'lookup',
                          param: refParam({ kind: 'orderid', value: c.orderId }),
                        })}
                        aria-label={`Look up capture order ${c.orderId}`}
                      >
                        {c.orderId}
                      </a>
                    ) : (
                      'Not assigned yet'
                    )}
                  </td>
                  <td className="num money">{c.amount ? money(c.amount) : '—'}</td>
                  <td>
                    {c.status ? (
                      <span className={`status-pill status-${c.status}`}>
                        {statusLabel(c.status)}
                      </span>
                    ) : (
                      <span className="status-pill status-pending">Pending</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </>
  );
}

type Said = OrderViewData['remainingRefundableSaid'];

/** Under a figure the gateway named: what it said, when, and what of ours came off since. */
function SaidWhen({
  said,
  currency,
  sent,
}: {
  said: NonNullable<Said>;
  currency: string;
  sent: string;
}) {
  return (
    <span className="order-said">
      the gateway said {showMoney(said.amount)} {currency} at {localTimeWithOffset(said.at)}
      {said.since ? `, less ${showMoney(said.since)} ${currency} ${sent} from Paydesk since` : ''}
    </span>
  );
}

/** Who made the order and when: the gateway's status never says; Paydesk's entry may. */
function Created({ order }: { order: OrderViewData }) {
  const { created } = order;
  if (created.source === 'not-given' || !created.at)
    return <span className="order-not-given">Not given by the gateway</span>;
  return (
    <>
      {localTimeWithOffset(created.at)} by {created.by} from Paydesk
      {created.clientOrderId && (
        <>
          {' '}
          (<a href={entryHref(created.clientOrderId)}>journal entry</a>)
        </>
      )}
    </>
  );
}

function CardSummary({ card }: { card: OrderViewData['card'] }) {
  if (!card.bin && !card.lastFour) return <>—</>;
  const expiry =
    card.expMonth && card.expYear ? `${card.expMonth.padStart(2, '0')}/${card.expYear}` : '';
  return (
    <span className="card-summary">
      <span className="card-number" aria-hidden="true">
        {card.type && <span className="card-brand">{card.type}</span>} {card.bin ?? '······'} •••{' '}
        {card.lastFour ?? '····'}
      </span>
      <span className="visually-hidden">
        {card.type ?? 'Card'} starting {card.bin ?? 'unknown'}, ending {card.lastFour ?? 'unknown'}
      </span>
      {card.holder && <span className="card-holder">{card.holder}</span>}
      {expiry && <span className="card-expiry">expires {expiry}</span>}
    </span>
  );
}
