// The gateway client against servers on 127.0.0.1 that answer as a broken proxy, a buggy or a
// hostile gateway would. Each answer ends, within the client's own timeout, in a typed error
// (or, where the answer is readable, in exactly the right reading): never a hang, a crash, a
// float amount, a nested field taken for a top-level one, or a polluted prototype.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { GatewayClient } from '../../main/gateway/client';
import { GatewayError } from '../../main/gateway/errors';
import type { StatusResponse } from '../../main/gateway/response';

const JSON_TYPE = 'application/vnd.pay+json';
const TIMEOUT_MS = 1_500;
/** Generous: the client's timeout plus time to tear the connection down on a busy machine. */
const BOUND_MS = TIMEOUT_MS + 5_000;

type Behaviour = (req: http.IncomingMessage, res: http.ServerResponse) => void;
let behave: Behaviour = (_req, res) => res.end();
const paths: string[] = [];
let server: http.Server;
let client: GatewayClient;
let tried = 0;
let held = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    paths.push(req.url ?? '');
    res.on('error', () => undefined); // the client hangs up on purpose in several cases
    req.resume();
    req.on('end', () => behave(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = new GatewayClient(
    {
      baseUrl: `http://127.0.0.1:${port}/paynet`,
      endpointId: '1111',
      login: 'shop',
      controlKey: 'HOSTILE-TEST-KEY',
    },
    { timeoutMs: TIMEOUT_MS },
  );
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  console.log(`reliability: hostile servers tried ${tried} held ${held}`);
});

type Outcome = { ok: true; status: StatusResponse } | { ok: false; code: string; message: string };

