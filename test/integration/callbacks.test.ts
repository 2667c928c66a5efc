// Callback check: what a shop pastes is read as a URL, a query string or a POST body, and its
// checksum is verified in main with the profile's control key (the notes' worked value), so a
// forged or altered callback is told apart from a genuine one and says which check failed.

import { beforeEach, describe, expect, it } from 'vitest';

import { callbackControl } from '../../main/gateway';
import { MemorySecretStore } from '../../main/secrets';
import { CallbackService, parseCallbackText } from '../../main/services/callbacks';
import { openDatabase } from '../../main/store/sqlite/database';
import { Profiles } from '../../main/store/sqlite/profiles';

// gateway-notes.md: approved + 123 + invoice-1 under this key gives this control.
const KEY = 'AF4B5DE6-3468-424C-A922-C1DAD7CB4509';
const CONTROL = '5bc8ee48f9ba37c0fd1e0b052a9bc105c6df87e1';
const QUERY = `status=approved&orderid=123&client_orderid=invoice-1&merchant_order=invoice-1&type=sale&amount=10.42&control=${CONTROL}`;

let service: CallbackService;
let shop: string;
let other: string;
let secrets: MemorySecretStore;

const profile = (name: string, endpointId: string) => ({
  name,
  environment: 'test' as const,
  baseUrl: 'https://gate.example.com/paynet',
  endpointId,
  login: name.toLowerCase(),
});

beforeEach(async () => {
  const profiles = new Profiles(openDatabase(':memory:'));
  secrets = new MemorySecretStore();
  shop = profiles.create(profile('Shop', '1111')).id;
  other = profiles.create(profile('Other', '2222')).id;
  await secrets.set(shop, 'control-key', KEY);
  await secrets.set(other, 'control-key', 'OTHER-KEY-0001');
  service = new CallbackService(profiles, secrets);
});

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
  it('calls the worked example genuine, with its fields and the order to look up', async () => {
    const result = await service.check(shop, `https://shop.example/callback?${QUERY}`);
    expect(result.verdict).toBe('genuine');
    expect(result.message).toMatch(/^Genuine: the checksum matches the control key of "Shop"/);
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

  it('names the other profile whose key signed it', async () => {
    const control = callbackControl('approved', '77', 'inv-77', 'OTHER-KEY-0001');
    const result = await service.check(
      shop,
      `status=approved&orderid=77&client_orderid=inv-77&control=${control}`,
    );
    expect(result.verdict).toBe('other-profile');
    expect(result.matchedProfile).toEqual({ id: other, name: 'Other' });
    expect(result.message).toMatch(/control key of "Other", not of "Shop"/);
  });

  it('shows a card number in the callback only masked', async () => {
    const result = await service.check(shop, `${QUERY}&card-number=4111111111111111`);
    expect(result.verdict).toBe('genuine');
    expect(result.fields.find((f) => f.name === 'card-number')?.value).toBe('411111******1111');
    expect(JSON.stringify(result)).not.toContain('4111111111111111');
  });

  it('says what to do when the profile has no control key', async () => {
    await secrets.delete(shop, 'control-key');
    await expect(service.check(shop, QUERY)).rejects.toMatchObject({ code: 'NO_SECRET' });
  });
});
