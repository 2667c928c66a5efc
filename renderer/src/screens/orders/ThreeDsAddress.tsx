// The address a customer waiting for 3-D Secure must open, so support can send it (copied by
// main: the renderer has no clipboard permission).

import { useState } from 'react';

import type { OrderViewData } from '../../../../preload/contract';
import { errorMessage, paydesk, unwrap } from '../../api';

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
