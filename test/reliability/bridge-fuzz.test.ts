// Every call of the contract fuzzed through the real bridge, in front of the real services (a
// real SQLite file, the embedded sandbox gateway, the in-memory keychain): seeded payloads that
// are mostly well shaped (so many reach the services and the gateway) and partly hostile (lone
// surrogates, NUL, text-direction overrides, 100,000-character strings, __proto__ keys, wrong
// types, nesting). Every answer must be a valid result or a typed error with a sentence: never
// a crash, never INTERNAL, never a stack trace or a raw library error.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createBridge, isAppTopFrame, type Bridge } from '../../main/bridge';
import { createHandlers } from '../../main/handlers';
import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices } from '../../main/services/app';
import {
  allCalls,
  channelOf,
  REFUND_REASONS,
  VOID_REASONS,
  type BridgeResult,
} from '../../common/contract';

const RUNS_PER_CALL = 200;
const APP = { url: 'app://paydesk/index.html', isTopFrame: true };

let dataDir: string;
let services: PaydeskServices;
let bridge: Bridge;
let profileId = '';
const orderIds: string[] = [];
let tried = 0;
let held = 0;
/** How the answers were spread: results, and errors by code, so a reader sees what was reached. */
const outcomes = new Map<string, number>();
const failures: { channel: string; payload: string; answer: string }[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'paydesk-fuzz-'));
  services = await PaydeskServices.start({
    dataDir,
    secrets: new MemorySecretStore(),
    operator: 'fuzz',
    sandboxDelayMs: 20,
    sandboxKeyBits: 2048,
    wait: { delayAfter: () => 20, giveUpAfterMs: 2_000 },
  });
  bridge = createBridge(
    createHandlers(services, {
      version: 'fuzz',
      operator: 'fuzz',
      saveFile: () => Promise.resolve({ saved: false }),
      copyText: () => undefined,
    }),
    { isTrustedSender: isAppTopFrame('app://paydesk') },
  );
  const sandboxProfile = services.report.sandbox;
  if (!sandboxProfile.running) throw new Error('the embedded sandbox did not start');
  profileId = sandboxProfile.profileId;
  for (const ref of ['demo-sale-1003', 'demo-sale-1004', 'demo-auth-2002']) {
    const view = await services.orders.lookup(profileId, { client_orderid: ref });
    orderIds.push(view.orderId);
  }
}, 60_000);

afterAll(async () => {
  await services.close();
  rmSync(dataDir, { recursive: true, force: true });
  const spread = [...outcomes.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
  console.log(`reliability: bridge fuzz tried ${tried} held ${held} (${spread})`);
});

/** Valid result, or a typed error with a sentence; nothing that reads like a crash. */
function holds(answer: BridgeResult<unknown>): boolean {
  if (answer.ok) return true;
  const { code, message } = answer.error;
  return (
    typeof code === 'string' &&
    /^[A-Z_]+$/.test(code) &&
    code !== 'INTERNAL' &&
    typeof message === 'string' &&
    message.trim().length > 0 &&
    !/SqliteError|TypeError|URIError|RangeError|\.ts:\d+|\bat \S+ \(/.test(message)
  );
}

async function check(channel: string, sender: typeof APP, payload: unknown): Promise<boolean> {
  tried++;
  let answer: BridgeResult<unknown>;
  try {
    answer = await bridge.handle(channel, sender, payload);
  } catch (error) {
    failures.push({ channel, payload: preview(payload), answer: `threw ${String(error)}` });
    return false;
  }
  const kind = answer.ok ? 'result' : answer.error.code;
  outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
  if (!holds(answer)) {
    failures.push({ channel, payload: preview(payload), answer: JSON.stringify(answer) });
    return false;
  }
  held++;
  return true;
}

function preview(payload: unknown): string {
  try {
    return (JSON.stringify(payload) ?? String(payload)).slice(0, 300);
  } catch {
    return String(payload).slice(0, 300);
  }
}

// Values a hostile or buggy renderer could send.
const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'ab\uD800cd',
    '\uDC00',
    'Prod\u202Eevil',
    'x\u2066y',
    '\u200F',
    'a'.repeat(100_000),
    '1.00',
    '10.001',
    '-1',
    '1e3',
    'NaN',
    '__proto__',
    'constructor',
    'javascript:alert(1)',
    '<script>alert(1)</script>',
    "'; DROP TABLE journal; --",
    '4111 1111 1111 1111',
  ),
);
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{}}}')),
  fc.anything({ maxDepth: 2 }),
);

