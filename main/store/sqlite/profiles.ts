// Connection profiles: who Paydesk connects as. Secrets are not here: the control key and the
// private key are in the OS keychain under the profile's id (main/secrets/).

import { randomUUID } from 'node:crypto';

import type Database from 'better-sqlite3';

import {
  ProfileError,
  validateProfileInput,
  type Environment,
  type KeyHistoryEntry,
  type Profile,
  type ProfileInput,
} from '../profiles/profile';
import { checkKeyEnvironment } from '../../keys/environment';
import { requireWritable, type Db } from './database';
import {
  PROFILE_INPUT_COLUMNS,
  profileOfRow,
  profileValues,
  type ProfileRow,
} from '../profiles/row';

interface Row extends ProfileRow {
  embedded: number;
}

/** The columns of a person's input, in profileValues' order: listed, and each set. */
const INPUT_COLUMNS = PROFILE_INPUT_COLUMNS.join(', ');
const INPUT_COLUMNS_SET = PROFILE_INPUT_COLUMNS.map((c) => `${c} = ?`).join(', ');

const toProfile = (r: Row): Profile => ({ ...profileOfRow(r), embedded: r.embedded === 1 });

export class Profiles {
  constructor(
    private readonly db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Throws a typed StoreError when the app runs read-only (see openStore). */
  requireWritable(action: string): void {
    requireWritable(this.db, action);
  }

  /** The profiles to work with: on a team, the shared ones and the Sandbox (team-mirror.ts). */
  list(): Profile[] {
    return (
      this.db
        .prepare(`SELECT * FROM profiles WHERE team_role IS NOT 'set-aside' ORDER BY name`)
        .all() as Row[]
    ).map(toProfile);
  }

  /** Compiled once: every operation reads its profile. */
  private byId?: Database.Statement;

  get(id: string): Profile | undefined {
    this.byId ??= this.db.prepare('SELECT * FROM profiles WHERE id = ?');
    const row = this.byId.get(id) as Row | undefined;
    return row ? toProfile(row) : undefined;
  }

  /**
   * The name a person knows the profile by, for the journal's list, detail and export: its own
   * name, or for a team's copy set aside after leaving the team (named "(removed) <id>") the
   * team's name for it. Undefined when this desk has no such profile (the journal keeps the id).
   */
  nameOf(id: string): string | undefined {
    this.nameById ??= this.db.prepare(
      'SELECT name, team_name, team_role FROM profiles WHERE id = ?',
    );
    const row = this.nameById.get(id) as
      { name: string; team_name: string | null; team_role: string | null } | undefined;
    if (!row) return undefined;
    return row.team_role === 'set-aside' && row.team_name && row.name.startsWith('(removed) ')
      ? `${row.team_name} (removed)`
      : row.name;
  }
  private nameById?: Database.Statement;

  require(id: string): Profile {
    const profile = this.get(id);
    if (!profile)
      throw new ProfileError(`There is no profile with id ${id}; it may have been removed.`);
    return profile;
  }

  create(input: ProfileInput, options: { embedded?: boolean } = {}): Profile {
    const clean = validateProfileInput(input);
    const id = randomUUID();
    const at = this.now().toISOString();
    this.guardUniqueName(clean.name);
    this.db
      .prepare(
        `INSERT INTO profiles (id, ${INPUT_COLUMNS}, embedded, created_at, updated_at)
         VALUES (?, ${PROFILE_INPUT_COLUMNS.map(() => '?').join(', ')}, ?, ?, ?)`,
      )
      .run(id, ...profileValues(clean), options.embedded ? 1 : 0, at, at);
    return this.require(id);
  }

  update(id: string, input: ProfileInput): Profile {
    const current = this.require(id);
    const clean = validateProfileInput(input);
    if (clean.name.toLowerCase() !== current.name.toLowerCase()) this.guardUniqueName(clean.name);
    if (clean.environment !== current.environment && current.keyFingerprint) {
      throw new ProfileError(
        'This profile has a signing key, and a key pair belongs to one environment. Rotate to a new key before changing the environment.',
        'environment',
      );
    }
    this.db
      .prepare(`UPDATE profiles SET ${INPUT_COLUMNS_SET}, updated_at = ? WHERE id = ?`)
      .run(...profileValues(clean), this.now().toISOString(), id);
    return this.require(id);
  }

  /** Points the embedded sandbox's profile at the port the sandbox got this time. */
  setBaseUrl(id: string, baseUrl: string): Profile {
    const profile = this.require(id);
    this.update(id, { ...profile, baseUrl });
    return this.require(id);
  }

  /** Removes the profile and its key history; the journal keeps its entries (FK refuses). */
  remove(id: string): void {
    this.require(id);
    const used = this.db
      .prepare('SELECT COUNT(*) AS n FROM journal WHERE profile_id = ?')
      .get(id) as { n: number };
    if (used.n > 0) {
      throw new ProfileError(
        `This profile has ${used.n} journal entries, which are kept for the record; it cannot be removed.`,
      );
    }
    this.db.prepare('DELETE FROM profiles WHERE id = ?').run(id);
  }

  /**
   * Throws when the key may not be attached to this profile: a key pair belongs to one
   * environment, so the same key on a production and a test profile is refused.
   */
  checkKey(id: string, fingerprint: string): Profile {
    const profile = this.require(id);
    const attachments = (
      this.db
        .prepare(
          `SELECT k.profile_id, p.name, k.environment, k.fingerprint, k.retired_at
           FROM profile_keys k JOIN profiles p ON p.id = k.profile_id`,
        )
        .all() as {
        profile_id: string;
        name: string;
        environment: Environment;
        fingerprint: string;
        retired_at: string | null;
      }[]
    ).map((r) => ({
      profileId: r.profile_id,
      profileName: r.name,
      environment: r.environment,
      fingerprint: r.fingerprint,
      retiredAt: r.retired_at,
    }));
    const decision = checkKeyEnvironment(fingerprint, profile, attachments);
    if (!decision.allowed) throw new ProfileError(decision.reason, 'key');
    return profile;
  }

  /** Attaches a key by its fingerprint (after checkKey's rule); the previous one stays in the history. */
  attachKey(id: string, fingerprint: string): Profile {
    const profile = this.checkKey(id, fingerprint);
    const at = this.now().toISOString();
    this.db.transaction(() => {
      this.db
        .prepare(
          'UPDATE profile_keys SET retired_at = ? WHERE profile_id = ? AND retired_at IS NULL',
        )
        .run(at, id);
      this.db
        .prepare(
          `INSERT INTO profile_keys (profile_id, fingerprint, environment, attached_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (profile_id, fingerprint) DO UPDATE SET retired_at = NULL, attached_at = excluded.attached_at`,
        )
        .run(id, fingerprint, profile.environment, at);
      this.db
        .prepare('UPDATE profiles SET key_fingerprint = ?, updated_at = ? WHERE id = ?')
        .run(fingerprint, at, id);
    })();
    return this.require(id);
  }

  keyHistory(id: string): KeyHistoryEntry[] {
    const rows = this.db
      .prepare(
        'SELECT fingerprint, environment, attached_at, retired_at FROM profile_keys WHERE profile_id = ? ORDER BY attached_at DESC, rowid DESC',
      )
      .all(id) as {
      fingerprint: string;
      environment: Environment;
      attached_at: string;
      retired_at: string | null;
    }[];
    return rows.map((r) => ({
      fingerprint: r.fingerprint,
      environment: r.environment,
      attachedAt: r.attached_at,
      retiredAt: r.retired_at,
    }));
  }

  private guardUniqueName(name: string): void {
    const taken = this.db.prepare('SELECT 1 FROM profiles WHERE name = ? COLLATE NOCASE').get(name);
    if (taken)
      throw new ProfileError(
        `A profile named "${name}" exists already; choose another name.`,
        'name',
      );
  }
}
