// The parts of Orders' action panel that only show: the order's figures beside the form, and
// what became of a sent capture, void, refund or cancel, in the panel's words (shown by the shared
// money/ActionOutcome). The phases that lead there are the shared money flow's
// (money/useMoneyAction.ts).

import type { JournalRow, OrderViewData } from '../../../../common/contract';
import { GATEWAY_KNOWS, lowerBoundUnknown, showMoney } from './money';
import { STATE_WORDS, type ActionKind } from './words';

/**
 * `order` is the order as on screen now (refreshed with the outcome); `confirmed` the order as
 * it was when the action was sent, whose amount a void or cancel keeps showing.
 */
export function ActionFigures({
  kind,
  order,
  confirmed,
}: {
  kind: ActionKind;
  order: OrderViewData;
  confirmed: OrderViewData;
}) {
  const shown = confirmed;
  const currency = order.currency ?? '';
  const onHold = kind === 'capture' || kind === 'cancel';
  const already = onHold ? order.captured : order.refunded;
  const alreadyAtLeast = onHold ? order.capturedAtLeast : order.refundedAtLeast;
  const leftLabel = onHold ? 'Left on hold' : 'Left to refund';
  const max = order.actions[kind].max;
  return (
    <dl className="action-figures">
      <div>
        <dt>
          {kind === 'void'
            ? 'To void, in full'
            : shown.transactionType === 'preauth'
              ? 'Authorized'
              : 'Amount'}
        </dt>
        <dd className="money">
          {showMoney(shown.amount)} {currency}
        </dd>
      </div>
      {kind !== 'void' && already !== null && (
        <div>
          <dt>{onHold ? 'Already captured' : 'Already refunded'}</dt>
          {lowerBoundUnknown(already, alreadyAtLeast) ? (
            <dd>{GATEWAY_KNOWS}</dd>
          ) : (
            <dd className="money">
              {alreadyAtLeast ? 'at least ' : ''}
              {showMoney(already)} {currency}
            </dd>
          )}
        </div>
      )}
      {max !== undefined ? (
        <div>
          <dt>{leftLabel}</dt>
          <dd className="money">
            {showMoney(max)} {currency}
          </dd>
        </div>
      ) : (
        alreadyAtLeast && (
          <div>
            <dt>{leftLabel}</dt>
            <dd>{GATEWAY_KNOWS}</dd>
          </div>
        )
      )}
    </dl>
  );
}

export function EntryOutcome({
  entry,
  noun,
  currency,
  replayed,
}: {
  entry: JournalRow;
  noun: string;
  currency: string;
  replayed: boolean;
}) {
  const amount = entry.amount ? `${showMoney(entry.amount)} ${entry.currency ?? currency}` : '';
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  const replayNote = replayed
    ? ' This action had already been sent once; nothing was sent again.'
    : '';

  if (entry.state === 'final') {
    const approved = entry.status === 'approved';
    return (
      <div className="action-outcome">
        <div className={`notice ${approved ? 'notice-success' : 'notice-error'}`} role="alert">
          <strong>
            {Noun} {amount && `of ${amount} `}
            {entry.status ?? 'final'}.
          </strong>{' '}
          {approved
            ? `The gateway approved it${entry.orderId ? ` (gateway orderid ${entry.orderId})` : ''}.`
            : `${entry.errorMessage ?? 'The gateway did not approve it.'} No money moved.`}
          {replayNote}
        </div>
      </div>
    );
  }
  if (entry.state === 'refused') {
    return (
      <div className="action-outcome">
        <div className="notice notice-error" role="alert">
          <strong>The gateway refused the {noun}.</strong> {entry.errorMessage} Nothing was
          processed.{replayNote}
        </div>
      </div>
    );
  }
  return (
    <p className="action-progress" role="status">
      <span className={`status-pill status-${entry.state}`}>{STATE_WORDS[entry.state]}</span> {Noun}{' '}
      {amount && `of ${amount} `}sent (action id {entry.clientOrderId}). It stays pending until the
      gateway’s final status; you may close this panel, the order keeps track of it.
    </p>
  );
}
