// The desk's copy of its team's shared profiles (main/store/sqlite/team-mirror.ts), on a real SQLite
// file: what the Profiles list shows on a team, names that move between shared profiles, a local
// profile whose name a shared one takes, and a shared profile gone from the team.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { openDatabase, type Db } from '../../../main/store/sqlite/database';
import type { SharedProfile } from '../../../main/store/postgres/profiles';
import { Profiles } from '../../../main/store/sqlite/profiles';
import { TeamMirror } from '../../../main/store/sqlite/team-mirror';

let dir: string;
let db: Db;
let profiles: Profiles;
let mirror: TeamMirror;

const FP = Array(32).fill('AB').join(':');

function shared(id: string, name: string, extra: Partial<SharedProfile> = {}): SharedProfile {
  return {
    id,
    name,
    environment: 'production',
    baseUrl: 'https://gate.example.com/paynet',
    endpointId: id === 'p-usd' ? '2222' : '1111',
    endpointKind: 'endpoint',
    login: 'shop',
    keyFingerprint: null,
    payoutFourEyes: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-02T00:00:00.000Z',
    updatedBy: 'ada',
    ...extra,
  };
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'paydesk-mirror-'));
  db = openDatabase(join(dir, 'paydesk.sqlite'));
  profiles = new Profiles(db);
  mirror = new TeamMirror(db);
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the team mirror', () => {
  it('lists the shared profiles and the Sandbox; local ones are set aside, matched by gateway identity', () => {
    const sandbox = profiles.create(
      {
        name: 'Sandbox',
        environment: 'sandbox',
        baseUrl: 'http://127.0.0.1:1/paynet',
        endpointId: '1111',
        login: 'paydesk-sandbox',
      },
      { embedded: true },
    );
    const same = profiles.create({
      name: 'EUR',
      environment: 'production',
      baseUrl: 'https://GATE.example.com/paynet/',
      endpointId: '1111',
      login: 'shop',
    });
    const other = profiles.create({
      name: 'Old',
      environment: 'test',
      baseUrl: 'https://other.example.com',
      endpointId: '9',
      login: 'x',
    });
    const report = mirror.replace([
      shared('p-eur', 'EUR', { keyFingerprint: FP }),
      shared('p-usd', 'USD'),
    ]);
    expect(report).toMatchObject({
      shared: 2,
      setAside: 2,
      renamed: [{ id: same.id, from: 'EUR', to: 'EUR (this desk)' }],
    });
    expect(profiles.list().map((p) => [p.id, p.name])).toEqual([
      ['p-eur', 'EUR'],
      [sandbox.id, 'Sandbox'],
      ['p-usd', 'USD'],
    ]);
    expect(mirror.setAside()).toMatchObject([
      { id: same.id, teamProfileId: 'p-eur' },
      { id: other.id, teamProfileId: null },
    ]);
    // The team's key is kept apart from the desk's own.
    expect(mirror.info('p-eur')).toMatchObject({ role: 'shared', teamKeyFingerprint: FP });
    expect(profiles.get('p-eur')!.keyFingerprint).toBeNull();
  });

  it('follows two shared profiles swapping names, keeps the desk key, and drops one gone from the team', () => {
    mirror.replace([shared('p-eur', 'EUR'), shared('p-usd', 'USD')]);
    profiles.attachKey('p-eur', FP);
    mirror.replace([
      shared('p-eur', 'USD', { updatedBy: 'bea' }),
      shared('p-usd', 'EUR', { endpointId: '2222' }),
    ]);
    expect(profiles.get('p-eur')).toMatchObject({ name: 'USD', keyFingerprint: FP });
    expect(mirror.info('p-eur')).toMatchObject({ updatedBy: 'bea' });
    expect(profiles.get('p-usd')!.name).toBe('EUR');

    const report = mirror.replace([shared('p-usd', 'EUR')]);
    expect(report.removed).toEqual(['p-eur']);
    expect(profiles.get('p-eur')).toBeUndefined();
  });

  it('keeps, set aside, a shared profile gone from the team that a batch of this desk still names', () => {
    mirror.replace([shared('p-eur', 'EUR')]);
    const at = new Date().toISOString();
    db.prepare(
      `INSERT INTO batches (profile_id, operator, file_name, state, concurrency, created_at, updated_at)
       VALUES ('p-eur', 'ann', 'refunds.csv', 'done', 1, ?, ?)`,
    ).run(at, at);
    const report = mirror.replace([]);
    expect(report.removed).toEqual([]);
    expect(profiles.list()).toEqual([]);
    expect(mirror.info('p-eur')).toMatchObject({ role: 'set-aside' });
  });

  it("leaving the team gives the desk back its own profiles, under their names, and sets the team's aside", () => {
    const own = profiles.create({
      name: 'EUR',
      environment: 'test',
      baseUrl: 'https://other.example.com',
      endpointId: '9',
      login: 'x',
    });
    profiles.create({
      name: 'Old',
      environment: 'test',
      baseUrl: 'https://old.example.com',
      endpointId: '8',
      login: 'y',
    });
    const joined = mirror.replace([shared('p-eur', 'EUR')]);
    expect(joined.renamed).toEqual([{ id: own.id, from: 'EUR', to: 'EUR (this desk)' }]);
    expect(profiles.list().map((p) => p.name)).toEqual(['EUR']);
    expect(mirror.hasTeamRows()).toBe(true);

    expect(mirror.leave()).toEqual({ restored: ['EUR', 'Old'], keptFromTeam: ['EUR'] });
    expect(profiles.list().map((p) => [p.id, p.name])).toEqual([
      [own.id, 'EUR'],
      [expect.any(String), 'Old'],
    ]);
    expect(mirror.info(own.id)).toMatchObject({ role: null, teamProfileId: null });
    expect(mirror.info('p-eur')).toMatchObject({ role: 'set-aside' });
    expect(mirror.keptFromTeam()).toEqual(['EUR']);
    expect(mirror.hasTeamRows()).toBe(false);

    // Joining again: the team's copy comes back under its name, the desk's own is set aside again.
    mirror.replace([shared('p-eur', 'EUR')]);
    expect(profiles.list().map((p) => [p.id, p.name])).toEqual([['p-eur', 'EUR']]);
    expect(mirror.keptFromTeam()).toEqual([]);
  });
});
