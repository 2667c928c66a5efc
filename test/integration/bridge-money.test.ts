// The money-moving calls as the renderer makes them: through the real bridge (zod on the way
// in and out), the handlers and the services the app starts, against the embedded sandbox. A
// card number typed as a payout destination goes in, and never comes back out: not in a
// result, not in the journal the screens read, not in any file Paydesk writes.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, expect, it } from 'vitest';

import { createBridge, type Bridge } from '../../main/bridge';
import { createHandlers } from '../../main/handlers';
import { fileLogger } from '../../main/log';
import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices } from '../../main/services/app';
import { channelOf } from '../../common/contract';

const PAN = '5555555555554444';
let dataDir: string;
let app: PaydeskServices | undefined;
let bridge: Bridge;

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'paydesk-bridge-money-'));
  app = await PaydeskServices.start({
    dataDir,
    secrets: new MemorySecretStore(),
    operator: 'ann',
    wait: { delayAfter: () => 25, giveUpAfterMs: 20_000 },
    sandboxDelayMs: 50,
    log: fileLogger(join(dataDir, 'paydesk.log')),
  });
  bridge = createBridge(
    createHandlers(app, {
      version: 'test',
      operator: 'ann',
      saveFile: () => Promise.resolve({ saved: false }),
      copyText: () => undefined,
    }),
    { isTrustedSender: () => true },
  );
});

afterEach(async () => {
  await app?.close();
  app = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

const call = async (namespace: string, method: string, payload: unknown) => {
  const answer = await bridge.handle(
    channelOf(namespace, method),
    { url: 'app://paydesk/', isTopFrame: true },
    payload,
  );
  return answer;
};

it('a payout to a typed card number: the number goes to the gateway and never comes back', async () => {
  const profileId = app!.report.sandbox.running ? app!.report.sandbox.profileId : '';
  const opened = await call('orders', 'openAction', {});
  const clientOrderId = (opened as { ok: true; data: { clientOrderId: string } }).data
    .clientOrderId;
  const payout = {
    profileId,
    clientOrderId,
    destination: { kind: 'card', cardNumber: '5555 5555 5555 4444' },
    receiverFirstName: 'Anna',
    receiverLastName: 'Berg',
    amount: '12.00',
    currency: 'EUR',
    description: 'Deposit back',
  };
  const sent = await call('payouts', 'check', payout);
  expect(sent).toMatchObject({ ok: true, data: { entry: { operation: 'PAYOUT_V4_CHECK' } } });
  await app!.orders.settled(clientOrderId);
  const waiting = await call('payouts', 'toPay', { profileId });
  expect(waiting).toMatchObject({
    ok: true,
    data: [{ clientOrderId, destination: 'card 555555******4444', state: 'checked' }],
  });
  const pay = await call('payouts', 'pay', {
    profileId,
    clientOrderId: `${clientOrderId}-pay`,
    checkClientOrderId: clientOrderId,
  });
  expect(pay).toMatchObject({ ok: true });
  await app!.orders.settled(`${clientOrderId}-pay`);
  // A mistyped number is refused with a sentence, and the sentence does not repeat it.
  const wrong = await call('payouts', 'send', {
    ...payout,
    clientOrderId: `${clientOrderId}-2`,
    destination: { kind: 'card', cardNumber: '5555555555554445' },
  });
  expect(wrong).toMatchObject({ ok: false, error: { code: 'INPUT' } });
  expect(JSON.stringify(wrong)).toMatch(/check digit/);
  // A card number pasted into the description is refused before anything is sent.
  const pasted = await call('payouts', 'send', {
    ...payout,
    clientOrderId: `${clientOrderId}-3`,
    description: `Refund to card ${PAN}`,
  });
  expect(pasted).toMatchObject({ ok: false });
  expect(JSON.stringify(pasted)).toMatch(/card number/i);
  const journal = await call('journal', 'search', { filter: {}, offset: 0, limit: 100 });
  for (const answer of [sent, waiting, pay, wrong, pasted, journal])
    expect(JSON.stringify(answer)).not.toMatch(/5555555555554444|5555555555554445/);
  await app!.close();
  app = undefined;
  for (const file of readdirSync(dataDir).filter((f) => f.startsWith('paydesk'))) {
    const text = readFileSync(join(dataDir, file)).toString('latin1');
    expect(text.includes(PAN), file).toBe(false);
  }
});
