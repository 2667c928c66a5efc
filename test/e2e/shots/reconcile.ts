// The Reconciliation screen for docs/screenshots and its e2e test: the built-in sandbox's demo
// orders (in USD, JPY, KWD and EUR) acted on by Paydesk, then changed behind its back (refunded elsewhere through the API
// with the shop's own credentials, a refund declined after approval and a capture's amount
// altered with the sandbox's alterOrder), then reconciled from the screen.

import { join } from 'node:path';

import { GatewayClient } from '../../../main/gateway/client';
import type { Sandbox } from '../../../main/sandbox';
import { stableScreenshot } from '../../harness/fixed-clock';
import type { Harness } from '../../harness/harness';
import { until } from '../../support/wait';

export interface Disagreements {
  /** The orders with a finding: refunded elsewhere, refund declined, capture altered. */
  refundedElsewhere: string;
  declined: string;
  altered: string;
  /** A refund Paydesk still calls unsettled, which the gateway holds: its action id. */
  unsettled: string;
}

function sandboxOf(h: Harness): { sandbox: Sandbox; profileId: string } {
  const sandbox = h.services.builtInSandbox;
  const report = h.services.report.sandbox;
  if (!sandbox || !report.running) throw new Error('the built-in sandbox is not running');
  return { sandbox, profileId: report.profileId };
}

export async function makeDisagreements(h: Harness): Promise<Disagreements> {
  const { sandbox, profileId } = sandboxOf(h);
  const orderOf = (coid: string) => {
    const order = sandbox.orders().find((o) => o.clientOrderId === coid);
    if (!order) throw new Error(`no demo order ${coid}`);
    return order.orderid;
  };
  const act = async (kind: 'refund' | 'capture', orderid: string, amount: string) => {
    const { clientOrderId } = h.services.orders.openAction();
    await h.services.orders[kind]({
      profileId,
      orderid,
      clientOrderId,
      amount,
      ...(kind === 'refund' ? { reason: 'Returned goods' } : {}),
    });
    await until(
      async () => (await h.services.port.get(clientOrderId))?.state === 'final',
      30_000,
      `the ${kind} of ${orderid} to be final`,
    );
    return (await h.services.port.get(clientOrderId))!;
  };
  const refundedElsewhere = orderOf('demo-sale-1003');
  await act('refund', refundedElsewhere, '5.00');
  const merchant = sandbox.merchants()[0]!;
  const shop = new GatewayClient({
    baseUrl: sandbox.baseUrl,
    endpointId: merchant.endpointId,
    login: merchant.login,
    controlKey: merchant.controlKey,
  });
  await shop.call('RETURN', {
    client_orderid: 'shop-phone-refund-1003',
    orderid: refundedElsewhere,
    amount: '10.75',
    currency: 'USD',
    comment: 'Refunded by phone',
  });
  const declined = orderOf('demo-sale-1010');
  const refund = await act('refund', declined, '1000');
  const altered = orderOf('demo-auth-2002');
  const capture = await act('capture', altered, '59.00');
  await act('refund', orderOf('demo-sale-1011'), '12.345');
  await until(
    () =>
      sandbox
        .orders()
        .every((o) => o.clientOrderId !== 'shop-phone-refund-1003' || o.status === 'approved'),
    30_000,
    'the refund made elsewhere to be approved',
  );
  sandbox.alterOrder(refund.orderId!, { status: 'declined', reason: 'Reversed by the issuer' });
  sandbox.alterOrder(capture.orderId!, { amountMinor: 4900n });
  // A refund whose answer never came back (the journal calls it unsettled) that the gateway holds.
  const unsettled = 'pd-shot-unsettled-1002';
  const target = orderOf('demo-sale-1002');
  const fields = { client_orderid: unsettled, orderid: target, amount: '10.00', currency: 'EUR' };
  await h.services.port.begin({
    clientOrderId: unsettled,
    profileId,
    operator: 'e2e-clerk',
    operation: 'RETURN',
    targetOrderId: target,
    targetClientOrderId: 'demo-sale-1002',
    action: 'partial-refund',
    amountMinor: 1000n,
    currency: 'EUR',
    reason: 'Returned goods',
    fields,
  });
  await h.services.port.markUnknown(unsettled, {
    code: 'TIMEOUT',
    message: 'No answer came back.',
  });
  await shop.call('RETURN', { ...fields, comment: 'Returned goods' });
  await until(
    () => sandbox.orders().some((o) => o.clientOrderId === unsettled && o.status === 'approved'),
    30_000,
    'the unsettled refund to be approved at the gateway',
  );
  return { refundedElsewhere, declined, altered, unsettled };
}

export async function reconcileOnScreen(h: Harness): Promise<void> {
  const { page } = h;
  await h.open('#/reconcile');
  await page.getByLabel('Requests a second').fill('20');
  await page.getByRole('button', { name: /^Reconcile / }).click();
  await page.getByText('finished', { exact: true }).waitFor({ timeout: 60_000 });
}

export async function shootReconcile(h: Harness, dir: string): Promise<string[]> {
  await makeDisagreements(h);
  await reconcileOnScreen(h);
  const file = join(dir, 'reconcile.png');
  await stableScreenshot(h.page, { path: file, fullPage: true });
  return [file];
}
