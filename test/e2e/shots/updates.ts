// Settings -> Updates in the browser harness for the e2e test and docs/screenshots: a feed on
// 127.0.0.1 offering 0.2.0 to a Paydesk 0.1.0, read and downloaded by electron-updater's own
// Linux updater, and a refund of a demo order waiting for the gateway's final answer (the
// built-in sandbox keeps orders processing for `processingMs`), so "Install and restart" is
// disabled with its reason.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Updates } from '../../../main/update/updates';
import { startHarness, type Harness } from '../../harness/harness';
import { debUpdater, startFeed, type FeedServer } from '../../support/update-feed';
import { stableScreenshot } from '../../harness/fixed-clock';

export interface UpdatesDesk {
  h: Harness;
  feed: FeedServer;
  updates: () => Updates;
  /** quitAndInstall's calls: the installer and Electron's quit are not run here. */
  installs: () => number;
  close(): Promise<void>;
}

export async function updatesDesk(processingMs: number, feedPort?: number): Promise<UpdatesDesk> {
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-e2e-updates-'));
  const feed = await startFeed({
    version: '0.2.0',
    bytes: Buffer.from('paydesk 0.2.0 '.repeat(8192)),
    ...(feedPort ? { port: feedPort } : {}),
  });
  let installs = 0;
  let made: Updates | undefined;
  const h = await startHarness({
    services: {
      sandboxDelayMs: processingMs,
      // Followed as long as it processes: the screenshots' clock moves a minute per page opened,
      // which the harness's one-minute window would take for a refund processing too long, and
      // its follow-up would stop before the page asks what is in flight.
      wait: { delayAfter: () => 200, giveUpAfterMs: 2 * processingMs },
    },
    updates: (services) => {
      const { updater } = debUpdater(dir, '0.1.0', feed.url);
      updater.quitAndInstall = () => {
        installs += 1;
      };
      made = new Updates({
        running: '0.1.0',
        feed: feed.url,
        updater,
        inFlightNow: () => services.inFlightNow(),
      });
      return made;
    },
  });
  return {
    h,
    feed,
    updates: () => made!,
    installs: () => installs,
    close: async () => {
      await h.close();
      await feed.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Refunds 1.00 of the demo sale through the services, as the Orders screen does. */
export async function refundDemoSale(h: Harness): Promise<string> {
  const [profile] = await h.services.profiles.list();
  const sale = await h.services.orders.lookup(profile!.id, { client_orderid: 'demo-sale-1001' });
  const { clientOrderId } = h.services.orders.openAction();
  await h.services.orders.refund({
    profileId: profile!.id,
    orderid: sale.orderId,
    clientOrderId,
    amount: '1.00',
    reason: 'Goodwill',
  });
  return clientOrderId;
}

/** `feedPort`: the screenshots' fixed one (the picture shows the feed's address). */
export async function shootUpdates(dir: string, feedPort?: number): Promise<string[]> {
  const desk = await updatesDesk(120_000, feedPort);
  try {
    await desk.updates().check();
    await refundDemoSale(desk.h);
    await desk.h.open('#/updates');
    await desk.h.page.getByText(/^Not now: a refund of order/).waitFor();
    const file = join(dir, 'updates.png');
    await stableScreenshot(desk.h.page, { path: file, fullPage: true });
    return [file];
  } finally {
    await desk.close();
  }
}
