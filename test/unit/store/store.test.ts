import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { journalCsv } from '../../../main/store/journal/csv';
import {
  openDatabase,
  schemaVersion,
  StoreError,
  type Db,
} from '../../../main/store/sqlite/database';
import { Journal } from '../../../main/store/sqlite/journal';
import { MIGRATIONS } from '../../../main/store/sqlite/migrations';
import { Profiles } from '../../../main/store/sqlite/profiles';
import { maskPan, redactFields } from '../../../main/store/journal/redact';

let dir: string;
let file: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-store-'));
  file = join(dir, 'paydesk.sqlite');
  db = openDatabase(file);
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const FP_A = Array(32).fill('AA').join(':');
const FP_B = Array(32).fill('BB').join(':');

const sandboxProfile = {
  name: 'Sandbox',
  environment: 'sandbox' as const,
  baseUrl: 'http://127.0.0.1:18080/paynet/',
  endpointId: '1111',
  login: 'demo',
};

describe('the database', () => {
  it('is a WAL file with foreign keys, migrated to the latest schema, and reopens cleanly', () => {
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(schemaVersion(db)).toBe(MIGRATIONS.length);
    new Profiles(db).create(sandboxProfile);
    db.close();
    db = openDatabase(file);
    expect(new Profiles(db).list().map((p) => p.name)).toEqual(['Sandbox']);
  });

  it('refuses a database written by a newer Paydesk', () => {
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    expect(() => (db = openDatabase(file))).toThrow(/newer Paydesk/);
    db = openDatabase(':memory:');
  });
});