/** Mostly plausible values per field, so payloads get past the schema and reach the services. */
function plausible(field: string, options: { realProfile: boolean }): fc.Arbitrary<unknown> {
  const ids = options.realProfile ? [profileId, profileId, 'no-such-profile'] : ['no-such-profile'];
  switch (field) {
    case 'profileId':
    case 'id':
      return fc.constantFrom(...ids, '', ' ');
    case 'orderid':
      return fc.constantFrom(...orderIds, '1', '99999999', 'abc', '');
    case 'client_orderid':
      return fc.constantFrom('demo-sale-1001', 'demo-sale-1005', 'nope', '');
    case 'clientOrderId':
      return fc.oneof(
        fc.stringMatching(/^pd-[a-z0-9]{6,12}$/),
        fc.constantFrom('pd-x', 'PD-ABCDEF'),
      );
    case 'amount':
      return fc.constantFrom('0.01', '1.00', '5', '999999999.99', '10.001', '0', '1,00', ' 2.50 ');
    case 'reason':
      return fc.constantFrom(...REFUND_REASONS, ...VOID_REASONS, '');
    case 'note':
      return hostileString;
    case 'batchId':
      return fc.constantFrom(1, 2, 999, 0, -1, 1.5);
    case 'concurrency':
      return fc.constantFrom(1, 4, 32, 33, 0);
    case 'runId':
      return fc.constantFrom(1, 2, 999, 0, -1, 1.5);
    case 'perSecond':
      return fc.constantFrom(5, 0.1, 500, 501, 0, -1, Number.NaN);
    case 'atOnce':
      return fc.constantFrom(1, 4, 256, 257, 0, 1.5);
    case 'from':
    case 'to':
      return fc.oneof(
        {
          weight: 3,
          arbitrary: fc.constantFrom('2026-01-01', '2099-12-31T23:59', '2026-02-30', ''),
        },
        { weight: 1, arbitrary: hostileString },
      );
    case 'fileName':
      return fc.oneof(hostileString, fc.constantFrom('refunds.csv', ''));
    case 'text':
      return fc.oneof(
        hostileString,
        fc.constantFrom(
          'operation,orderid,amount,currency,reason\nrefund,1,1.00,EUR,Damaged\nstatus,abc,,,\n',
          '\uFEFFoperation;client_orderid;amount;currency;reason\r\nrefund;demo-sale-1001;0.01;EUR;Damaged\r\n',
          'operation,orderid\n"unterminated,1\n',
        ),
        fc.constantFrom(
          'status=approved&orderid=1&client_orderid=x&control=0000000000000000000000000000000000000000',
          'https://shop.example/return?status=approved&orderid=1&control=abc',
          'orderid=%FF%FE&status=%E0%80',
        ),
      );
    case 'environment':
      return fc.constantFrom('production', 'test', 'sandbox', 'prod');
    case 'baseUrl':
      // Loopback or refused before any network: no DNS look-up leaves this machine.
      return fc.constantFrom(
        'http://127.0.0.1:1/paynet',
        'https://127.0.0.1:1/paynet',
        'http://gate.example.com/paynet',
        'ftp://127.0.0.1/x',
        'not a url',
      );
    case 'endpointId':
      return fc.constantFrom('1111', '0', 'abc', '99999999999999999999');
    case 'endpointKind':
      return fc.constantFrom('endpoint', 'group', 'other');
    case 'name':
    case 'login':
    case 'controlKey':
    case 'passphrase':
      return hostileString;
    case 'bits':
      return fc.constantFrom(2048, 3072, 4096, 1024, '2048');
    case 'pem':
      return fc.constantFrom(
        '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n',
        '-----BEGIN RSA PRIVATE KEY-----\nnot base64 !!\n-----END RSA PRIVATE KEY-----\n',
        'junk',
        '',
      );
    case 'offset':
      return fc.integer({ min: -5, max: 500 });
    case 'limit':
      return fc.integer({ min: -5, max: 2000 });
    case 'pending':
      return fc.boolean();
    case 'state':
      return fc.constantFrom('sending', 'final', 'unknown', 'bogus');
    case 'destination':
      return fc.constantFrom(
        { kind: 'card', cardNumber: '4444 5555 6666 1111' },
        { kind: 'card', cardNumber: '4444555566661112' },
        { kind: 'card-ref', cardRefId: '7770001' },
        { kind: 'bank', accountNumber: 'DE89370400440532013000', bankName: 'X', bic: 'COBADEFF' },
        { kind: 'phone', phone: '+447700900123' },
        { kind: 'pigeon' },
      );
    case 'currency':
      return fc.constantFrom('EUR', 'eur', 'EURO', '');
    case 'cardRefId':
      return fc.constantFrom('7770001', '1', 'abc', '');
    case 'kind':
      return fc.constantFrom('sale', 'preauth', 'other');
    case 'period':
      return fc.constantFrom('day', 'week', 'month', 'year', '');
    case 'interval':
    case 'repeats':
      return fc.constantFrom('1', '0', '12', '-1', 'x', '');
    case 'startDate':
      return fc.constantFrom('2099-01-31', '2020-01-01', '2099-02-30', '');
    case 'returnUrl':
      return fc.constantFrom('https://shop.example/thanks', 'javascript:alert(1)', '');
    case 'host':
      // This computer on a closed port, or refused by the schema: no DNS look-up leaves here.
      return fc.constantFrom('127.0.0.1', '127.0.0.1', 'localhost', '::1', 'postgres://db', '');
    case 'port':
      return fc.constantFrom(1, 1, 1, 0, 70_000, '5432');
    case 'tls':
      return fc.constantFrom('none', 'none', 'verified', 'plain');
    case 'database':
    case 'desk':
    case 'password':
      return fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom('paydesk', 'Front-1') },
        { weight: 1, arbitrary: hostileString },
      );
    case 'folder':
      // Inside this test's own folder, or refused (relative, empty): nothing is made elsewhere.
      return fc.oneof(
        fc.constantFrom(join(dataDir, 'other-backups'), 'relative/backups', '', ' '),
        hostileString.filter((text) => !text.trim().startsWith('/') && !/^[A-Za-z]:/.test(text)),
      );
    case 'caPem':
      return fc.constantFrom(
        '',
        '',
        'junk',
        '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n',
      );
    case 'profile':
      return shaped(PROFILE_FIELDS, options);
    case 'filter':
      return shaped(FILTER_FIELDS, options);
    default:
      return hostileString;
  }
}

