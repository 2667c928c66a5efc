// The export's exact bytes for the cases that are easy to get wrong: local times on both sides
// of a summer-time change (Berlin), amounts of 0-, 2- and 3-decimal currencies, cells a CSV
// reader or a spreadsheet would misread (quotes, commas, line breaks, formulas), and names in
// other scripts. The export's speed comes from shortcuts (times cached per day, plain lines
// joined without the library); these lines are written out in full so that no shortcut can
// change a byte unnoticed, whatever the reference functions do.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { writeContent } from '../../../main/files';
import { JournalService } from '../../../main/services/journal';
import { csvLineWriter } from '../../../main/store/csv-record';
import { CSV_SOURCE_COLUMNS, RawCsvChunks, csvLines } from '../../../main/store/journal/csv';
import type { JournalEntry } from '../../../main/store/journal/types';
import { openDatabase, type Db } from '../../../main/store/sqlite/database';
import { Journal } from '../../../main/store/sqlite/journal';
import { SqliteJournalPort } from '../../../main/store/sqlite/journal-port';
import { Profiles } from '../../../main/store/sqlite/profiles';

const HEADER =
  'created_at,operator,profile,profile_id,action,operation,client_orderid,orderid,target_orderid,' +
  'target_client_orderid,amount,currency,reason,note,email,state,status,error_code,error_message,' +
  'final_at\r\n';

let dir: string;
let db: Db;
let journal: Journal;
let profileId: string;
let zone: string | undefined;

beforeEach(() => {
  zone = process.env.TZ;
  process.env.TZ = 'Europe/Berlin';
  dir = mkdtempSync(join(tmpdir(), 'paydesk-csv-bytes-'));
  db = openDatabase(join(dir, 'paydesk.sqlite'));
  journal = new Journal(db);
  profileId = new Profiles(db).create({
    name: 'Zürich Shop — 東京',
    environment: 'sandbox',
    baseUrl: 'http://127.0.0.1:9/paynet',
    endpointId: '1111',
    login: 'shop',
  }).id;
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});

interface Stored {
  operator?: string;
  operation?: string;
  action?: string | null;
  amountMinor?: bigint | null;
  currency?: string | null;
  reason?: string | null;
  note?: string | null;
  email?: string | null;
  status?: string | null;
  errorMessage?: string | null;
  createdAt: string;
  finalAt?: string | null;
}

/** An entry as the journal stores it, its times and answer set as given (oldest first). */
function store(i: number, e: Stored): void {
  journal.begin({
    clientOrderId: `pd-${i}`,
    profileId,
    operator: e.operator ?? 'ann',
    operation: e.operation ?? 'RETURN',
    targetOrderId: String(9000 + i),
    amountMinor: e.amountMinor === undefined ? 100n : (e.amountMinor ?? undefined),
    currency: e.currency === undefined ? 'EUR' : (e.currency ?? undefined),
    reason: e.reason ?? undefined,
    note: e.note ?? undefined,
    email: e.email ?? undefined,
    fields: {},
  });
  db.prepare(
    `UPDATE journal SET action = ?, created_at = ?, final_at = ?, status = ?, error_message = ?,
       state = ?, orderid = ? WHERE client_orderid = ?`,
  ).run(
    e.action ?? null,
    e.createdAt,
    e.finalAt ?? null,
    e.status ?? null,
    e.errorMessage ?? null,
    e.status ? 'final' : 'sending',
    e.status ? String(7000 + i) : null,
    `pd-${i}`,
  );
}

async function exported(): Promise<string> {
  const out = join(dir, 'journal.csv');
  const profiles = new Profiles(db);
  await writeContent(out, () =>
    new JournalService(new SqliteJournalPort(db, journal), (id) => profiles.nameOf(id)).csvChunks(
      {},
    ),
  );
  return readFileSync(out, 'utf8');
}

