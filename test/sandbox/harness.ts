// What the sandbox tests share: a sandbox on 127.0.0.1 with one merchant (RSA 2048 key pair
// made here, never read from files), the real GatewayClient pointed at it, and small helpers
// to send raw requests and to move the sandbox clock past the processing delay.

import { generateKeyPairSync } from 'node:crypto';

import { expect } from 'vitest';

import { GatewayClient } from '../../main/gateway/client';
import { AuthError, ValidationError } from '../../main/gateway/errors';
import type { RequestOperation } from '../../main/gateway/operations';
import type { Credentials, PreparedRequest } from '../../main/gateway/request';
import { parseBody } from '../../main/gateway/answer-body';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../main/sandbox';
import { CONTROL_KEY } from '../support/samples';

export { CONTROL_KEY };

// Long, so nothing becomes final by itself while a test looks: tests move the clock instead.
export const DELAY_MS = 60_000;

export function rsaKeyPair(): { publicKeyPem: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

export interface Harness {
  sandbox: Sandbox;
  client: GatewayClient;
  credentials: Credentials;
  keys: { publicKeyPem: string; privateKeyPem: string };
  /** Moves the clock past the processing delay and runs what became due (callbacks included). */
  settle(): Promise<void>;
  /** Every operation called through `call`, so a test can prove the whole table was covered. */
  covered: Set<RequestOperation>;
  call: GatewayClient['call'];
  close(): Promise<void>;
}

export async function startHarness(
  options: Partial<SandboxOptions> = {},
  endpointId = '1111',
): Promise<Harness> {
  const keys = rsaKeyPair();
  const sandbox = await startSandbox({
    merchants: [
      {
        login: 'test-merchant',
        controlKey: CONTROL_KEY,
        endpointId,
        publicKeyPem: keys.publicKeyPem,
      },
    ],
    delayMs: DELAY_MS,
    log: () => undefined,
    ...options,
  });
  const credentials: Credentials = {
    baseUrl: sandbox.baseUrl,
    endpointId,
    login: 'test-merchant',
    controlKey: CONTROL_KEY,
    privateKeyPem: keys.privateKeyPem,
  };
  const client = new GatewayClient(credentials, { timeoutMs: 10_000 });
  const covered = new Set<RequestOperation>();
  const call: GatewayClient['call'] = (operation, fields, callOptions) => {
    covered.add(operation);
    return client.call(operation, fields, callOptions);
  };
  return {
    sandbox,
    client,
    credentials,
    keys,
    covered,
    call,
    async settle() {
      sandbox.clock.advance((options.delayMs ?? DELAY_MS) + 1);
      await sandbox.runDueWork();
    },
    close: () => sandbox.close(),
  };
}

let counter = 0;
/** A fresh client_orderid, as Paydesk makes one for every operation. */
export function coid(prefix = 'co'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

export interface RawAnswer {
  status: number;
  contentType: string;
  body: string;
  fields: Record<string, string>;
}

/** Sends a prepared (possibly tampered) request with fetch, and reads whatever comes back. */
export async function sendRaw(request: PreparedRequest): Promise<RawAnswer> {
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const body = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  return { status: response.status, contentType, body, fields: parseBody(contentType, body) ?? {} };
}

/** Asserts a gateway refusal as the client reports it: HTTP status, error-code, and why. */
export async function expectRefused(
  promise: Promise<unknown>,
  http: 400 | 403,
  code: string,
  why: RegExp,
): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (http === 400) {
    expect(error).toBeInstanceOf(ValidationError);
    const v = error as ValidationError;
    expect({ http: v.httpStatus, code: v.gatewayCode }).toEqual({ http, code });
    expect(v.gatewayMessage).toMatch(why);
  } else {
    expect(error).toBeInstanceOf(AuthError);
    const a = error as AuthError;
    expect(a.httpStatus).toBe(403);
    expect(a.gatewayMessage).toMatch(why);
  }
}

export const CARD = {
  credit_card_number: '4444555566661111',
  card_printed_name: 'JOHN SMITH',
  expire_month: '12',
  expire_year: '2030',
} as const;

/** Sale fields with a CVV2 that picks the outcome (docs/sandbox.md). */
export function saleFields(
  cvv2: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    client_orderid: coid('sale'),
    amount: '10.42',
    currency: 'EUR',
    email: 'john.smith@gmail.com',
    ...CARD,
    cvv2,
    ...extra,
  };
}