const PROFILE_FIELDS = [
  'name',
  'environment',
  'baseUrl',
  'endpointId',
  'endpointKind',
  'login',
  'controlKey',
];
const FILTER_FIELDS = [
  'orderRef',
  'email',
  'cardLastFour',
  'amount',
  'amountMin',
  'amountMax',
  'currency',
  'status',
  'state',
  'pending',
  'operation',
  'from',
  'to',
];
const PAYOUT_FIELDS = [
  'profileId',
  'clientOrderId',
  'destination',
  'receiverLastName',
  'amount',
  'currency',
  'purpose',
  'description',
];
const TEAM_FIELDS = ['host', 'port', 'database', 'login', 'password', 'desk', 'tls', 'caPem'];
const SCHEDULE_FIELDS = ['amount', 'currency', 'period', 'interval', 'startDate', 'repeats'];
const ACTION_FIELDS = ['profileId', 'orderid', 'clientOrderId', 'amount', 'reason', 'note'];

/** The top-level fields of each call's request; the test fails when a call has none listed. */
const SHAPES: Record<string, string[]> = {
  'app.status': [],
  'lifecycle.state': [],
  'lifecycle.retryKeychain': [],
  'lifecycle.skipKeychain': [],
  'network.trustedCa': [],
  'network.saveTrustedCa': ['pem'],
  'network.clearTrustedCa': [],
  'profiles.list': [],
  'profiles.create': PROFILE_FIELDS,
  'profiles.update': ['id', 'profile'],
  'profiles.remove': ['id'],
  'profiles.testConnection': ['id'],
  'keys.current': ['profileId'],
  'keys.generate': ['profileId', 'bits'],
  'keys.import': ['profileId', 'pem', 'passphrase'],
  'keys.checkImport': ['profileId', 'pem', 'passphrase'],
  'keys.savePublicKey': ['profileId'],
  'keys.copyPublicKey': ['profileId'],
  'orders.lookup': ['profileId', 'orderid', 'client_orderid'],
  'orders.recent': ['profileId', 'query'],
  'orders.openAction': [],
  'orders.capture': ACTION_FIELDS,
  'orders.void': ACTION_FIELDS,
  'orders.refund': ACTION_FIELDS,
  'orders.cancel': ACTION_FIELDS,
  'journal.search': ['filter', 'offset', 'limit'],
  'journal.entry': ['clientOrderId'],
  'journal.exportCsv': ['filter'],
  'journal.totals': ['filter'],
  'journal.settleByHand': ['clientOrderId', 'outcome', 'reason'],
  'tools.checkCallback': ['profileId', 'text'],
  'orders.copyThreeDsAddress': ['profileId', 'orderid'],
  'payouts.send': PAYOUT_FIELDS,
  'payouts.check': PAYOUT_FIELDS,
  'payouts.toPay': ['profileId'],
  'payouts.pay': ['profileId', 'clientOrderId', 'checkClientOrderId'],
  'cards.save': ['profileId', 'clientOrderId', 'orderid'],
  'cards.info': ['profileId', 'cardRefId'],
  'cards.rebill': ['profileId', 'clientOrderId', 'cardRefId', 'amount', 'currency', 'description'],
  'recurring.preview': SCHEDULE_FIELDS,
  'recurring.create': [
    ...SCHEDULE_FIELDS,
    'profileId',
    'clientOrderId',
    'cardRefId',
    'orderid',
    'email',
    'description',
  ],
  'payLinks.create': [
    'profileId',
    'clientOrderId',
    'kind',
    'amount',
    'currency',
    'email',
    'description',
    'returnUrl',
  ],
  'payLinks.list': ['profileId'],
  'payLinks.copy': ['profileId', 'clientOrderId'],
  'batches.load': ['profileId', 'fileName', 'text', 'concurrency'],
  'batches.list': [],
  'batches.get': ['batchId'],
  'batches.rows': ['batchId'],
  'batches.start': ['batchId', 'confirmation'],
  'batches.pause': ['batchId'],
  'batches.cancel': ['batchId'],
  'batches.saveResult': ['batchId'],
  'session.get': [],
  'team.settings': [],
  'team.test': TEAM_FIELDS,
  'team.use': TEAM_FIELDS,
  'team.stop': [],
  'team.saveSetupSql': [],
  'team.refreshProfiles': [],
  'team.planLocalJournalUpload': ['profileMap'],
  'team.uploadLocalJournal': ['profileMap'],
  'backups.status': [],
  'backups.backUpNow': [],
  'backups.setFolder': ['folder'],
  'backups.chooseFolder': [],
  'backups.restore': ['name'],
  'backups.startNewJournal': [],
  'support.saveBundle': [],
  'updates.state': [],
  'updates.check': [],
  'updates.install': [],
  'reports.summary': ['from', 'to', 'profileId'],
  'reports.exportCsv': ['from', 'to', 'profileId'],
  'reconcile.create': ['profileId', 'from', 'to', 'perSecond', 'atOnce'],
  'reconcile.list': [],
  'reconcile.get': ['runId'],
  'reconcile.findings': ['runId'],
  'reconcile.pause': ['runId'],
  'reconcile.resume': ['runId', 'perSecond', 'atOnce'],
  'reconcile.saveCsv': ['runId'],
  'reconcile.savePdf': ['runId'],
};