describe("the journal export's bytes", () => {
  it('writes local times across Berlin’s summer-time changes, and amounts of 0, 2 and 3 decimals', async () => {
    store(1, {
      createdAt: '2026-03-29T00:59:59.999Z',
      finalAt: '2026-03-29T01:00:00.000Z',
      status: 'approved',
    });
    store(2, { createdAt: '2026-03-29T01:30:00.000Z', amountMinor: 1n, currency: 'JPY' });
    store(3, { createdAt: '2026-10-25T00:30:00.000Z', amountMinor: 1n, currency: 'KWD' });
    store(4, {
      createdAt: '2026-10-25T01:30:00.000Z',
      amountMinor: 123_456_789_012_345_678n,
      currency: 'BHD',
    });
    store(5, {
      createdAt: '2026-12-31T23:59:59.999Z',
      amountMinor: 1n,
      currency: 'EUR',
      action: 'partial-refund',
    });
    store(6, {
      createdAt: '2026-07-01T10:00:00.000Z',
      amountMinor: 5000n,
      currency: 'JPY',
      operation: 'CAPTURE',
      action: 'capture',
    });
    store(7, {
      createdAt: '2026-07-01T10:00:00.001Z',
      amountMinor: null,
      currency: null,
      operation: 'VOID',
    });
    store(8, {
      createdAt: 'not a time',
      amountMinor: 12_345n,
      currency: 'XYZ',
      finalAt: '2026-03-14T03:56:53Z',
      status: 'declined',
    });
    const uuid = profileId;
    expect(await exported()).toBe(
      HEADER +
        `not a time,ann,Zürich Shop — 東京,${uuid},RETURN,RETURN,pd-8,7008,9008,,123.45,XYZ,,,,final,declined,,,2026-03-14T04:56:53.000+01:00\r\n` +
        `2026-07-01T12:00:00.001+02:00,ann,Zürich Shop — 東京,${uuid},VOID,VOID,pd-7,,9007,,,,,,,sending,,,,\r\n` +
        `2026-07-01T12:00:00.000+02:00,ann,Zürich Shop — 東京,${uuid},Capture,CAPTURE,pd-6,,9006,,5000,JPY,,,,sending,,,,\r\n` +
        `2027-01-01T00:59:59.999+01:00,ann,Zürich Shop — 東京,${uuid},Partial refund,RETURN,pd-5,,9005,,0.01,EUR,,,,sending,,,,\r\n` +
        `2026-10-25T02:30:00.000+01:00,ann,Zürich Shop — 東京,${uuid},RETURN,RETURN,pd-4,,9004,,123456789012345.678,BHD,,,,sending,,,,\r\n` +
        `2026-10-25T02:30:00.000+02:00,ann,Zürich Shop — 東京,${uuid},RETURN,RETURN,pd-3,,9003,,0.001,KWD,,,,sending,,,,\r\n` +
        `2026-03-29T03:30:00.000+02:00,ann,Zürich Shop — 東京,${uuid},RETURN,RETURN,pd-2,,9002,,1,JPY,,,,sending,,,,\r\n` +
        `2026-03-29T01:59:59.999+01:00,ann,Zürich Shop — 東京,${uuid},RETURN,RETURN,pd-1,7001,9001,,1.00,EUR,,,,final,approved,,,2026-03-29T03:00:00.000+02:00\r\n`,
    );
  });

  it('quotes quotes, commas and line breaks, defuses formulas, and writes other scripts as they are', async () => {
    const at = '2026-05-04T08:09:10.011Z';
    store(1, { createdAt: at, reason: 'Said "wrong size", sent back', note: 'line\r\nbreak' });
    store(2, {
      createdAt: at,
      operator: '=cmd|/C calc',
      note: '+1',
      email: '-2@x',
      reason: '@SUM(A1)',
    });
    store(3, {
      createdAt: at,
      operator: 'Zoë Ørsted',
      note: '\uFF1D1+1',
      reason: 'lone\rCR',
      email: 'lone\nLF',
    });
    store(4, {
      createdAt: at,
      operator: 'Ĳssel 😀',
      note: 'tab\tinside',
      reason: "it's",
      email: 'ü@example.de',
      errorMessage: 'Insufficient funds, try later',
      status: 'declined',
      finalAt: at,
    });
    store(5, { createdAt: at, note: '\t', reason: ' =1', email: ';' });
    const uuid = profileId;
    const local = '2026-05-04T10:09:10.011+02:00';
    const p = `Zürich Shop — 東京,${uuid}`;
    expect(await exported()).toBe(
      HEADER +
        `${local},ann,${p},RETURN,RETURN,pd-5,,9005,,1.00,EUR, =1,'\t,;,sending,,,,\r\n` +
        `${local},Ĳssel 😀,${p},RETURN,RETURN,pd-4,7004,9004,,1.00,EUR,it's,tab\tinside,ü@example.de,final,declined,,"Insufficient funds, try later",${local}\r\n` +
        `${local},Zoë Ørsted,${p},RETURN,RETURN,pd-3,,9003,,1.00,EUR,"lone\rCR",'\uFF1D1+1,"lone\nLF",sending,,,,\r\n` +
        `${local},'=cmd|/C calc,${p},RETURN,RETURN,pd-2,,9002,,1.00,EUR,'@SUM(A1),'+1,'-2@x,sending,,,,\r\n` +
        `${local},ann,${p},RETURN,RETURN,pd-1,,9001,,1.00,EUR,"Said ""wrong size"", sent back","line\r\nbreak",,sending,,,,\r\n`,
    );
  });

  it('writes zero and negative amounts (other stores; SQLite keeps only positive ones) as text', async () => {
    // A row as the export reads it (CSV_SOURCE_COLUMNS, integers as bigint) and the same entry
    // whole (the PostgreSQL path): the same line from both.
    const row = (minor: bigint, currency: string): unknown[] =>
      CSV_SOURCE_COLUMNS.map((column) =>
        column === 'amount_minor'
          ? minor
          : column === 'currency'
            ? currency
            : column === 'created_at'
              ? '2026-01-02T03:04:05.006Z'
              : column === 'state'
                ? 'final'
                : column === 'operator' || column === 'profile_id' || column === 'operation'
                  ? column
                  : column === 'client_orderid'
                    ? 'pd-x'
                    : null,
      );
    const line = await csvLineWriter();
    const chunks = new RawCsvChunks(line);
    const cases: [bigint, string][] = [
      [0n, 'EUR'],
      [0n, 'JPY'],
      [0n, 'KWD'],
      [-1n, 'EUR'],
      [-1n, 'JPY'],
      [-1n, 'KWD'],
      [-123_456n, 'EUR'],
    ];
    for (const [minor, currency] of cases) chunks.add(row(minor, currency));
    const text = Buffer.from(chunks.take()).toString('utf8');
    const entry = (minor: bigint, currency: string) =>
      ({
        createdAt: '2026-01-02T03:04:05.006Z',
        operator: 'operator',
        profileId: 'profile_id',
        action: null,
        operation: 'operation',
        clientOrderId: 'pd-x',
        orderId: null,
        targetOrderId: null,
        targetClientOrderId: null,
        amountMinor: minor,
        currency,
        reason: null,
        note: null,
        email: null,
        state: 'final',
        status: null,
        errorCode: null,
        errorMessage: null,
        finalAt: null,
      }) as unknown as JournalEntry;
    expect(
      csvLines(
        cases.map(([m, c]) => entry(m, c)),
        line,
      ),
    ).toBe(text);
    const start =
      '2026-01-02T04:04:05.006+01:00,operator,profile_id,profile_id,operation,operation,pd-x,,,,';
    const end = ',,,,final,,,,\r\n';
    expect(text).toBe(
      ['0.00,EUR', '0,JPY', '0.000,KWD', "'-0.01,EUR", "'-1,JPY", "'-0.001,KWD", "'-1234.56,EUR"]
        .map((cells) => start + cells + end)
        .join(''),
    );
  });
});
