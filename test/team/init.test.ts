// `npm run team:init` and docs/team.sql: both set up the same schema, both can run again and
// change nothing the second time, and the committed SQL file is exactly what the script prints.

import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { GROUP_ROLES, PG_MIGRATIONS } from '../../main/store/postgres/migrations';
import { applyTeamSchema, teamSql } from '../../main/store/postgres/schema';
import { checkUrl, teamInit } from '../../scripts/team-init';
import { postgresForTests, startCluster, type PgCluster } from '../support/postgres';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const withPostgres = postgresForTests('the team:init tests');

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
}

/** Everything team:init makes, as text: roles, tables, columns, constraints, indexes, policies, triggers, functions, grants, versions. */
async function snapshot(client: pg.ClientBase): Promise<string[]> {
  const queries = [
    `SELECT rolname, rolcanlogin, rolinherit FROM pg_roles WHERE rolname LIKE 'paydesk\\_%' ORDER BY 1`,
    `SELECT table_name, column_name, data_type, column_default, is_nullable, is_identity
       FROM information_schema.columns WHERE table_schema = 'paydesk' ORDER BY 1, 2`,
    `SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint
      WHERE connamespace = 'paydesk'::regnamespace ORDER BY 1, 2`,
    `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'paydesk' ORDER BY 1, 2`,
    `SELECT tablename, policyname, cmd, roles::text, qual, with_check FROM pg_policies WHERE schemaname = 'paydesk' ORDER BY 1, 2`,
    `SELECT relname, relrowsecurity FROM pg_class WHERE relnamespace = 'paydesk'::regnamespace AND relkind = 'r' ORDER BY 1`,
    `SELECT tgrelid::regclass::text, tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal
        AND tgrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'paydesk'::regnamespace) ORDER BY 1, 2`,
    `SELECT proname, md5(prosrc), proconfig::text FROM pg_proc WHERE pronamespace = 'paydesk'::regnamespace ORDER BY 1`,
    `SELECT grantee, table_name, privilege_type FROM information_schema.role_table_grants
      WHERE table_schema = 'paydesk' AND grantee LIKE 'paydesk\\_%' ORDER BY 1, 2, 3`,
    `SELECT grantee, table_name, column_name, privilege_type FROM information_schema.column_privileges
      WHERE table_schema = 'paydesk' AND grantee LIKE 'paydesk\\_%' ORDER BY 1, 2, 3, 4`,
    `SELECT nspacl::text FROM pg_namespace WHERE nspname = 'paydesk'`,
    `SELECT version, description, applied_by FROM paydesk.schema_version ORDER BY 1`,
  ];
  const lines: string[] = [];
  for (const query of queries) {
    const { rows } = await client.query<Record<string, unknown>>(query);
    for (const row of rows) lines.push(JSON.stringify(Object.values(row)));
  }
  return lines;
}

describe('docs/team.sql', () => {
  it('is exactly what `npm run team:init -- --print-sql` prints', async () => {
    const { out, io } = capture();
    expect(await teamInit(['--print-sql'], io)).toBe(0);
    const committed = readFileSync(join(root, 'docs', 'team.sql'), 'utf8');
    expect(`${out.join('\n')}\n`).toBe(committed);
    expect(committed).toBe(teamSql());
    for (const m of PG_MIGRATIONS)
      expect(committed).toContain(`-- Migration ${m.version}: ${m.description}`);
  });
});

describe('team:init arguments', () => {
  it('says what to fix for a missing or unusable URL', async () => {
    const none = capture();
    expect(await teamInit([], none.io)).toBe(2);
    expect(none.err.join('\n')).toContain('No database URL given.');
    expect(checkUrl('db.example.com/paydesk')).toContain('is not a URL');
    expect(checkUrl('mysql://x@localhost/paydesk')).toContain('must start with postgres://');
    expect(checkUrl('postgres://x@localhost')).toContain('names no database');
    expect(checkUrl('postgres://dba@db.example.com/paydesk')).toContain('needs TLS');
    expect(checkUrl('postgres://dba@db.example.com/paydesk?sslmode=verify-full')).toBeUndefined();
    expect(checkUrl('postgres://dba@127.0.0.1:5432/paydesk')).toBeUndefined();
  });
});

describe.skipIf(!withPostgres)('team:init on a real PostgreSQL', () => {
  let cluster: PgCluster;

  beforeAll(async () => {
    cluster = await startCluster();
    await cluster.asSuperuser(async (su) => {
      await su.query('CREATE DATABASE by_script');
      await su.query('CREATE DATABASE by_sql');
    });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('sets up roles and schema, says so, and a second run changes nothing', async () => {
    // The real command, as the DBA types it.
    const first = await run(
      join(root, 'node_modules', '.bin', 'tsx'),
      ['scripts/team-init.ts', cluster.superuserUrl('by_script')],
      { cwd: root, timeout: 60_000 },
    );
    expect(first.stdout).toContain('database by_script as postgres');
    for (const role of GROUP_ROLES)
      expect(first.stdout).toContain(`role ${role}: created (NOLOGIN group role)`);
    expect(first.stdout).toContain(`migration 1: applied (${PG_MIGRATIONS[0]?.description})`);
    const before = await cluster.asSuperuser(snapshot, 'by_script');
    expect(before.some((line) => line.includes('"journal_write"'))).toBe(true);

    const second = capture();
    expect(await teamInit([cluster.superuserUrl('by_script')], second.io)).toBe(0);
    expect(second.err).toEqual([]);
    expect(second.out).toEqual([
      'database by_script as postgres',
      ...GROUP_ROLES.map((role) => `role ${role}: already there`),
      // The newest version, not the count: numbers may leave a gap for another branch's.
      `schema: already at version ${Math.max(...PG_MIGRATIONS.map((m) => m.version))}, nothing to apply`,
    ]);
    expect(await cluster.asSuperuser(snapshot, 'by_script')).toEqual(before);
  });

  it('docs/team.sql makes the same schema, and running it again changes nothing', async () => {
    await cluster.asSuperuser((su) => applyTeamSchema(su), 'by_script').catch(() => undefined);
    const expected = await cluster.asSuperuser(snapshot, 'by_script');
    const sql = readFileSync(join(root, 'docs', 'team.sql'), 'utf8');
    await cluster.asSuperuser((su) => su.query(sql), 'by_sql');
    const made = await cluster.asSuperuser(snapshot, 'by_sql');
    expect(made).toEqual(expected);
    await cluster.asSuperuser((su) => su.query(sql), 'by_sql');
    expect(await cluster.asSuperuser(snapshot, 'by_sql')).toEqual(made);
  });

  it('rolls everything back when a migration fails, and says nothing was changed', async () => {
    await cluster.asSuperuser((su) => su.query('CREATE DATABASE broken'));
    const failing = [
      ...PG_MIGRATIONS,
      { version: 99, description: 'broken', sql: 'CREATE TABLE paydesk.x (' },
    ];
    const error = await cluster
      .asSuperuser((su) => applyTeamSchema(su, () => undefined, failing), 'broken')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    const { rows } = await cluster.asSuperuser(
      (su) => su.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'paydesk'`),
      'broken',
    );
    expect(rows).toEqual([]);
  });

  it('refuses an unreachable database with a clear line', async () => {
    const { err, io } = capture();
    expect(await teamInit([cluster.superuserUrl('no_such_db')], io)).toBe(1);
    expect(err.join('\n')).toMatch(
      /^Could not connect to 127\.0\.0\.1:\d+: database "no_such_db" does not exist/,
    );
  });
});
