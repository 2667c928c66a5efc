// Screenshots of the tools screens for docs/screenshots (npm run screenshots): the callback
// check with a genuine callback of the built-in sandbox pasted and checked.

import { join } from 'node:path';

import { callbackControl } from '../../../main/gateway';
import type { Harness } from '../../harness/harness';
import { stableScreenshot } from '../../harness/fixed-clock';

/** A callback as the shop would receive it for a sandbox order, signed with the profile's key. */
export async function sandboxCallback(h: Harness, status = 'approved'): Promise<string> {
  const sandbox = (await h.services.profiles.list()).find((p) => p.embedded);
  if (!sandbox) throw new Error('The harness has no built-in Sandbox profile.');
  const key = await h.secrets.get(sandbox.id, 'control-key');
  if (!key) throw new Error('The Sandbox profile has no control key.');
  const order = await h.services.orders.lookup(sandbox.id, { client_orderid: 'demo-sale-1001' });
  const control = callbackControl(status, order.orderId, 'demo-sale-1001', key);
  return (
    `https://shop.example/paydesk/callback?status=${status}&orderid=${order.orderId}` +
    `&client_orderid=demo-sale-1001&merchant_order=demo-sale-1001&type=sale&amount=49.90` +
    `&currency=EUR&card-number=4111111111111111&control=${control}`
  );
}

export async function shootTools(h: Harness, dir: string): Promise<string[]> {
  const { page } = h;
  await h.open('#/callback-check');
  await page.getByLabel('Callback as received').fill(await sandboxCallback(h));
  await page.getByRole('button', { name: 'Check' }).click();
  await page.getByRole('heading', { name: 'Genuine' }).waitFor();
  const file = join(dir, 'callback-check.png');
  await stableScreenshot(page, { path: file, fullPage: true });
  // The same callback with its amount changed: the checksum still matches, the gateway does not.
  const altered = (await sandboxCallback(h)).replace('amount=49.90', 'amount=4990.00');
  await page.getByLabel('Callback as received').fill(altered);
  await page.getByRole('button', { name: 'Check' }).click();
  await page.getByRole('heading', { name: 'Altered: the gateway says otherwise' }).waitFor();
  const alteredFile = join(dir, 'callback-check-altered.png');
  await stableScreenshot(page, { path: alteredFile, fullPage: true });
  return [file, alteredFile];
}
