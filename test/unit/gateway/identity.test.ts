// The identity check: an answer about another order than the one asked about is refused, for
// every caller of the client. The ids asked about are those of the exact body that is sent,
// also when a prepared request's body was replaced after it was prepared.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';

import { GatewayClient } from '../../../main/gateway/client';
import { IdentityError } from '../../../main/gateway/errors';
import { checkIdentity } from '../../../main/gateway/identity';
import { buildRequest, type Credentials } from '../../../main/gateway/request';
import { SAMPLE_FIELDS } from '../../support/samples';

const CREDENTIALS: Credentials = {
  baseUrl: 'http://127.0.0.1:9/paynet',
  endpointId: '1111',
  login: 'merchantlogin',
  controlKey: 'KEY-1',
};

/** A loopback gateway that answers every request with the next scripted JSON answer. */
let server: http.Server | undefined;
let answer: Record<string, string> = {};
let received: string[] = [];

async function gateway(): Promise<GatewayClient> {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200, { 'Content-Type': 'application/vnd.pay+json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return new GatewayClient({ ...CREDENTIALS, baseUrl: `http://127.0.0.1:${port}/paynet` });
}

afterEach(async () => {
  received = [];
  const s = server;
  server = undefined;
  if (s) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

const status = (ids: Record<string, string>) => ({
  type: 'status-response',
  status: 'approved',
  ...ids,
});

describe('an answer about another order is refused', () => {
  it('status by orderid: another paynet-order-id, or no id at all', async () => {
    const client = await gateway();
    answer = status({ 'paynet-order-id': '9014' });
    const refused = client.status({ orderid: '9013' });
    await expect(refused).rejects.toThrow(IdentityError);
    await expect(refused).rejects.toThrow(
      `The gateway's answer is about another order (paynet-order-id "9014", asked about "9013"); nothing was recorded from it.`,
    );
    answer = status({});
    await expect(client.status({ orderid: '9013' })).rejects.toThrow(
      '(paynet-order-id missing, asked about "9013")',
    );
    answer = status({ 'paynet-order-id': '9013' });
    await expect(client.status({ orderid: '9013' })).resolves.toMatchObject({ orderId: '9013' });
  });

  it('status by client_orderid: another merchant-order-id, or none', async () => {
    const client = await gateway();
    answer = status({ 'merchant-order-id': 'co-2', 'paynet-order-id': '1' });
    await expect(client.status({ client_orderid: 'co-1' })).rejects.toMatchObject({
      code: 'IDENTITY',
      field: 'merchant-order-id',
      expected: 'co-1',
      received: 'co-2',
    });
    answer = status({ 'paynet-order-id': '1' });
    await expect(client.status({ client_orderid: 'co-1' })).rejects.toMatchObject({
      field: 'merchant-order-id',
      received: undefined,
    });
    answer = status({ 'merchant-order-id': 'co-1', 'paynet-order-id': '1' });
    await expect(client.status({ client_orderid: 'co-1' })).resolves.toMatchObject({
      clientOrderId: 'co-1',
    });
  });

  it("a follow-up's answer must carry its client_orderid, and may carry a new orderid", async () => {
    const client = await gateway();
    const fields = SAMPLE_FIELDS.RETURN;
    answer = {
      type: 'async-response',
      'merchant-order-id': 'someone-else',
      'paynet-order-id': '7',
    };
    await expect(client.call('RETURN', fields)).rejects.toThrow(IdentityError);
    answer = { ...answer, 'merchant-order-id': fields.client_orderid ?? '' };
    await expect(client.call('RETURN', fields)).resolves.toMatchObject({ orderId: '7' });
  });
});

describe('the ids asked about are those of the body that is sent', () => {
  it('a prepared request whose body was replaced is checked against the new body', async () => {
    const client = await gateway();
    const request = client.prepare('STATUS', { orderid: '9013' });
    const other = client.prepare('STATUS', { orderid: '9014' });
    // The same object with another body (as a caller that edits a preview would send it).
    request.body = other.body;
    answer = status({ 'paynet-order-id': '9013' });
    await expect(client.sendPrepared(request, 'status-response')).rejects.toMatchObject({
      expected: '9014',
      received: '9013',
    });
    answer = status({ 'paynet-order-id': '9014' });
    await expect(client.sendPrepared(request, 'status-response')).resolves.toMatchObject({
      orderId: '9014',
    });
    // A copy (never built here) is read from its body too.
    const copy = { ...other, headers: { ...other.headers } };
    answer = status({ 'paynet-order-id': '9013' });
    await expect(client.sendPrepared(copy, 'status-response')).rejects.toThrow(IdentityError);
    expect(received).toEqual([other.body, other.body, other.body]);
  });

  it('ids that need percent-encoding are compared as the body decodes them (property)', () => {
    // Any text a clerk may type as an order id, spaces, +, &, =, % and non-Latin letters too.
    const id = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
      .filter((s) => s.trim() !== '');
    const pick = fc.constantFrom('same', 'other', 'padded');
    fc.assert(
      fc.property(id, id, pick, (asked, other, how) => {
        const request = buildRequest('STATUS', { client_orderid: asked }, CREDENTIALS, {});
        const named = how === 'same' ? asked.trim() : how === 'padded' ? ` ${asked} ` : other;
        const expected = named === asked.trim();
        const answerOf = { type: 'status-response', clientOrderId: named };
        // The request as built, and a copy of it that can only be read from its body.
        for (const sent of [request, { ...request }]) {
          let accepted = true;
          try {
            checkIdentity(sent, answerOf);
          } catch (error) {
            if (!(error instanceof IdentityError)) throw error;
            accepted = false;
          }
          if (accepted !== expected) return false;
        }
        return true;
      }),
      { seed: 13, numRuns: 400 },
    );
  });
});
