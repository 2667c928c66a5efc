// Callback check: what a shop pastes is read as a URL, a query string or a POST body, and its
// checksum is verified in main with the profile's control key (the notes' worked value), so a
// forged or altered callback is told apart from a genuine one and says which check failed. A
// callback whose checksum matches is compared with the built-in sandbox's answer about the
// order, so a changed amount, currency or status is caught though the checksum cannot see it.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { callbackControl } from '../../main/gateway';
import { GatewayClient } from '../../main/gateway/client';
import { startSandbox, type Sandbox } from '../../main/sandbox';
import { MemorySecretStore } from '../../main/secrets';
import { CallbackService, parseCallbackText } from '../../main/services/callbacks';
import { Connections } from '../../main/services/connection';
import { openDatabase } from '../../main/store/sqlite/database';
import { Profiles } from '../../main/store/sqlite/profiles';
import { approvedOrder } from '../support/shop';

// gateway-notes.md: approved + 123 + invoice-1 under this key gives this control.
const KEY = 'AF4B5DE6-3468-424C-A922-C1DAD7CB4509';
const CONTROL = '5bc8ee48f9ba37c0fd1e0b052a9bc105c6df87e1';
const QUERY = `status=approved&orderid=123&client_orderid=invoice-1&merchant_order=invoice-1&type=sale&amount=10.42&control=${CONTROL}`;
const OTHER_KEY = 'OTHER-KEY-0001';

let service: CallbackService;
let shop: string;
let other: string;
let secrets: MemorySecretStore;
let sandbox: Sandbox;

const profile = (name: string, endpointId: string) => ({
  name,
  environment: 'sandbox' as const,
  baseUrl: sandbox.baseUrl,
  endpointId,
  login: name.toLowerCase(),
});

beforeEach(async () => {
  sandbox = await startSandbox({
    merchants: [
      { login: 'shop', endpointId: '1111', controlKey: KEY },
      { login: 'other', endpointId: '2222', controlKey: OTHER_KEY },
    ],
    delayMs: 50,
    tickMs: 20,
    log: () => undefined,
  });
  const profiles = new Profiles(openDatabase(':memory:'));
  secrets = new MemorySecretStore();
  shop = profiles.create(profile('Shop', '1111')).id;
  other = profiles.create(profile('Other', '2222')).id;
  await secrets.set(shop, 'control-key', KEY);
  await secrets.set(other, 'control-key', OTHER_KEY);
  service = new CallbackService(profiles, secrets, new Connections(profiles, secrets));
});

afterEach(async () => {
  await sandbox.close();
});

/** A callback for an approved sale of 49.90 EUR made at the sandbox, signed with `key`. */
async function saleCallback(key = KEY, login = 'shop', endpointId = '1111') {
  const client = new GatewayClient({
    baseUrl: sandbox.baseUrl,
    login,
    endpointId,
    controlKey: key,
  });
  const orderid = await approvedOrder(client, 'SALE', '49.90');
  const { clientOrderId } = await client.status({ orderid });
  client.close();
  /** The callback with some of its fields replaced; the checksum is made for what it says. */
  return (change: Record<string, string> = {}) => {
    const fields: Record<string, string> = {
      status: 'approved',
      orderid,
      client_orderid: clientOrderId!,
      type: 'sale',
      amount: '49.90',
      currency: 'EUR',
      ...change,
    };
    fields.control = callbackControl(fields.status!, orderid, fields.client_orderid!, key);
    return `https://shop.example/callback?${new URLSearchParams(fields).toString()}`;
  };
}

describe('reading what was pasted', () => {
  it.each([
    [`https://shop.example/callback?${QUERY}`, 'url'],
    [`/callback?${QUERY}`, 'query'],
    [`?${QUERY}`, 'query'],
    [QUERY, 'form'],
    [`  ${QUERY.replace('&type', '\n&type')}\n`, 'form'],
  ])('reads %j as a %s', (text, readAs) => {
    const parsed = parseCallbackText(text);
    expect(parsed.readAs).toBe(readAs);
    expect(Object.fromEntries(parsed.params)).toMatchObject({ orderid: '123', control: CONTROL });
  });

  it.each(['', 'hello there', 'https://', 'a=1&b=2'])(
    'refuses %j, saying what to paste',
    (text) => {
      expect(() => parseCallbackText(text)).toThrow(/Paste/);
    },
  );
});

