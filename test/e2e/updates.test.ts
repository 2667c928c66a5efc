// Settings -> Updates in Chromium against the real services and a feed on 127.0.0.1: the
// version running and the one offered, "Install and restart" disabled with main's sentence while
// a refund waits for the gateway's final answer, and pressed once the answer is in. With
// PAYDESK_SHOTS=<folder>: updates.png.

import { mkdirSync } from 'node:fs';

import { afterAll, afterEach, expect, it } from 'vitest';

import { closeSharedBrowser } from '../harness/harness';
import { refundDemoSale, shootUpdates, updatesDesk, type UpdatesDesk } from './shots/updates';

const SHOTS = process.env.PAYDESK_SHOTS;
let desk: UpdatesDesk | undefined;

afterEach(async () => {
  await desk?.close();
  desk = undefined;
});
afterAll(closeSharedBrowser);

it('offers the newer version and installs it only once the refund in flight has its answer', async () => {
  desk = await updatesDesk(2_500);
  const { h } = desk;
  await desk.updates().check();
  const refund = await refundDemoSale(h);
  await h.open('#/updates');
  const page = h.page;
  await page.getByText('Downloaded, ready to install').waitFor();
  expect(await page.locator('.update-facts').innerText()).toMatch(
    /Running\s+0\.1\.0\s+Offered\s+0\.2\.0/,
  );
  const install = page.getByRole('button', { name: 'Install and restart' });
  await page
    .getByText(/^Not now: a refund of order \d+ is waiting for the gateway's final answer/)
    .waitFor();
  expect(await install.isDisabled()).toBe(true);
  expect(desk.installs()).toBe(0);

  expect(await h.services.orders.settled(refund)).toMatchObject({ state: 'final' });
  // The journal's change reaches the screen, which asks again: the button is enabled.
  await page.waitForFunction(
    () =>
      !(
        [...document.querySelectorAll('button')].find(
          (b) => b.textContent === 'Install and restart',
        ) as HTMLButtonElement
      ).disabled,
  );
  await install.click();
  await page.getByText('Paydesk is closing to install the update').waitFor();
  expect(desk.installs()).toBe(1);
}, 60_000);

it.runIf(SHOTS)('updates.png', async () => {
  mkdirSync(SHOTS!, { recursive: true });
  await shootUpdates(SHOTS!);
});
