// What the Orders screen offers beyond capture, void and refund: the address a customer waiting
// for 3-D Secure must open, so support can send it (copied by main: the renderer has no
// clipboard permission), and the order's card reference, or a way to save its card.

import { useState } from 'react';

import type { OrderViewData } from '../../../../common/contract';
import { errorMessage, paydesk, unwrap } from '../../api';
import { hrefOf } from '../../route';

export function ThreeDsAddress({ order }: { order: OrderViewData }) {
  const [copied, setCopied] = useState<string>();
  if (!order.threeDsAddress) return null;
  const copy = () =>
    unwrap(
      paydesk().orders.copyThreeDsAddress({ profileId: order.profileId, orderid: order.orderId }),
    )
      .then(() => setCopied('Copied.'))
      .catch((error: unknown) => setCopied(errorMessage(error)));
  return (
    <span className="three-ds-address">
      {' '}
      The address the customer must open: <code className="link-url">
        {order.threeDsAddress}
      </code>{' '}
      <button type="button" onClick={() => void copy()}>
        Copy address
      </button>{' '}
      <span role="status">{copied}</span>
    </span>
  );
}

/** The card reference of the order's card, or "Save card" on an approved payment with a card. */
export function SavedCard({ order }: { order: OrderViewData }) {
  if (order.card.refId)
    return (
      <span className="saved-card">
        {' '}
        Saved as{' '}
        <a href={hrefOf({ screen: 'card-info', param: order.card.refId })}>
          card reference {order.card.refId}
        </a>
      </span>
    );
  if (order.status !== 'approved' || !order.card.bin) return null;
  return (
    <span className="saved-card">
      {' '}
      <a href={hrefOf({ screen: 'card-info', param: `order:${order.orderId}` })}>Save card…</a>
    </span>
  );
}
