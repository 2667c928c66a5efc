// main/bridge.ts: one handle() for every call. These tests feed it what a hostile or buggy
// renderer could send, and check what comes back.

import { describe, expect, it, vi } from 'vitest';

import { channelOf, allCalls } from '../../../common/contract';
import { createBridge, isAppTopFrame, registerBridge, type Handlers } from '../../../main/bridge';
import { InputError, TransportError, ValidationError } from '../../../main/gateway/errors';
import { ServiceError } from '../../../main/services/errors';

const app = { url: 'app://paydesk/index.html', isTopFrame: true };
const profile = {
  id: 'p1',
  name: 'Sandbox',
  environment: 'sandbox' as const,
  baseUrl: 'http://127.0.0.1:1/paynet',
  endpointId: '1111',
  endpointKind: 'endpoint' as const,
  login: 'shop',
  keyFingerprint: null,
  payoutFourEyes: false,
  embedded: true,
  hasControlKey: true,
  hasPrivateKey: false,
  createdAt: '2026-11-21T00:00:00.000Z',
  updatedAt: '2026-11-21T00:00:00.000Z',
};

function bridgeWith(overrides: {
  profiles?: Partial<Handlers['profiles']>;
  orders?: Partial<Handlers['orders']>;
}) {
  const handlers = {
    profiles: { list: () => [profile], ...overrides.profiles },
    orders: { ...overrides.orders },
  } as unknown as Handlers;
  return createBridge(handlers, { isTrustedSender: isAppTopFrame('app://paydesk') });
}

