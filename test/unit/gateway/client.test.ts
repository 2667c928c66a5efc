// The client over real HTTP(S) on loopback: a small scripted peer answers each request, so the
// transport's behaviour (timeouts, cut connections, TLS) is tested for real. The strict gateway
// peer for every operation is the sandbox (test/sandbox/).

import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

import { afterEach, beforeAll, describe, expect, it } from 'vitest';

import { GatewayClient } from '../../../main/gateway/client';
import {
  AuthError,
  InputError,
  TransportError,
  ValidationError,
} from '../../../main/gateway/errors';
import type { Credentials } from '../../../main/gateway/request';
import { SAMPLE_FIELDS } from '../../support/samples';
import { selfSignedCertificate } from '../../support/tls';

type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;
const servers: (http.Server | https.Server)[] = [];

async function listen(server: http.Server | https.Server, handler: Handler): Promise<number> {
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => handler(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

afterEach(async () => {
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise((r) => {
          s.closeAllConnections();
          s.close(r);
        }),
    ),
  );
});

const credentialsFor = (baseUrl: string): Credentials => ({
  baseUrl,
  endpointId: '1111',
  login: 'merchantlogin',
  controlKey: 'KEY-1',
});
const vnd = { 'Content-Type': 'application/vnd.pay+json' };

