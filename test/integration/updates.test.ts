// Settings -> Updates against a feed on 127.0.0.1, with electron-updater's own Linux updater
// reading it (test/support/update-feed.ts): a newer version is downloaded and offered, a
// download whose sha512 does not match the feed's is discarded and never offered, and "Install
// and restart" waits while a refund of this desk is in flight at a gateway that forgives nothing.
// Only quitAndInstall, which runs the package manager and quits Electron, is held: the test
// records that it was asked for, and when.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { startSandbox, type Sandbox } from '../../main/sandbox';
import { inFlightNow } from '../../main/services/in-flight-now';
import type { InFlightNow } from '../../main/update/policy';
import { Updates } from '../../main/update/updates';
import { CONTROL_KEY } from '../support/samples';
import { FAST, sqliteStore, type ServiceDesk, type ServiceStore } from '../support/service-stores';
import { approvedOrder, SHOP, shopClient } from '../support/shop';
import { sleep, until } from '../support/wait';
import { debUpdater, startFeed, type FeedServer } from '../support/update-feed';

const NOTHING_IN_FLIGHT = (): Promise<InFlightNow> => Promise.resolve({ entries: [], batches: [] });
const PACKAGE = Buffer.from('paydesk 0.2.0 package bytes '.repeat(4096));

let dir: string;
let feed: FeedServer | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-updates-'));
});