/** Asks for a status; the answer must settle within BOUND_MS, as a reading or a typed error. */
async function ask(): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no outcome within ${BOUND_MS} ms`)), BOUND_MS);
  });
  try {
    const status = await Promise.race([client.status({ client_orderid: 'pd-hostile-1' }), bound]);
    return { ok: true, status };
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error; // untyped: the test fails
    return { ok: false, code: error.code, message: error.message };
  } finally {
    clearTimeout(timer);
  }
}

function json(body: string | Buffer, status = 200, type = JSON_TYPE): Behaviour {
  return (_req, res) => {
    res.writeHead(status, { 'Content-Type': type });
    res.end(body);
  };
}

const cases: { name: string; behave: Behaviour; expect: (o: Outcome) => void }[] = [
  {
    name: 'an HTML 502 page from a proxy',
    behave: json('<html><body><h1>502 Bad Gateway</h1></body></html>', 502, 'text/html'),
    expect: (o) => expect(o).toMatchObject({ ok: false, code: 'SERVER' }),
  },
  {
    name: 'truncated JSON',
    behave: json('{"type":"status-response","status":"approved","amount":10.'),
    expect: (o) => expect(o).toMatchObject({ ok: false, code: 'UNREADABLE' }),
  },
  {
    name: 'a 10 MB body',
    behave: (_req, res) => {
      res.writeHead(200, { 'Content-Type': JSON_TYPE });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      for (let i = 0; i < 10; i++) res.write(chunk);
      res.end('{"type":"status-response","status":"approved"}');
    },
    expect: (o) => {
      expect(o).toMatchObject({ ok: false, code: 'TRANSPORT' });
      expect(o.ok ? '' : o.message).toMatch(/exceeded .* bytes/);
    },
  },
  {
    name: 'a body that never ends',
    behave: (_req, res) => {
      res.writeHead(200, { 'Content-Type': JSON_TYPE });
      res.write('{"type":"status-response",');
      const drip = setInterval(() => {
        if (res.destroyed) clearInterval(drip);
        else res.write(' ');
      }, 50);
      res.on('close', () => clearInterval(drip));
    },
    expect: (o) => expect(o).toMatchObject({ ok: false, code: 'TIMEOUT' }),
  },
  {
    name: 'no answer at all after the request',
    behave: () => undefined,
    expect: (o) => expect(o).toMatchObject({ ok: false, code: 'TIMEOUT' }),
  },
  {
    name: 'a connection cut in the middle of the body',
    behave: (_req, res) => {
      res.writeHead(200, { 'Content-Type': JSON_TYPE, 'Content-Length': '500' });
      res.write('{"type":"status-response","status":"appr');
      setTimeout(() => res.socket?.destroy(), 20);
    },
    expect: (o) => expect(o).toMatchObject({ ok: false, code: 'TRANSPORT' }),
  },
  {
    name: 'invalid UTF-8',
    behave: json(
      Buffer.concat([
        Buffer.from('{"type":"status-response","status":"approved","descriptor":"'),
        Buffer.from([0xff, 0xfe, 0xc3]),
        Buffer.from('","amount":"1.00"}'),
      ]),
    ),
    expect: (o) => {
      expect(o).toMatchObject({ ok: false, code: 'UNREADABLE' });
      expect(o.ok ? '' : o.message).toMatch(/not valid UTF-8/);
    },
  },
  {
    name: 'a redirect to another address',
    behave: (req, res) => {
      if (req.url === '/elsewhere') {
        json('{"type":"status-response","status":"approved","amount":"999.00"}')(req, res);
        return;
      }
      res.writeHead(302, { Location: '/elsewhere' });
      res.end();
    },
    expect: (o) => {
      expect(o).toMatchObject({ ok: false, code: 'UNREADABLE' });
      expect(paths).not.toContain('/elsewhere'); // not followed
    },
  },
  {
    name: 'an empty 200',
    behave: json(''),
    expect: (o) => expect(o).toMatchObject({ ok: false, code: 'UNREADABLE' }),
  },
  // Readable answers name the order asked about: the client refuses any answer it cannot tie
  // to its request (identity.ts), so these test the reading, not the identity check.
  {
    name: 'nested amounts (the top-level one is the order’s)',
    behave: json(
      '{"type":"status-response","merchant-order-id":"pd-hostile-1","status":"approved","amount":10.10,"extra":{"amount":999},"list":[{"amount":5}],"currency":"EUR"}',
    ),
    expect: (o) => {
      expect(o).toMatchObject({ ok: true, status: { amount: '10.10', currency: 'EUR' } });
    },
  },
  {
    name: 'an amount beyond a double’s precision',
    behave: json(
      '{"type":"status-response","merchant-order-id":"pd-hostile-1","status":"approved","amount":123456789012345678901234567890.10}',
    ),
    expect: (o) =>
      expect(o).toMatchObject({
        ok: true,
        status: { amount: '123456789012345678901234567890.10' },
      }),
  },
  {
    name: '__proto__ and constructor keys',
    behave: json(
      '{"type":"status-response","merchant-order-id":"pd-hostile-1","__proto__":{"status":"declined","amount":"999.00","polluted":1},"constructor":{"prototype":{"polluted":1}},"status":"approved","amount":1.50}',
    ),
    expect: (o) => {
      expect(o).toMatchObject({ ok: true, status: { status: 'approved', amount: '1.50' } });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.keys(o.ok ? o.status.fields : {})).not.toContain('__proto__');
    },
  },
  {
    name: 'nesting 100,000 levels deep',
    behave: json(
      `{"type":"status-response","merchant-order-id":"pd-hostile-1","status":"approved","amount":"2.00","x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
    ),
    // Either read correctly (the nesting is ignored) or refused as unreadable: never a crash.
    expect: (o) => {
      if (o.ok) expect(o.status.amount).toBe('2.00');
      else expect(o.code).toBe('UNREADABLE');
    },
  },
];

describe('the client against hostile servers', () => {
  for (const c of cases) {
    it(`${c.name}: a typed error or the right reading, within the client's timeout`, async () => {
      tried++;
      behave = c.behave;
      paths.length = 0;
      c.expect(await ask());
      held++;
    });
  }
});