describe('GatewayClient over HTTP', () => {
  it('sends exactly the prepared request and reads the typed answer', async () => {
    let seen: { method?: string; url?: string; accept?: string; body?: string } = {};
    const port = await listen(http.createServer(), (req, body, res) => {
      seen = { method: req.method, url: req.url, accept: req.headers.accept, body };
      res.writeHead(200, vnd).end(
        JSON.stringify({
          type: 'status-response',
          status: 'approved',
          'paynet-order-id': '9013',
          amount: '10.42',
        }),
      );
    });
    const client = new GatewayClient(credentialsFor(`http://127.0.0.1:${port}/paynet`));
    const prepared = client.prepare('STATUS', SAMPLE_FIELDS.STATUS);
    const status = await client.sendPrepared(prepared, 'status-response');
    expect(status).toMatchObject({ status: 'approved', orderId: '9013', amount: '10.42' });
    expect(seen).toEqual({
      method: 'POST',
      url: '/paynet/api/v2/status/1111',
      accept: 'application/vnd.pay+json',
      body: prepared.body,
    });
  });

  it('sends a body that is not ASCII byte for byte, its Content-Length counted in bytes', async () => {
    // The transport hands node:http the body as text; the bytes on the wire must be its UTF-8.
    const body = 'orderid=9013&comment=Café à 5 € 👍';
    let seen: { length?: string; bytes?: Buffer } = {};
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen = { length: req.headers['content-length'], bytes: Buffer.concat(chunks) };
        res
          .writeHead(200, vnd)
          .end('{"type":"status-response","status":"approved","paynet-order-id":"9013"}');
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const client = new GatewayClient(credentialsFor(`http://127.0.0.1:${port}`));
    const request = { ...client.prepare('STATUS', { orderid: '9013' }), body };
    await expect(client.sendPrepared(request, 'status-response')).resolves.toMatchObject({
      orderId: '9013',
    });
    expect(seen.bytes?.equals(Buffer.from(body, 'utf8'))).toBe(true);
    expect(seen.length).toBe(String(Buffer.byteLength(body, 'utf8')));
  });

  it('types the answer by the operation: a hosted form gives the redirect address', async () => {
    const port = await listen(http.createServer(), (_req, _body, res) => {
      res
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end(
          'type=async-form-response\n&redirect-url=https%3A%2F%2Fpay.example.com%2Fform%2F1\n&paynet-order-id=5\n',
        );
    });
    const client = new GatewayClient(credentialsFor(`http://127.0.0.1:${port}`));
    const answer = await client.call('SALEFORM', SAMPLE_FIELDS.SALEFORM);
    expect(answer.redirectUrl).toBe('https://pay.example.com/form/1');
  });

  it('a gateway refusal and a bad signature become typed errors', async () => {
    let mode: 'validation' | 'auth' = 'validation';
    const port = await listen(http.createServer(), (_req, _body, res) => {
      if (mode === 'validation')
        res
          .writeHead(400, vnd)
          .end(
            '{"type":"validation-error","error-message":"Return amount exceeds remaining","error-code":"17"}',
          );
      else res.writeHead(403).end();
    });
    const client = new GatewayClient(credentialsFor(`http://127.0.0.1:${port}`));
    await expect(client.call('RETURN', SAMPLE_FIELDS.RETURN)).rejects.toThrow(ValidationError);
    await expect(client.call('RETURN', SAMPLE_FIELDS.RETURN)).rejects.toMatchObject({
      gatewayCode: '17',
    });
    mode = 'auth';
    await expect(client.call('RETURN', SAMPLE_FIELDS.RETURN)).rejects.toThrow(AuthError);
  });

  it('bad input never reaches the network', async () => {
    let requests = 0;
    const port = await listen(http.createServer(), (_req, _body, res) => {
      requests++;
      res.writeHead(500).end();
    });
    const client = new GatewayClient(credentialsFor(`http://127.0.0.1:${port}`));
    await expect(
      client.call('RETURN', { ...SAMPLE_FIELDS.RETURN, amount: '1.001' }),
    ).rejects.toThrow(InputError);
    await expect(client.call('CAPTURE', { client_orderid: 'x' })).rejects.toThrow(
      /needs the field orderid/,
    );
    // A lone surrogate would make encodeURIComponent throw URIError: it is an InputError instead.
    await expect(client.status({ orderid: '12\uD800' })).rejects.toThrow(InputError);
    expect(requests).toBe(0);
  });

  it('times out with a message that says to look the order up, not to resend', async () => {
    const port = await listen(http.createServer(), () => {
      /* never answers */
    });
    const client = new GatewayClient(credentialsFor(`http://127.0.0.1:${port}`), {
      timeoutMs: 200,
    });
    const error = await client.call('VOID', SAMPLE_FIELDS.VOID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ code: 'TIMEOUT' });
    expect((error as Error).message).toMatch(/look the order up before sending anything again/);
  });

  it('an answer lost after the request arrived is a transport error, never a success', async () => {
    let received = 0;
    const port = await listen(http.createServer(), (req) => {
      received++;
      req.socket.destroy();
    });
    const client = new GatewayClient(credentialsFor(`http://127.0.0.1:${port}`));
    await expect(client.call('RETURN', SAMPLE_FIELDS.RETURN)).rejects.toMatchObject({
      code: 'TRANSPORT',
    });
    expect(received).toBe(1); // it arrived, and the client did not send it again
  });

  it('a gateway that is not running is named as such', async () => {
    const port = await listen(http.createServer(), () => undefined);
    await new Promise((r) => servers.pop()!.close(r));
    const client = new GatewayClient(credentialsFor(`http://127.0.0.1:${port}`));
    await expect(client.call('STATUS', SAMPLE_FIELDS.STATUS)).rejects.toThrow(
      /refused the connection/,
    );
  });

  it('can be cancelled', async () => {
    const port = await listen(http.createServer(), () => undefined);
    const client = new GatewayClient(credentialsFor(`http://127.0.0.1:${port}`));
    const controller = new AbortController();
    const pending = client.call('STATUS', SAMPLE_FIELDS.STATUS, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED' });
  });
});

