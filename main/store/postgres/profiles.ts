// The team's shared profiles in paydesk.profiles: the public parts of a gateway connection only
// (name, environment, base URL, endpoint, merchant login, the key's fingerprint). There is no
// column for a control key or a private key, and nothing here takes one: secrets stay in each
// desk's keychain. Grants decide who may change a row (paydesk_admin); a refusal comes out as a
// StoreError 'NOT_ALLOWED' (errors.ts), which the service turns into a sentence.

import type pg from 'pg';

import type { Environment, ProfileInput } from '../profiles';
import { toTeamError } from './errors';

export interface SharedProfile {
  id: string;
  name: string;
  environment: Environment;
  baseUrl: string;
  endpointId: string;
  endpointKind: 'endpoint' | 'group';
  login: string;
  /** The team's key, by fingerprint; each desk holds the private key itself. */
  keyFingerprint: string | null;
  createdAt: string;
  updatedAt: string;
  /** The admin login that last changed it (the server's word). */
  updatedBy: string;
}

interface Row {
  id: string;
  name: string;
  environment: Environment;
  base_url: string;
  endpoint_id: string;
  endpoint_kind: 'endpoint' | 'group';
  login: string;
  key_fingerprint: string | null;
  created_at: Date;
  updated_at: Date;
  updated_by: string;
}

const toShared = (r: Row): SharedProfile => ({
  id: r.id,
  name: r.name,
  environment: r.environment,
  baseUrl: r.base_url,
  endpointId: r.endpoint_id,
  endpointKind: r.endpoint_kind,
  login: r.login,
  keyFingerprint: r.key_fingerprint,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
  updatedBy: r.updated_by,
});

const COLUMNS =
  'id, name, environment, base_url, endpoint_id, endpoint_kind, login, key_fingerprint, created_at, updated_at, updated_by';

export class PgProfiles {
  constructor(
    private readonly pool: pg.Pool,
    /** The server, for messages ("PostgreSQL at db.example.com:5432"). */
    private readonly where: string,
  ) {}

  private async query(text: string, values: unknown[] = []): Promise<SharedProfile[]> {
    try {
      const { rows } = await this.pool.query<Row>(text, values);
      return rows.map(toShared);
    } catch (error) {
      throw toTeamError(error, this.where);
    }
  }

  list(): Promise<SharedProfile[]> {
    return this.query(`SELECT ${COLUMNS} FROM paydesk.profiles ORDER BY lower(name)`);
  }

  async create(id: string, input: ProfileInput): Promise<SharedProfile> {
    const [row] = await this.query(
      `INSERT INTO paydesk.profiles (id, name, environment, base_url, endpoint_id, endpoint_kind, login)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [id, ...profileValues(input)],
    );
    return row!;
  }

  /** The changed profile, or undefined when it is no longer there. */
  async update(id: string, input: ProfileInput): Promise<SharedProfile | undefined> {
    const [row] = await this.query(
      `UPDATE paydesk.profiles SET name = $2, environment = $3, base_url = $4, endpoint_id = $5,
         endpoint_kind = $6, login = $7
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, ...profileValues(input)],
    );
    return row;
  }

  /** Records the team's key for the profile (an admin's rotation). */
  async setKeyFingerprint(id: string, fingerprint: string): Promise<SharedProfile | undefined> {
    const [row] = await this.query(
      `UPDATE paydesk.profiles SET key_fingerprint = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, fingerprint],
    );
    return row;
  }

  /** Removes a shared profile; the database refuses one the journal references. */
  async remove(id: string): Promise<void> {
    await this.query(`DELETE FROM paydesk.profiles WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
  }
}

/** A profile's columns after its id, in the order INSERT and UPDATE name them ($2..$7). */
function profileValues(input: ProfileInput): string[] {
  return [
    input.name,
    input.environment,
    input.baseUrl,
    input.endpointId,
    input.endpointKind ?? 'endpoint',
    input.login,
  ];
}
