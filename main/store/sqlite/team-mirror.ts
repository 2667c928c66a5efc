// The desk's copy of its team's shared profiles, in its own SQLite `profiles` table, so every
// read of a profile (connections, screens, checks) stays the synchronous Profiles read it was.
// The team's PostgreSQL is the truth; this mirror is replaced from it at start, on demand and
// after an admin's change (main/services/team/profiles.ts). On a team (docs/team.md):
// - a shared profile is a row with team_role 'shared' and the shared id, the id the team journal
//   references; key_fingerprint stays this desk's own key, team_key_fingerprint is the team's;
// - the built-in Sandbox stays a local training profile, listed as on a desk of its own;
// - every other local profile is set aside (team_role 'set-aside'): kept with its journal and
//   keychain entries, not listed; team_profile_id names the shared profile with the same gateway
//   identity (base URL, endpoint id, login), if there is one;
// - a local profile whose name a shared one takes is renamed "<name> (this desk)" (desk_name
//   keeps the name it had).
// Leaving the team is joining undone: the desk's own profiles are listed again under their own
// names, and the team's copies (team_copy) are set aside under parked names, kept with whatever
// keys this desk holds for them, shown by name in Settings, and taken up again if the desk
// rejoins. Nothing the desk had is lost, and no team profile stays behind as an editable local
// one that nobody would keep in step with the team.

import type { Db } from './database';
import type { SharedProfile } from '../postgres/profiles';
import type { ProfileRow } from '../profiles/row';

export interface TeamInfo {
  role: 'shared' | 'set-aside' | null;
  /** The team's key for a shared profile. */
  teamKeyFingerprint: string | null;
  /** The admin login that last changed the shared profile. */
  updatedBy: string | null;
  /** For a set-aside local profile: the shared profile with its gateway identity. */
  teamProfileId: string | null;
}

export interface SetAsideProfile {
  id: string;
  name: string;
  baseUrl: string;
  endpointId: string;
  login: string;
  teamProfileId: string | null;
}

/** What leaving the team did: the desk's own profiles back, the team's copies set aside. */
export interface LeaveReport {
  restored: string[];
  keptFromTeam: string[];
}

export interface MirrorReport {
  shared: number;
  setAside: number;
  /** Shared profiles gone from the team whose mirror was removed; their secrets may go too. */
  removed: string[];
  renamed: { id: string; from: string; to: string }[];
}

/** A gateway identity: the same merchant account whatever a profile is called. */
export const identityOf = (p: { baseUrl: string; endpointId: string; login: string }): string =>
  `${p.baseUrl.replace(/\/+$/, '').toLowerCase()}|${p.endpointId}|${p.login}`;

/** A desk's profile row as the mirror reads it: the gateway identity, and where it stands. */
export interface LocalRow extends Pick<
  ProfileRow,
  'id' | 'name' | 'base_url' | 'endpoint_id' | 'login'
> {
  embedded: number;
  team_role: 'shared' | 'set-aside' | null;
  team_profile_id: string | null;
}

export class TeamMirror {
  constructor(private readonly db: Db) {}

  info(id: string): TeamInfo | undefined {
    const row = this.db
      .prepare(
        'SELECT team_role, team_key_fingerprint, team_updated_by, team_profile_id FROM profiles WHERE id = ?',
      )
      .get(id) as
      | {
          team_role: TeamInfo['role'];
          team_key_fingerprint: string | null;
          team_updated_by: string | null;
          team_profile_id: string | null;
        }
      | undefined;
    return row
      ? {
          role: row.team_role,
          teamKeyFingerprint: row.team_key_fingerprint,
          updatedBy: row.team_updated_by,
          teamProfileId: row.team_profile_id,
        }
      : undefined;
  }

  /** Whether the profile is the desk's copy of a team's shared profile, not one of its own. */
  isTeamCopy(id: string): boolean {
    return (
      this.db.prepare('SELECT 1 FROM profiles WHERE id = ? AND team_copy = 1').get(id) !== undefined
    );
  }

  /** Local profiles not listed while the desk is on a team. */
  setAside(): SetAsideProfile[] {
    return (
      this.db
        .prepare(`SELECT * FROM profiles WHERE team_role = 'set-aside' ORDER BY name`)
        .all() as LocalRow[]
    ).map((r) => ({
      id: r.id,
      name: r.name,
      baseUrl: r.base_url,
      endpointId: r.endpoint_id,
      login: r.login,
      teamProfileId: r.team_profile_id,
    }));
  }

  /** Makes the mirror exactly the team's `shared` profiles, in one transaction. */
  replace(shared: readonly SharedProfile[]): MirrorReport {
    const report: MirrorReport = { shared: shared.length, setAside: 0, removed: [], renamed: [] };
    this.db.transaction(() => {
      const ids = new Set(shared.map((s) => s.id));
      const byIdentity = new Map(shared.map((s) => [identityOf(s), s.id]));
      // Names move between shared profiles (a swap): park the mirrors' names first.
      this.db.prepare(`UPDATE profiles SET name = '~' || id WHERE team_role = 'shared'`).run();
      for (const row of this.db.prepare('SELECT * FROM profiles').all() as LocalRow[]) {
        if (row.team_role === 'shared' && !ids.has(row.id)) this.dropMirror(row.id, report);
        else if (row.team_role !== 'shared' && !ids.has(row.id) && row.embedded === 0) {
          const match =
            byIdentity.get(
              identityOf({ baseUrl: row.base_url, endpointId: row.endpoint_id, login: row.login }),
            ) ?? null;
          this.db
            .prepare(
              `UPDATE profiles SET team_role = 'set-aside', team_profile_id = ? WHERE id = ?`,
            )
            .run(match, row.id);
        }
      }
      for (const profile of shared) this.upsertRow(profile, report);
      report.setAside = this.setAside().length;
    })();
    return report;
  }