// "Not sent" lets a clerk send again; it must hold only when nothing can have left. Each case
// is checked against what the peer really received.
describe('a failed request is "not sent" only when nothing left', () => {
  const statusAnswer =
    '{"type":"status-response","status":"approved","paynet-order-id":"9013","merchant-order-id":"co-sale-1"}';

  it('connection refused: not sent', async () => {
    const port = await listen(http.createServer(), () => undefined);
    await new Promise((r) => servers.pop()!.close(r));
    const client = new GatewayClient(credentialsFor(`http://127.0.0.1:${port}`));
    const error = await client.status(SAMPLE_FIELDS.STATUS).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TRANSPORT', neverLeft: true });
  });

  it('cancelled before the connection was made: not sent, and the peer saw no request', async () => {
    let received = 0;
    const port = await listen(http.createServer(), (_req, _body, res) => {
      received++;
      res.writeHead(200, vnd).end(statusAnswer);
    });
    const client = new GatewayClient(credentialsFor(`http://127.0.0.1:${port}`));
    const controller = new AbortController();
    const pending = client.status(SAMPLE_FIELDS.STATUS, controller.signal);
    controller.abort(); // before the socket is even assigned
    await expect(pending).rejects.toMatchObject({ code: 'ABORTED', neverLeft: true });
    // A request that did leave would arrive at once on loopback; nothing did.
    await client.status(SAMPLE_FIELDS.STATUS);
    expect(received).toBe(1);
    client.close();
  });

  it('cancelled, timed out or cut after the request arrived: may have been sent', async () => {
    let received = 0;
    const port = await listen(http.createServer(), (req) => {
      received++;
      if (req.url?.includes('/void/')) req.socket.destroy(); // cut once the request is in
      // other requests are never answered
    });
    const client = new GatewayClient(credentialsFor(`http://127.0.0.1:${port}`), {
      timeoutMs: 300,
    });
    // Bounded: at most 400 checks, 5 ms apart.
    const arrived = (n: number) =>
      new Promise<void>((resolve, reject) => {
        let checks = 0;
        const check = setInterval(() => {
          if (received >= n || ++checks > 400) {
            clearInterval(check);
            if (received >= n) resolve();
            else reject(new Error(`the peer received ${received} requests, not ${n}`));
          }
        }, 5);
      });

    const controller = new AbortController();
    const cancelled = client
      .status(SAMPLE_FIELDS.STATUS, controller.signal)
      .catch((e: unknown) => e);
    await arrived(1);
    controller.abort();
    expect(await cancelled).toMatchObject({ code: 'ABORTED', neverLeft: false });

    const timedOut = await client.status(SAMPLE_FIELDS.STATUS).catch((e: unknown) => e);
    expect(timedOut).toMatchObject({ code: 'TIMEOUT', neverLeft: false });

    const cut = await client.call('VOID', SAMPLE_FIELDS.VOID).catch((e: unknown) => e);
    expect(cut).toMatchObject({ code: 'TRANSPORT', neverLeft: false });
    expect(received).toBe(3);
    client.close();
  });

  it('a kept-alive connection cut under a second request: may have been sent', async () => {
    let received = 0;
    const port = await listen(http.createServer(), (req, _body, res) => {
      received++;
      if (received === 1) res.writeHead(200, vnd).end(statusAnswer);
      else req.socket.destroy();
    });
    const client = new GatewayClient(credentialsFor(`http://127.0.0.1:${port}`));
    await client.status(SAMPLE_FIELDS.STATUS);
    // The same connection carries the second request (it is already connected when it is
    // handed over), so the request leaves at once and its loss is never "not sent".
    const error = await client.status(SAMPLE_FIELDS.STATUS).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TRANSPORT', neverLeft: false });
    expect(received).toBe(2);
    client.close();
  });
});

describe('TLS verification is always on', () => {
  let tls: { key: string; cert: string };
  beforeAll(() => {
    tls = selfSignedCertificate();
  });

  it('refuses an untrusted certificate even when NODE_TLS_REJECT_UNAUTHORIZED=0', async () => {
    const port = await listen(https.createServer(tls), (_req, _body, res) =>
      res
        .writeHead(200, vnd)
        .end('{"type":"status-response","status":"approved","paynet-order-id":"1"}'),
    );
    const previous = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0';
    try {
      const client = new GatewayClient(credentialsFor(`https://127.0.0.1:${port}/paynet`));
      await expect(client.status({ orderid: '1', client_orderid: 'a' })).rejects.toThrow(
        /not signed by a trusted authority; nothing was sent/,
      );
    } finally {
      if (previous === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
      else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previous;
    }
  });

  it('trusts a certificate whose CA the profile names', async () => {
    const port = await listen(https.createServer(tls), (_req, _body, res) =>
      res
        .writeHead(200, vnd)
        .end('{"type":"status-response","status":"approved","paynet-order-id":"1"}'),
    );
    const client = new GatewayClient(credentialsFor(`https://127.0.0.1:${port}/paynet`), {
      ca: tls.cert,
    });
    await expect(client.status({ orderid: '1', client_orderid: 'a' })).resolves.toMatchObject({
      status: 'approved',
    });
  });
});