describe('the bridge', () => {
  it('answers a call from the app top frame with { ok: true, data }', async () => {
    const result = await bridgeWith({}).handle(channelOf('profiles', 'list'), app, {});
    expect(result).toEqual({ ok: true, data: [profile] });
  });

  it('refuses other origins and frames that are not the top frame, before any handler runs', async () => {
    const list = vi.fn(() => [profile]);
    const bridge = bridgeWith({ profiles: { list } });
    for (const sender of [
      { url: 'app://paydesk/index.html', isTopFrame: false },
      { url: 'https://evil.example/index.html', isTopFrame: true },
      { url: 'app://paydesk.evil/index.html', isTopFrame: true },
      { url: 'app://evil@paydesk/index.html', isTopFrame: true },
      { url: 'app://:secret@paydesk/index.html', isTopFrame: true },
      { url: 'app://paydesk:99/index.html', isTopFrame: true },
      { url: 'http://paydesk/index.html', isTopFrame: true },
      { url: 'not a url', isTopFrame: true },
    ]) {
      expect(await bridge.handle(channelOf('profiles', 'list'), sender, {})).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN' },
      });
    }
    expect(list).not.toHaveBeenCalled();
  });

  it('turns malformed payloads into typed errors, never a crash', async () => {
    const refund = vi.fn();
    const bridge = bridgeWith({ orders: { refund } });
    const channel = channelOf('orders', 'refund');
    for (const payload of [
      null,
      42,
      'x',
      [],
      { profileId: 'p1' },
      { profileId: 'p1', orderid: '1', clientOrderId: 'pd-1', amount: 10.5 },
    ]) {
      const result = await bridge.handle(channel, app, payload);
      expect(result).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    }
    const extra = await bridge.handle(channel, app, {
      profileId: 'p1',
      orderid: '1',
      clientOrderId: 'pd-1',
      sneaky: true,
    });
    expect(extra).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
    expect(refund).not.toHaveBeenCalled();
    expect(await bridge.handle('paydesk:anything.else', app, {})).toMatchObject({
      ok: false,
      error: { code: 'UNKNOWN_CALL' },
    });
  });

  it('refuses a lone UTF-16 surrogate in any text before a handler runs', async () => {
    const lookup = vi.fn();
    const refund = vi.fn();
    const bridge = bridgeWith({ orders: { lookup, refund } });
    const broken = 'ord\uD800er';
    const results = [
      await bridge.handle(channelOf('orders', 'lookup'), app, { profileId: 'p1', orderid: broken }),
      await bridge.handle(channelOf('orders', 'refund'), app, {
        profileId: 'p1',
        orderid: '1',
        clientOrderId: 'pd-abcdef',
        reason: 'Other',
        note: `half a smiley \uDE00`,
      }),
    ];
    for (const result of results) {
      expect(result).toMatchObject({
        ok: false,
        error: {
          code: 'INVALID_REQUEST',
          message: expect.stringMatching(/broken character/) as unknown,
        },
      });
    }
    expect(lookup).not.toHaveBeenCalled();
    expect(refund).not.toHaveBeenCalled();
    // A well-formed pair (an emoji) is ordinary text (in a shop's id; an orderid is digits).
    lookup.mockResolvedValue(undefined);
    const fine = await bridge.handle(channelOf('orders', 'lookup'), app, {
      profileId: 'p1',
      client_orderid: 'ord\uD83D\uDE00',
    });
    expect(lookup).toHaveBeenCalledTimes(1);
    expect(fine).not.toMatchObject({ error: { code: 'INVALID_REQUEST' } });
  });

  it('refuses control and text-direction characters in profile fields, naming the field', async () => {
    const create = vi.fn();
    const bridge = bridgeWith({ profiles: { create } });
    const good = {
      name: 'Production EUR',
      environment: 'production',
      baseUrl: 'https://gate.example.com/paynet',
      endpointId: '1111',
      login: 'shop',
      controlKey: 'KEY',
    };
    const cases: [string, string, RegExp][] = [
      ['name', 'Prod\u0000uction', /profile name contains a control character/],
      ['name', 'Test \u202Enoitcudorp', /profile name contains an invisible text-direction/],
      ['login', 'sh\u2066op', /merchant login contains an invisible text-direction/],
      ['login', 'sh\u200Fop', /merchant login/],
      ['baseUrl', 'https://gate.example.com/\u0007paynet', /base URL contains a control/],
      ['endpointId', '11\u061C11', /endpoint id/],
      ['controlKey', 'KEY\u0085', /control key contains a control/],
    ];
    for (const [field, value, message] of cases) {
      const result = await bridge.handle(channelOf('profiles', 'create'), app, {
        ...good,
        [field]: value,
      });
      expect(result).toMatchObject({
        ok: false,
        error: {
          code: 'INVALID_REQUEST',
          field,
          message: expect.stringMatching(message) as unknown,
        },
      });
    }
    expect(create).not.toHaveBeenCalled();
  });

  it('strips anything a handler returns beyond the result schema, so a secret cannot leak', async () => {
    const bridge = bridgeWith({
      profiles: { list: () => [{ ...profile, controlKey: 'SECRET-KEY' }] as never },
    });
    const result = await bridge.handle(channelOf('profiles', 'list'), app, {});
    expect(JSON.stringify(result)).not.toContain('SECRET-KEY');
  });

  it('maps each kind of failure to a code and the sentence the clerk reads', async () => {
    const cases: [Error, string][] = [
      [new InputError('amount has more than two decimals', 'amount'), 'INPUT'],
      [new ValidationError('7', 'Order is already fully returned', 400), 'GATEWAY_REFUSED'],
      [new TransportError('TIMEOUT', 'No answer within 30 s'), 'TIMEOUT'],
      [new ServiceError('PENDING', 'A refund is still pending'), 'PENDING'],
    ];
    for (const [error, code] of cases) {
      const bridge = bridgeWith({ profiles: { list: () => Promise.reject(error) } });
      expect(await bridge.handle(channelOf('profiles', 'list'), app, {})).toEqual({
        ok: false,
        error: expect.objectContaining({ code, message: error.message }) as unknown,
      });
    }
    const bug = bridgeWith({
      profiles: { list: () => Promise.reject(new TypeError('x is undefined at secret.ts:1')) },
    });
    const result = await bug.handle(channelOf('profiles', 'list'), app, {});
    expect(result).toMatchObject({ ok: false, error: { code: 'INTERNAL' } });
    expect(JSON.stringify(result)).not.toContain('secret.ts');
  });

  it('registers exactly one channel per call of the contract, and nothing else', () => {
    const ipcMain = { handle: vi.fn(), removeHandler: vi.fn() };
    const bridge = bridgeWith({});
    const unregister = registerBridge(ipcMain, bridge);
    const channels = ipcMain.handle.mock.calls.map((c) => c[0] as string).sort();
    expect(channels).toEqual(
      allCalls()
        .map(([ns, m]) => channelOf(ns, m))
        .sort(),
    );
    unregister();
    expect(ipcMain.removeHandler).toHaveBeenCalledTimes(channels.length);
  });
});