afterEach(async () => {
  await feed?.close();
  feed = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** The updater for Paydesk `running`, reading the feed, with quitAndInstall recorded. */
function updatesFor(running: string, inFlight = NOTHING_IN_FLIGHT) {
  const { updater, app } = debUpdater(dir, running, feed!.url);
  const quitAndInstall = vi.spyOn(updater, 'quitAndInstall').mockImplementation(() => app.quit());
  const updates = new Updates({
    running,
    feed: feed!.url,
    updater,
    inFlightNow: inFlight,
  });
  return { updates, quitAndInstall, app };
}

/** Files electron-updater kept in its cache for the pending update. */
function downloaded(): { name: string; bytes: Buffer }[] {
  const pending = join(dir, 'cache', 'paydesk-updater', 'pending');
  if (!existsSync(pending)) return [];
  return readdirSync(pending)
    .filter((name) => name.endsWith('.deb'))
    .map((name) => ({ name, bytes: readFileSync(join(pending, name)) }));
}

describe('a feed on 127.0.0.1', () => {
  it('offers a newer version: downloaded in the background, then installable', async () => {
    feed = await startFeed({ version: '0.2.0', bytes: PACKAGE });
    const { updates, quitAndInstall, app } = updatesFor('0.1.0');
    await updates.check();
    expect(await updates.view()).toMatchObject({
      running: '0.1.0',
      phase: 'ready',
      offered: '0.2.0',
      message: null,
      install: { allowed: true },
    });
    expect(downloaded()).toEqual([{ name: 'paydesk_0.2.0_amd64.deb', bytes: PACKAGE }]);
    expect(quitAndInstall).not.toHaveBeenCalled();
    expect(await updates.install()).toEqual({ installing: true });
    expect(quitAndInstall).toHaveBeenCalledTimes(1);
    expect(app.quits).toBe(1);
  });

  it('says up to date when the feed offers the version running, and downloads nothing', async () => {
    feed = await startFeed({ version: '0.2.0', bytes: PACKAGE });
    const { updates } = updatesFor('0.2.0');
    await updates.check();
    expect(await updates.view()).toMatchObject({
      phase: 'up-to-date',
      offered: null,
      install: { allowed: false, reason: 'No update has been downloaded yet.' },
    });
    expect(feed.served).toEqual(['/latest-linux.yml']);
  });

  it("refuses a download whose sha512 is not the feed's: discarded, never installable", async () => {
    const tamper = Buffer.from(PACKAGE);
    tamper[100] = 0x21;
    feed = await startFeed({ version: '0.2.0', bytes: PACKAGE, tamper });
    const { updates, quitAndInstall } = updatesFor('0.1.0');
    await updates.check();
    const view = await updates.view();
    expect(view).toMatchObject({ phase: 'failed', install: { allowed: false } });
    expect(view.message).toMatch(
      /did not match the feed's sha512 checksum.*nothing will be installed/,
    );
    expect(feed.served).toContain('/paydesk_0.2.0_amd64.deb');
    expect(downloaded()).toEqual([]);
    expect(await updates.install()).toEqual({
      installing: false,
      reason: 'No update has been downloaded yet.',
    });
    expect(quitAndInstall).not.toHaveBeenCalled();
  });
});

describe('installing waits for what is in flight', () => {
  let sandbox: Sandbox;
  let store: ServiceStore;
  let desk: ServiceDesk;

  beforeAll(async () => {
    // A gateway that forgives nothing, and orders that stay processing long enough to look.
    sandbox = await startSandbox({
      merchants: [{ ...SHOP, controlKey: CONTROL_KEY }],
      delayMs: 1_500,
      tickMs: 20,
      log: () => undefined,
      misbehaviour: { noDedupe: true },
    });
    store = sqliteStore({ baseUrl: sandbox.baseUrl, controlKey: CONTROL_KEY });
    desk = await store.desk({ service: FAST });
  });

  afterAll(async () => {
    await store?.close();
    await sandbox?.close();
  });

  it('defers "Install and restart" while a refund waits for its final answer, then installs', async () => {
    feed = await startFeed({ version: '0.2.0', bytes: PACKAGE });
    const { updates, quitAndInstall } = updatesFor('0.1.0', () =>
      inFlightNow(desk.path, desk.port, desk.batches),
    );
    await updates.check();
    expect((await updates.view()).install).toEqual({ allowed: true });

    const saleId = await approvedOrder(shopClient(sandbox, CONTROL_KEY), 'SALE', '10.00');
    const { clientOrderId } = desk.orders.openAction();
    const refunded = await desk.orders.refund({
      profileId: store.profileId,
      orderid: saleId,
      clientOrderId,
      amount: '4.00',
      reason: 'Damaged',
    });
    expect(refunded.entry.state).toBe('acknowledged');

    const reason =
      `Not now: a refund of order ${saleId} is waiting for the gateway's final answer. ` +
      'Restarting would interrupt it. Install once its answer is in.';
    expect((await updates.view()).install).toEqual({ allowed: false, reason });
    expect(await updates.install()).toEqual({ installing: false, reason });
    expect(quitAndInstall).not.toHaveBeenCalled();

    expect(await desk.orders.settled(clientOrderId)).toMatchObject({
      state: 'final',
      status: 'approved',
    });
    expect(await updates.install()).toEqual({ installing: true });
    expect(quitAndInstall).toHaveBeenCalledTimes(1);
  }, 30_000);
});

describe('when the feed is asked', () => {
  it('at start, then again once a day has passed since the last check', async () => {
    feed = await startFeed({ version: '0.1.0', bytes: PACKAGE });
    const { updater } = debUpdater(dir, '0.1.0', feed.url);
    let now = Date.parse('2026-11-27T09:00:00Z');
    const updates = new Updates({
      running: '0.1.0',
      feed: feed.url,
      updater,
      inFlightNow: NOTHING_IN_FLIGHT,
      now: () => now,
      tickMs: 10,
    });
    const asked = () => feed!.served.filter((path) => path === '/latest-linux.yml').length;
    try {
      updates.start();
      await until(() => asked() === 1, 5_000, 'the check at start');
      await sleep(100); // ten ticks within the day: no check
      expect(asked()).toBe(1);
      now += 24 * 60 * 60_000;
      await until(() => asked() === 2, 5_000, 'the check a day later');
      expect((await updates.view()).checkedAt).toBe('2026-11-28T09:00:00.000Z');
    } finally {
      updates.stop();
    }
  });
});
