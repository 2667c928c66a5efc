// The order page for the README and its browser test: demo-sale-1001 (49.90 EUR, 19.90 refunded
// in the shop, outside Paydesk), where a clerk first asked for the whole amount back (the gateway
// refused and named what was left, 30.00 EUR) and then refunded 10.00 EUR. The page shows what
// is left as the gateway's figure less that refund, with the time it was said, and the timeline.

import { join } from 'node:path';

import type { Harness } from '../../harness/harness';
import { stableScreenshot } from '../../harness/fixed-clock';
import { orderHeading } from './orders';

/** Sends the two refunds through the services, as the Orders screen would, and waits for them. */
export async function prepareOrderPage(
  h: Harness,
  /** Between the two refunds (the screenshots open a page: their clock moves a minute). */
  between: () => Promise<void> = () => Promise.resolve(),
): Promise<{ profileId: string; orderId: string }> {
  const sandbox = (await h.services.profiles.list()).find((p) => p.embedded);
  if (!sandbox) throw new Error('the harness has no Sandbox profile');
  const { orders } = h.services;
  const order = await orders.lookup(sandbox.id, { client_orderid: 'demo-sale-1001' });
  const refund = async (amount: string, reason: string) => {
    const { clientOrderId } = orders.openAction();
    await orders
      .refund({ profileId: sandbox.id, orderid: order.orderId, clientOrderId, amount, reason })
      .catch(() => undefined); // the first one is refused: that is the point
    await orders.settled(clientOrderId);
  };
  await refund('49.90', 'Returned goods');
  await between();
  await refund('10.00', 'Damaged goods');
  return { profileId: sandbox.id, orderId: order.orderId };
}

/** Opens the order page by its link (#/order/<profile>/<orderid>) and waits for its history. */
export async function openOrderPage(h: Harness, profileId: string, orderId: string): Promise<void> {
  await h.open(`#/order/${encodeURIComponent(profileId)}/${encodeURIComponent(orderId)}`);
  await orderHeading(h.page).waitFor();
  await h.page.getByRole('heading', { name: 'History of this order' }).waitFor();
}

export async function shootOrderPage(h: Harness, dir: string): Promise<string[]> {
  const { page } = h;
  const viewport = page.viewportSize();
  const { profileId, orderId } = await prepareOrderPage(h, () => h.open('#/journal'));
  await page.setViewportSize({ width: 1280, height: 800 });
  await openOrderPage(h, profileId, orderId);
  const path = join(dir, 'order-page.png');
  await page.mouse.move(0, 0);
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await stableScreenshot(page, { path, caret: 'hide', animations: 'disabled', fullPage: true });
  if (viewport) await page.setViewportSize(viewport);
  return [path];
}
