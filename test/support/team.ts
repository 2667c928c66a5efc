// A team database on a throw-away cluster (test/support/postgres.ts): the schema applied as a
// DBA would (applyTeamSchema as the superuser), and one LOGIN role per person, each a member of
// one group role, connecting with their own password over TCP, as desks do.

import { randomBytes } from 'node:crypto';

import pg from 'pg';

import { applyTeamSchema } from '../../main/store/postgres/schema';
import type { GroupRole } from '../../main/store/postgres/migrations';
import type { PgCluster } from './postgres';

/** The people of the tests and their one group each. */
export const PEOPLE = {
  ann: 'paydesk_finance',
  bob: 'paydesk_finance',
  sam: 'paydesk_support',
  ada: 'paydesk_admin',
} as const satisfies Record<string, GroupRole>;
export type Person = keyof typeof PEOPLE;

export interface TeamDb {
  database: string;
  /** The person's connection URL (for a pool of their own). */
  urlOf(person: Person): string;
  /** A new connection as the person; closed by close(). */
  connect(person: Person, applicationName?: string): Promise<pg.Client>;
  /** A new connection as the superuser (the schema's owner); closed by close(). */
  owner(): Promise<pg.Client>;
  close(): Promise<void>;
}

/** Roles live in the cluster, so each cluster gets its people once. */
const passwordsByCluster = new WeakMap<PgCluster, Map<Person, string>>();

async function people(cluster: PgCluster): Promise<Map<Person, string>> {
  const known = passwordsByCluster.get(cluster);
  if (known) return known;
  const passwords = new Map<Person, string>();
  await cluster.asSuperuser(async (su) => {
    for (const [person, group] of Object.entries(PEOPLE) as [Person, GroupRole][]) {
      const password = randomBytes(12).toString('base64url');
      // What docs/team.md tells the DBA to run for a new person.
      await su.query(`CREATE ROLE ${person} LOGIN PASSWORD '${password}' IN ROLE ${group}`);
      passwords.set(person, password);
    }
  });
  passwordsByCluster.set(cluster, passwords);
  return passwords;
}

export async function createTeamDatabase(cluster: PgCluster, database: string): Promise<TeamDb> {
  await cluster.asSuperuser((su) => su.query(`CREATE DATABASE ${database}`));
  await cluster.asSuperuser((su) => applyTeamSchema(su), database);
  const passwords = await people(cluster);
  const clients: pg.Client[] = [];
  const open = async (config: pg.ClientConfig) => {
    const client = new pg.Client(config);
    // A backend ended on purpose (a desk "crashing") must not crash the test process.
    client.on('error', () => undefined);
    await client.connect();
    clients.push(client);
    return client;
  };
  return {
    database,
    urlOf: (person) => cluster.url(person, passwords.get(person) ?? '', database),
    connect: (person, applicationName) =>
      open({
        connectionString: cluster.url(person, passwords.get(person) ?? '', database),
        ...(applicationName ? { application_name: applicationName } : {}),
      }),
    owner: () => open({ connectionString: cluster.superuserUrl(database) }),
    async close() {
      await Promise.all(clients.splice(0).map((c) => c.end().catch(() => undefined)));
    },
  };
}

/** The error a call that must be refused threw (with its code, when it has one); fails if it went through. */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected a refusal, but the call went through');
}
/** The SQLSTATE of a refused query, or 'no error' when it went through. */
export async function refusal(query: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await query;
    return { code: 'no error', message: '' };
  } catch (error) {
    const e = error as { code?: string; message?: string };
    return { code: e.code ?? 'no code', message: e.message ?? '' };
  }
}
