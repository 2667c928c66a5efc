// One order seen through two profiles of the same merchant account (a back office and a front
// desk profile, say): the order's page looked up on one names the other profile of an entry made
// on it, as the profiles list names it. (A desk keeps every profile that has entries; a profile
// gone from under its entries, on a team, is test/unit/renderer/order-timeline.test.tsx's.)
// Against a sandbox that forgives nothing.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, expect, it } from 'vitest';

import type { Sandbox } from '../../main/sandbox';
import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices } from '../../main/services/app';
import type { OrderView, TimelineItem } from '../../main/services/orders/view';
import { CONTROL_KEY } from '../support/samples';
import { approvedOrder, SHOP, shopClient, startShopSandbox } from '../support/shop';
import { until } from '../support/wait';

let sandbox: Sandbox;
let dataDir: string;
let app: PaydeskServices;

beforeAll(async () => {
  sandbox = await startShopSandbox(CONTROL_KEY, { forgiveNothing: true });
  dataDir = mkdtempSync(join(tmpdir(), 'paydesk-timeline-profiles-'));
  app = await PaydeskServices.start({
    dataDir,
    secrets: new MemorySecretStore(),
    operator: 'ann',
    backups: 'off',
    wait: { delayAfter: () => 25, giveUpAfterMs: 20_000 },
  });
});

afterAll(async () => {
  await app?.close();
  await sandbox?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const profileOfShop = async (name: string) =>
  (
    await app.profiles.create({
      name,
      environment: 'sandbox',
      baseUrl: sandbox.baseUrl,
      endpointId: SHOP.endpointId,
      login: SHOP.login,
      controlKey: CONTROL_KEY,
    })
  ).id;

const entryItems = (view: OrderView) =>
  view.timeline.filter((i): i is Extract<TimelineItem, { kind: 'entry' }> => i.kind === 'entry');

it('names the other profile an entry was made on, as the profiles list has it', async () => {
  const backOffice = await profileOfShop('Shop back office');
  const frontDesk = await profileOfShop('Shop front desk');
  const orderid = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '20.00');
  const { clientOrderId: first } = app.orders.openAction();
  await app.orders.refund({
    profileId: backOffice,
    orderid,
    clientOrderId: first,
    amount: '2.00',
    reason: 'Goodwill',
  });
  // One refund of an order at a time: the next waits for the gateway's final word.
  await until(
    async () => (await app.journal.entry(first)).row.state === 'final',
    20_000,
    'the first refund to be final',
  );
  const { clientOrderId: second } = app.orders.openAction();
  await app.orders.refund({
    profileId: frontDesk,
    orderid,
    clientOrderId: second,
    amount: '3.00',
    reason: 'Damaged',
  });

  const onFrontDesk = entryItems(await app.orders.lookup(frontDesk, { orderid }));
  expect(
    onFrontDesk.map((i) => [i.entry.clientOrderId, i.entry.profileName, i.otherProfile]),
  ).toEqual([
    [first, 'Shop back office', { name: 'Shop back office' }],
    [second, 'Shop front desk', null],
  ]);
}, 60_000);
