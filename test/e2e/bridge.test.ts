// The bridge as the page sees it: calls reach the real services, malformed payloads become
// typed errors, and a frame that is not the app's top frame is refused.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { closeSharedBrowser, startHarness, type Harness } from '../harness/harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.open();
}, 60_000);
afterAll(async () => {
  await h.close();
  await closeSharedBrowser();
});

describe('window.paydesk in the page', () => {
  it('answers the app status through the real bridge and services', async () => {
    const status = await h.page.evaluate(() => window.paydesk!.app.status({}));
    expect(status).toMatchObject({
      ok: true,
      data: { firstRun: true, keychain: { usable: true }, sandbox: { running: true } },
    });
  });

  it('exposes only the contract: no ipcRenderer, no generic invoke', async () => {
    const keys = await h.page.evaluate(() => Object.keys(window.paydesk!).sort());
    expect(keys).toEqual([
      'app',
      'backups',
      'batches',
      'cards',
      'journal',
      'keys',
      'lifecycle',
      'network',
      'on',
      'orders',
      'payLinks',
      'payouts',
      'profiles',
      'reconcile',
      'recurring',
      'reports',
      'session',
      'support',
      'team',
      'tools',
      'updates',
      'version',
    ]);
    expect(
      await h.page.evaluate(() => typeof (window as unknown as { require?: unknown }).require),
    ).toBe('undefined');
  });

  it('turns a malformed payload into a typed error that names the field', async () => {
    const result = await h.page.evaluate(() =>
      (window.paydesk!.orders.refund as (r: unknown) => Promise<unknown>)({
        profileId: 'x',
        orderid: '1',
        clientOrderId: 'pd-a',
        amount: '10.0001', // more decimals than any currency has
      }),
    );
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST', field: 'amount' },
    });
    const extra = await h.page.evaluate(() =>
      (window.paydesk!.app.status as (r: unknown) => Promise<unknown>)({ evil: true }),
    );
    expect(extra).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
  });

  it('refuses a call from a frame that is not the top frame', async () => {
    const result = await h.page.evaluate(async () => {
      const frame = document.createElement('iframe');
      frame.srcdoc = '<p>child</p>';
      document.body.append(frame);
      await new Promise((r) => frame.addEventListener('load', r));
      const invoke = (
        frame.contentWindow as unknown as {
          __paydeskInvoke?: (c: string, p: unknown) => Promise<unknown>;
        }
      ).__paydeskInvoke;
      return invoke
        ? invoke('paydesk:app.status', {})
        : { ok: false, error: { code: 'NO_BINDING' } };
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });
});