function shaped(fields: string[], options: { realProfile: boolean }): fc.Arbitrary<unknown> {
  const model = Object.fromEntries(
    fields.map((f) => [
      f,
      fc.oneof(
        { weight: 4, arbitrary: plausible(f, options) },
        { weight: 1, arbitrary: hostileValue },
      ),
    ]),
  );
  // Every field present (the likeliest to reach the services), or any of them left out.
  const full = fc.record(model);
  const partial = fc.record(model, { requiredKeys: [] });
  const extraKey = fc
    .tuple(partial, fc.constantFrom('__proto__', 'constructor', 'sneaky'), hostileValue)
    .map(([r, key, value]) => {
      const copy: Record<string, unknown> = { ...r };
      Object.defineProperty(copy, key, {
        value,
        enumerable: true,
        configurable: true,
        writable: true,
      });
      return copy;
    });
  return fc.oneof(
    { weight: 3, arbitrary: full },
    { weight: 3, arbitrary: partial },
    { weight: 1, arbitrary: extraKey },
  );
}

function payloads(call: string): fc.Arbitrary<unknown> {
  // Generating 4096-bit keys for the real profile would take minutes; the fuzz sends a key size
  // only with a profile that does not exist (the keys tests generate real keys).
  const options = { realProfile: call !== 'keys.generate' };
  return fc.oneof(
    { weight: 5, arbitrary: shaped(SHAPES[call] ?? [], options) },
    { weight: 1, arbitrary: hostileValue },
  );
}