describe('database errors', () => {
  it('leave every store call as a typed StoreError with a code and a sentence, never a raw SqliteError', () => {
    const thrown = (fn: () => unknown): unknown => {
      try {
        fn();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const constraint = thrown(() => db.prepare("INSERT INTO profiles (id) VALUES ('x')").run());
    expect(constraint).toBeInstanceOf(StoreError);
    expect(constraint).toMatchObject({ code: 'CONSTRAINT', retryable: false });
    const inTransaction = thrown(() =>
      db.transaction(() => db.exec('INSERT INTO nowhere VALUES (1)')).immediate(),
    );
    expect(inTransaction).toBeInstanceOf(StoreError);
    expect((inTransaction as StoreError).message).toMatch(/no such table: nowhere/);
    // Rules thrown inside a transaction pass unchanged; chained statements stay typed.
    const rule = new RangeError('a rule said no');
    expect(
      thrown(() =>
        db.transaction(() => {
          throw rule;
        })(),
      ),
    ).toBe(rule);
    const rows = db.prepare('SELECT 1 AS one').safeIntegers(true).all();
    expect(rows).toEqual([{ one: 1n }]);
    expect([...db.prepare('SELECT 2 AS two').iterate()]).toEqual([{ two: 2 }]);
    // A reused client_orderid is still the journal's own sentence.
    const journal = new Journal(db);
    const profileId = new Profiles(db).create(sandboxProfile).id;
    const entry = {
      clientOrderId: 'pd-dup-000001',
      profileId,
      operator: 'ann',
      operation: 'RETURN',
      fields: { client_orderid: 'pd-dup-000001' },
    };
    journal.begin(entry);
    expect(() => journal.begin(entry)).toThrow(/already in the journal/);
  });
});

describe('profiles', () => {
  it('are created with a normalized base URL and refused with a message per field', () => {
    const profiles = new Profiles(db);
    expect(profiles.create(sandboxProfile)).toMatchObject({
      baseUrl: 'http://127.0.0.1:18080/paynet',
      endpointKind: 'endpoint',
      keyFingerprint: null,
    });
    expect(() => profiles.create({ ...sandboxProfile, name: 'sandbox' })).toThrow(/exists already/);
    expect(() =>
      profiles.create({ ...sandboxProfile, name: 'Prod', baseUrl: 'http://gate.example.com' }),
    ).toThrow(/plain http/);
    expect(() => profiles.create({ ...sandboxProfile, name: 'Prod', endpointId: 'abc' })).toThrow(
      /endpoint id/,
    );
    expect(() => profiles.create({ ...sandboxProfile, name: ' ' })).toThrow(/name/);
  });

  it('refuse NUL, other controls and text-direction overrides in any text field, without the bridge', () => {
    const profiles = new Profiles(db);
    for (const [field, value, message] of [
      ['name', 'Sand\u0000box', /profile name contains a control character/],
      ['name', 'Sandbox \u202Edorp', /profile name contains an invisible text-direction/],
      ['login', 'de\u2067mo', /merchant login contains an invisible text-direction/],
      ['login', 'de\uD800mo', /broken character/],
      ['baseUrl', 'http://127.0.0.1:18080/pay\u001Bnet', /base URL contains a control/],
    ] as const) {
      let thrown: unknown;
      try {
        profiles.create({ ...sandboxProfile, [field]: value });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({
        name: 'ProfileError',
        field,
        message: expect.stringMatching(message) as unknown,
      });
    }
    expect(profiles.list()).toEqual([]);
  });

  it('keep one key pair per environment, and a history across rotations', () => {
    const profiles = new Profiles(db);
    const prod = profiles.create({
      ...sandboxProfile,
      name: 'Production',
      environment: 'production',
      baseUrl: 'https://gate.example.com/paynet',
    });
    const test = profiles.create({
      ...sandboxProfile,
      name: 'Test',
      environment: 'test',
      baseUrl: 'https://sandbox.example.com/paynet',
    });
    profiles.attachKey(prod.id, FP_A);
    expect(() => profiles.attachKey(test.id, FP_A)).toThrow(
      /is used by the production profile "Production", and a key pair belongs to one environment/,
    );
    profiles.attachKey(prod.id, FP_B);
    expect(profiles.require(prod.id).keyFingerprint).toBe(FP_B);
    const history = profiles.keyHistory(prod.id);
    expect(history.map((h) => [h.fingerprint, h.retiredAt === null])).toEqual([
      [FP_B, true],
      [FP_A, false],
    ]);
    // A retired production key stays production's.
    expect(() => profiles.attachKey(test.id, FP_A)).toThrow(/was used by the production profile/);
    expect(() =>
      profiles.update(prod.id, {
        ...sandboxProfile,
        name: 'Production',
        environment: 'test',
        baseUrl: 'https://gate.example.com',
      }),
    ).toThrow(/belongs to one environment/);
  });

  it('with journal entries cannot be removed', () => {
    const profiles = new Profiles(db);
    const p = profiles.create(sandboxProfile);
    new Journal(db).begin({
      clientOrderId: 'c1',
      profileId: p.id,
      operator: 'ann',
      operation: 'RETURN',
      fields: {},
    });
    expect(() => profiles.remove(p.id)).toThrow(/kept for the record/);
    const empty = profiles.create({ ...sandboxProfile, name: 'Spare' });
    profiles.remove(empty.id);
    expect(profiles.get(empty.id)).toBeUndefined();
  });
});

describe('the journal', () => {
  let journal: Journal;
  let profileId: string;
  beforeEach(() => {
    journal = new Journal(db);
    profileId = new Profiles(db).create(sandboxProfile).id;
  });

  const refund = (clientOrderId: string, extra: Partial<Parameters<Journal['begin']>[0]> = {}) =>
    journal.begin({
      clientOrderId,
      profileId,
      operator: 'ann',
      operation: 'RETURN',
      targetOrderId: '9012',
      amountMinor: 229n,
      currency: 'EUR',
      reason: 'Returned goods',
      email: 'john@example.com',
      fields: { client_orderid: clientOrderId, orderid: '9012', amount: '2.29', currency: 'EUR' },
      ...extra,
    });

  it('records an entry before sending and moves it forward with each answer', () => {
    expect(refund('r-1')).toMatchObject({ state: 'sending', amountMinor: 229n, orderId: null });
    expect(journal.acknowledge('r-1', '5001')).toMatchObject({
      state: 'acknowledged',
      orderId: '5001',
    });
    expect(journal.inFlight().map((e) => e.clientOrderId)).toEqual(['r-1']);
    expect(journal.finish('r-1', { status: 'approved' })).toMatchObject({
      state: 'final',
      status: 'approved',
      orderId: '5001',
    });
    expect(journal.inFlight()).toEqual([]);
    expect(() => journal.finish('r-1', { status: 'declined' })).toThrow(
      /is final \(approved\) and cannot become final/,
    );
  });

  it('returns each entry exactly as it is on disk after every write (it is not read back)', () => {
    const same = (entry: ReturnType<Journal['begin']>) =>
      expect(entry).toEqual(journal.get(entry.clientOrderId));
    same(refund('w-1', { note: 'Customer called', lease: { owner: 'me', until: new Date() } }));
    same(journal.acknowledge('w-1', '5001'));
    same(journal.acknowledge('w-1', undefined)); // a repeat: nothing changes
    same(journal.finish('w-1', { status: 'declined', errorCode: '05', errorMessage: 'No' }));
    same(refund('w-2', { amountMinor: undefined, currency: undefined, fields: {} }));
    same(journal.markUnknown('w-2', { code: 'TIMEOUT', message: 'No answer' }));
    same(journal.finish('w-2', { status: 'approved', orderId: '5002' }));
    same(refund('w-3'));
    same(journal.refuse('w-3', { message: 'Refused' }));
    same(refund('w-4'));
    same(journal.markUnknown('w-4', { message: 'Cut' }));
    same(
      journal.settleByHand('w-4', { outcome: 'not-received', reason: 'Bank says no', by: 'ann' }),
    );
  });

  it('refuses a reused client_orderid: every operation needs a fresh one', () => {
    refund('r-2');
    expect(() => refund('r-2')).toThrow(/already in the journal/);
  });

  it('keeps a lost answer in flight as unknown, for reconciliation by status', () => {
    refund('r-3');
    journal.markUnknown('r-3', { code: 'TIMEOUT', message: 'No answer' });
    expect(journal.inFlight()).toMatchObject([
      { clientOrderId: 'r-3', state: 'unknown', errorCode: 'TIMEOUT' },
    ]);
    expect(journal.finish('r-3', { status: 'approved', orderId: '5003' })).toMatchObject({
      state: 'final',
      orderId: '5003',
    });
  });

  it('never stores a full card number, a CVV or a secret', () => {
    journal.begin({
      clientOrderId: 's-1',
      profileId,
      operator: 'ann',
      operation: 'SALE',
      fields: {
        credit_card_number: '4444555566661111',
        cvv2: '123',
        control: 'abc',
        amount: '1.00',
        card_printed_name: 'JOHN',
      },
    });
    db.pragma('wal_checkpoint(TRUNCATE)');
    const bytes = readFileSync(file).toString('latin1');
    expect(bytes).not.toContain('4444555566661111');
    expect(bytes).toContain('444455******1111');
    expect(journal.get('s-1')?.summary).toEqual({
      credit_card_number: '444455******1111',
      amount: '1.00',
      card_printed_name: 'JOHN',
    });
  });

  it('is searched by order, email, status, operation and date, paged newest first', () => {
    const times = [
      '2026-11-01T10:00:00.000Z',
      '2026-11-02T10:00:00.000Z',
      '2026-11-03T10:00:00.000Z',
    ];
    let i = 0;
    journal = new Journal(db, () => new Date(times[Math.min(i, 2)]!));
    refund('a');
    i = 1;
    refund('b', { email: 'other@example.com', targetOrderId: '9999' });
    i = 2;
    refund('c', { operation: 'CAPTURE' });
    journal.finish('a', { status: 'approved' });
    expect(journal.search({ orderRef: '9012' }).rows.map((e) => e.clientOrderId)).toEqual([
      'c',
      'a',
    ]);
    expect(journal.search({ email: 'OTHER@example.com' }).rows.map((e) => e.clientOrderId)).toEqual(
      ['b'],
    );
    expect(journal.search({ status: 'approved' }).total).toBe(1);
    expect(journal.search({ operation: 'CAPTURE' }).rows.map((e) => e.clientOrderId)).toEqual([
      'c',
    ]);
    expect(
      journal
        .search({ from: '2026-11-02T00:00:00.000Z', to: '2026-11-03T00:00:00.000Z' })
        .rows.map((e) => e.clientOrderId),
    ).toEqual(['b']);
    const page = journal.search({}, 1, 1);
    expect(page).toMatchObject({ total: 3, offset: 1, limit: 1 });
    expect(page.rows.map((e) => e.clientOrderId)).toEqual(['b']);
  });

  it('exports CSV with exact amounts, quoting, and formulas defused', async () => {
    refund('r-csv', { reason: 'Said "wrong size", sent back', note: '=HYPERLINK("http://evil")' });
    const csv = await journalCsv(journal.iterate());
    const [header, row] = csv.trimEnd().split('\r\n');
    expect(header).toMatch(
      /^created_at,operator,profile,profile_id,action,operation,client_orderid/,
    );
    expect(row).toContain(',2.29,EUR,');
    expect(row).toContain('"Said ""wrong size"", sent back"');
    expect(row).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });

  it('exports fullwidth formulas defused too, as a spreadsheet reads the file', async () => {
    refund('r-wide', { reason: '\uFF1DHYPERLINK("http://evil")', note: '\uFF0B1' });
    const [header = [], row = []] = parse(await journalCsv(journal.iterate()));
    const cell = (name: string) => row[header.indexOf(name)];
    expect(cell('reason')).toBe(`'\uFF1DHYPERLINK("http://evil")`);
    expect(cell('note')).toBe("'\uFF0B1");
  });
});

describe('redaction', () => {
  it('masks card numbers to first six and last four', () => {
    expect(maskPan('4444555566661111')).toBe('444455******1111');
    expect(maskPan('123')).toBe('***');
    expect(
      redactFields({ 'destination-card-no': '4111111111111111', oauth_signature: 'x', PaRes: 'y' }),
    ).toEqual({
      'destination-card-no': '411111******1111',
    });
  });
});

describe('card data in the journal', () => {
  it('is never stored, even when a caller skipped the services check', () => {
    const journal = new Journal(db);
    const profile = new Profiles(db).create(sandboxProfile);
    const base = {
      profileId: profile.id,
      operator: 'ann',
      operation: 'RETURN',
      targetOrderId: '1',
    };
    expect(() =>
      journal.begin({
        ...base,
        clientOrderId: 'pd-card-1',
        note: 'pan 4111111111111111',
        fields: {},
      }),
    ).toThrow(/note holds card data/);
    expect(() =>
      journal.begin({
        ...base,
        clientOrderId: 'pd-card-2',
        fields: { client_orderid: 'pd-card-2', comment: 'Other: cvv 123' },
      }),
    ).toThrow(/comment holds card data/);
    expect(journal.get('pd-card-1')).toBeUndefined();
    expect(journal.get('pd-card-2')).toBeUndefined();
    expect(readFileSync(file).toString('latin1')).not.toContain('4111111111111111');
  });
});