describe('checking a callback', () => {
  it('says only the checksum was checked when the gateway has no such order', async () => {
    const result = await service.check(shop, `https://shop.example/callback?${QUERY}`);
    expect(result.verdict).toBe('checksum-only');
    expect(result.message).toMatch(
      /^Only the checksum was checked: it matches the control key of "Shop", but the gateway has no order 123/,
    );
    expect(result.message).toMatch(/not the amount/);
    expect(result).toMatchObject({
      orderid: '123',
      clientOrderId: 'invoice-1',
      status: 'approved',
    });
    expect(result.fields.map((f) => f.name)).toEqual([
      'status',
      'orderid',
      'client_orderid',
      'merchant_order',
      'type',
      'amount',
      'control',
    ]);
  });

  it('calls a callback whose status was changed not genuine', async () => {
    const result = await service.check(shop, QUERY.replace('approved', 'declined'));
    expect(result.verdict).toBe('forged');
    expect(result.message).toMatch(/does not match status, orderid and client_orderid/);
  });

  it('calls a made-up checksum not genuine', async () => {
    const result = await service.check(shop, QUERY.replace(CONTROL, 'f'.repeat(40)));
    expect(result.verdict).toBe('forged');
  });

  it('says which field is missing when the checksum cannot be checked', async () => {
    const result = await service.check(shop, QUERY.replace(`&control=${CONTROL}`, ''));
    expect(result.verdict).toBe('incomplete');
    expect(result.message).toMatch(/has no control/);
  });

  it('refuses a field given twice with different values (the second could be what a shop reads)', async () => {
    const result = await service.check(shop, `${QUERY}&status=declined`);
    expect(result.verdict).toBe('incomplete');
    expect(result.message).toMatch(/status appears twice/);
  });

  it('names the other profile whose key signed it, once its gateway confirms the order', async () => {
    const callback = await saleCallback(OTHER_KEY, 'other', '2222');
    const result = await service.check(shop, callback());
    expect(result.verdict).toBe('other-profile');
    expect(result.matchedProfile).toEqual({ id: other, name: 'Other' });
    expect(result.message).toMatch(/control key of "Other", not of "Shop"/);
    expect(result.message).toMatch(/confirms its status, amount, currency and type/);
  });

  it('shows a card number in the callback only masked', async () => {
    const result = await service.check(shop, `${QUERY}&card-number=4111111111111111`);
    expect(result.verdict).toBe('checksum-only');
    expect(result.fields.find((f) => f.name === 'card-number')?.value).toBe('411111******1111');
    expect(JSON.stringify(result)).not.toContain('4111111111111111');
  });

  it('says what to do when the profile has no control key', async () => {
    await secrets.delete(shop, 'control-key');
    await expect(service.check(shop, QUERY)).rejects.toMatchObject({ code: 'NO_SECRET' });
  });
});

describe('comparing a callback whose checksum matches with the gateway', () => {
  it('calls it genuine only when the gateway confirms status, amount, currency and type', async () => {
    const callback = await saleCallback();
    const result = await service.check(shop, callback());
    expect(result.verdict).toBe('genuine');
    expect(result.message).toBe(
      'Genuine: the checksum matches the control key of "Shop", and the gateway confirms its status, amount, currency and type.',
    );
    // The same amount written otherwise is the same amount.
    expect((await service.check(shop, callback({ amount: '49.9' }))).verdict).toBe('genuine');
  });

  it('calls a changed amount altered, never genuine, and says what the gateway says', async () => {
    const callback = await saleCallback();
    const result = await service.check(shop, callback({ amount: '4990.00' }));
    expect(result.verdict).toBe('altered');
    expect(result.message).toMatch(
      /^The checksum matches, but the gateway says 49\.90 EUR, not 4990\.00 EUR: this callback was altered\./,
    );
    expect(result.differences).toEqual([
      { field: 'amount', callback: '4990.00', gateway: '49.90' },
    ]);
  });

  it('calls a changed currency altered', async () => {
    const callback = await saleCallback();
    const result = await service.check(shop, callback({ currency: 'USD' }));
    expect(result.verdict).toBe('altered');
    expect(result.message).toMatch(
      /the gateway says 49\.90 EUR, not 49\.90 USD: this callback was altered/,
    );
  });

  it('calls a changed status altered even when its checksum was made for it', async () => {
    // Whoever holds the control key can sign any status; the gateway still knows the order's.
    const callback = await saleCallback();
    const result = await service.check(shop, callback({ status: 'declined' }));
    expect(result.verdict).toBe('altered');
    expect(result.message).toMatch(/the gateway says status approved, not declined: this callback/);
    const type = await service.check(shop, callback({ type: 'reversal', amount: '1.00' }));
    expect(type.verdict).toBe('altered');
    expect(type.message).toMatch(/type sale, not reversal; 49\.90 EUR, not 1\.00 EUR/);
  });

  it('says only the checksum was checked when the gateway cannot be reached', async () => {
    const callback = await saleCallback();
    await sandbox.close();
    const result = await service.check(shop, callback({ amount: '4990.00' }));
    expect(result.verdict).toBe('checksum-only');
    expect(result.message).toMatch(
      /^Only the checksum was checked: it matches the control key of "Shop", but the gateway could not be asked about order \d+ \(/,
    );
  });
});