// Profiles last: a fuzzed update may point the sandbox profile at a closed port.
const ORDER = ['app', 'orders', 'journal', 'tools', 'keys', 'profiles'];
const calls = allCalls().sort(([a], [b]) => ORDER.indexOf(a) - ORDER.indexOf(b));

describe('every bridge call, fuzzed through the real bridge and services', () => {
  it('lists a fuzz shape for every call of the contract', () => {
    expect(Object.keys(SHAPES).sort()).toEqual(calls.map(([ns, m]) => `${ns}.${m}`).sort());
  });

  for (const [namespace, method] of calls) {
    const name = `${namespace}.${method}`;
    it(`${name}: ${RUNS_PER_CALL} payloads, each a valid result or a typed error`, async () => {
      const channel = channelOf(namespace, method);
      await fc.assert(
        fc.asyncProperty(payloads(name), (payload) => check(channel, APP, payload)),
        { seed: 20_261_123, numRuns: RUNS_PER_CALL, endOnFailure: true },
      );
      expect(failures.filter((f) => f.channel === channel)).toEqual([]);
    });
  }

  it('refuses every sender but the app top frame, whatever the URL', async () => {
    const senderUrl = fc.oneof(
      fc.webUrl(),
      fc.constantFrom(
        'app://evil@paydesk/index.html',
        'app://:pw@paydesk/index.html',
        'app://paydesk:99/index.html',
        'app://paydesk.evil/index.html',
        'APP://PAYDESK/index.html',
        'file:///etc/passwd',
        'app:paydesk',
        '',
        'ab\uD800',
      ),
    );
    await fc.assert(
      fc.asyncProperty(senderUrl, fc.boolean(), async (url, isTopFrame) => {
        tried++;
        const answer = await bridge.handle(channelOf('profiles', 'list'), { url, isTopFrame }, {});
        const ok = !answer.ok && answer.error.code === 'FORBIDDEN';
        if (ok) held++;
        else failures.push({ channel: 'sender', payload: url, answer: JSON.stringify(answer) });
        return ok;
      }),
      { seed: 20_261_123, numRuns: RUNS_PER_CALL },
    );
  });
});