  /** One shared profile changed by this desk's admin: the mirror follows at once. */
  upsert(profile: SharedProfile): void {
    const report: MirrorReport = { shared: 1, setAside: 0, removed: [], renamed: [] };
    this.db.transaction(() => this.upsertRow(profile, report))();
  }

  /** The shared profile is gone from the team. */
  drop(id: string): void {
    const report: MirrorReport = { shared: 0, setAside: 0, removed: [], renamed: [] };
    this.db.transaction(() => this.dropMirror(id, report))();
  }

  /** Whether anything of a team is still in this desk's profiles (a start after leaving). */
  hasTeamRows(): boolean {
    return (
      this.db
        .prepare(
          `SELECT 1 FROM profiles WHERE (team_copy = 1 AND team_role = 'shared') OR (team_copy = 0 AND team_role IS NOT NULL) LIMIT 1`,
        )
        .get() !== undefined
    );
  }

  /**
   * Leaving the team: the desk's own profiles come back under the names they had; the team's
   * copies are set aside under parked names (team_name keeps theirs), with this desk's keys for
   * them untouched, until the desk joins again.
   */
  leave(): LeaveReport {
    return this.db.transaction((): LeaveReport => {
      this.db
        .prepare(
          `UPDATE profiles SET team_name = name, name = '~' || id, team_role = 'set-aside', team_profile_id = NULL
            WHERE team_copy = 1 AND team_role = 'shared'`,
        )
        .run();
      const own = this.db
        .prepare(
          `SELECT id, name, desk_name FROM profiles WHERE team_copy = 0 AND team_role IS NOT NULL`,
        )
        .all() as { id: string; name: string; desk_name: string | null }[];
      const taken = this.db.prepare(
        'SELECT 1 FROM profiles WHERE name = ? COLLATE NOCASE AND id <> ?',
      );
      const restore = this.db.prepare(
        `UPDATE profiles SET team_role = NULL, team_profile_id = NULL, team_key_fingerprint = NULL,
           team_updated_by = NULL, name = ?, desk_name = NULL WHERE id = ?`,
      );
      const restored: string[] = [];
      for (const row of own) {
        const name = row.desk_name && !taken.get(row.desk_name, row.id) ? row.desk_name : row.name;
        restore.run(name, row.id);
        restored.push(name);
      }
      return { restored: restored.sort(), keptFromTeam: this.keptFromTeam() };
    })();
  }

  /** The team's copies set aside on this desk (after leaving, or removed by the team), by name. */
  keptFromTeam(): string[] {
    return (
      this.db
        .prepare(
          `SELECT coalesce(team_name, name) AS name FROM profiles
            WHERE team_copy = 1 AND team_role = 'set-aside' ORDER BY 1`,
        )
        .all() as { name: string }[]
    ).map((r) => r.name);
  }

  private upsertRow(profile: SharedProfile, report: MirrorReport): void {
    this.freeName(profile, report);
    this.db
      .prepare(
        `INSERT INTO profiles (id, name, environment, base_url, endpoint_id, endpoint_kind, login,
           key_fingerprint, payout_four_eyes, embedded, created_at, updated_at, team_role,
           team_key_fingerprint, team_updated_by, team_copy)
         VALUES (@id, @name, @environment, @baseUrl, @endpointId, @endpointKind, @login, NULL,
           @payoutFourEyes, 0, @createdAt, @updatedAt, 'shared', @keyFingerprint, @updatedBy, 1)
         ON CONFLICT (id) DO UPDATE SET name = excluded.name, environment = excluded.environment,
           base_url = excluded.base_url, endpoint_id = excluded.endpoint_id,
           endpoint_kind = excluded.endpoint_kind, login = excluded.login,
           payout_four_eyes = excluded.payout_four_eyes, updated_at = excluded.updated_at, team_role = 'shared', team_profile_id = NULL,
           team_key_fingerprint = excluded.team_key_fingerprint,
           team_updated_by = excluded.team_updated_by, team_name = NULL`,
      )
      .run({ ...profile, payoutFourEyes: profile.payoutFourEyes ? 1 : 0 });
  }

  /** Renames a local profile (or a parked mirror) holding the shared profile's name. */
  private freeName(profile: SharedProfile, report: MirrorReport): void {
    const holder = this.db
      .prepare('SELECT id, name FROM profiles WHERE name = ? COLLATE NOCASE AND id <> ?')
      .get(profile.name, profile.id) as { id: string; name: string } | undefined;
    if (!holder) return;
    for (let n = 1; n < 1000; n++) {
      const to = `${holder.name} (this desk${n === 1 ? '' : ` ${n}`})`;
      if (this.db.prepare('SELECT 1 FROM profiles WHERE name = ? COLLATE NOCASE').get(to)) continue;
      // The desk's own profile remembers its name, given back when the desk leaves the team.
      this.db
        .prepare(
          `UPDATE profiles SET name = ?,
             desk_name = CASE WHEN team_copy = 0 THEN coalesce(desk_name, name) ELSE desk_name END
           WHERE id = ?`,
        )
        .run(to, holder.id);
      report.renamed.push({ id: holder.id, from: holder.name, to });
      return;
    }
  }

  private dropMirror(id: string, report: MirrorReport): void {
    try {
      this.db.prepare('DELETE FROM profiles WHERE id = ?').run(id);
      report.removed.push(id);
    } catch {
      // Something of this desk (a batch) still names it: kept, not listed.
      this.db
        .prepare(
          `UPDATE profiles SET team_role = 'set-aside', team_profile_id = NULL, name = '(removed) ' || id WHERE id = ?`,
        )
        .run(id);
    }
  }
}
