// The team's shared profiles in paydesk.profiles: the public parts of a gateway connection only
// (name, environment, base URL, endpoint, merchant login, the key's fingerprint). There is no
// column for a control key or a private key, and nothing here takes one: secrets stay in each
// desk's keychain. Grants decide who may change a row (paydesk_admin); a refusal comes out as a
// StoreError 'NOT_ALLOWED' (errors.ts), which the service turns into a sentence.

import type pg from 'pg';

import type { ProfileInput } from '../profiles/profile';
import {
  PROFILE_INPUT_COLUMNS,
  profileOfRow,
  profileValues,
  type ProfileFields,
  type ProfileRow,
} from '../profiles/row';
import { toTeamError } from './errors';

/** keyFingerprint is the team's key; each desk holds the private key itself. */
export interface SharedProfile extends ProfileFields {
  /** The admin login that last changed it (the server's word). */
  updatedBy: string;
}

interface Row extends ProfileRow {
  updated_by: string;
}

const toShared = (r: Row): SharedProfile => ({ ...profileOfRow(r), updatedBy: r.updated_by });

const COLUMNS =
  'id, name, environment, base_url, endpoint_id, endpoint_kind, login, key_fingerprint, payout_four_eyes, created_at, updated_at, updated_by';

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
      `INSERT INTO paydesk.profiles (id, ${PROFILE_INPUT_COLUMNS.join(', ')})
       VALUES ($1, ${PROFILE_INPUT_COLUMNS.map((_, i) => `$${i + 2}`).join(', ')}) RETURNING ${COLUMNS}`,
      [id, ...profileValues(input)],
    );
    return row!;
  }

  /** The changed profile, or undefined when it is no longer there. */
  async update(id: string, input: ProfileInput): Promise<SharedProfile | undefined> {
    const [row] = await this.query(
      `UPDATE paydesk.profiles SET ${PROFILE_INPUT_COLUMNS.map((c, i) => `${c} = $${i + 2}`).join(', ')}
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
