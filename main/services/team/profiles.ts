// Shared profiles with private secrets (docs/team.md, "Shared profiles"). On a team the profiles
// live in the team's PostgreSQL (paydesk.profiles); this desk keeps a mirror of them in its own
// SQLite (team-mirror.ts) so every read stays synchronous, and keeps their control keys and
// private keys in its own keychain, never in the database. An admin's change goes to PostgreSQL
// first, then to the mirror; anyone else's is refused by the database's grants and said plainly.
// Each desk compares its own key with the team's key (by fingerprint) and says when they differ.

import { randomUUID } from 'node:crypto';

import type pg from 'pg';

import type { SecretStore } from '../../secrets';
import { StoreError } from '../../store/errors';
import { PgProfiles } from '../../store/postgres/profiles';
import { type Profiles } from '../../store/sqlite/profiles';
import {
  ProfileError,
  validateProfileInput,
  type Profile,
  type ProfileInput,
} from '../../store/profiles/profile';
import { TeamMirror, type LeaveReport, type MirrorReport } from '../../store/sqlite/team-mirror';
import type { Db } from '../../store/sqlite/database';

/** What a desk needs of its open team journal (openTeamJournal's result). */
export interface TeamLink {
  pool: pg.Pool;
  login: string;
  /** The login's Paydesk groups when the desk joined; `whoAmI` brings them up to date. */
  roles: string[];
  desk: string;
  where: string;
  /**
   * Who the login is now, as the database says (the session's own check): read at every
   * refresh (but a join's whose link is fresh), so a desk that started while the database was away, or whose person was moved to
   * another group, learns its groups without a restart.
   */
  whoAmI?: () => Promise<{ reachable: boolean; login: string; groups: string[] }>;
}

export type TeamKeyState = 'same' | 'differs' | 'missing-here' | 'team-has-none' | 'none';

/** What the Profiles and Keys screens show of a shared profile. */
export interface TeamProfileView {
  /** The person's login may change it (paydesk_admin); the database decides anyway. */
  canEdit: boolean;
  updatedBy: string | null;
  teamFingerprint: string | null;
  deskFingerprint: string | null;
  keyState: TeamKeyState;
  /** What to do when the desk's key is not the team's; null when nothing is wrong. */
  keyMessage: string | null;
}

/** How long the mirror is trusted before a list reads the team's profiles again. */
const STALE_MS = 30_000;

export class TeamProfiles {
  private link: { team: TeamLink; store: PgProfiles } | undefined;
  private refreshedAt = 0;
  private refreshing: Promise<void> | undefined;
  readonly mirror: TeamMirror;

  constructor(
    db: Db,
    private readonly profiles: Profiles,
    private readonly secrets: SecretStore,
    private readonly forget: (profileId: string) => void = () => undefined,
    private readonly now: () => number = Date.now,
  ) {
    this.mirror = new TeamMirror(db);
  }

  get active(): boolean {
    return this.link !== undefined;
  }

  get team(): TeamLink | undefined {
    return this.link?.team;
  }

  get isAdmin(): boolean {
    return this.link?.team.roles.includes('paydesk_admin') ?? false;
  }

  isShared(profileId: string): boolean {
    return this.active && this.mirror.info(profileId)?.role === 'shared';
  }

  /**
   * The desk is on a team from now on: the team's profiles replace the local ones in lists. When
   * the database is away this throws, but the desk stays on the team and works from its last
   * copy; the next list read after 30 s (refreshIfStale) or `refresh` tries again. `whoKnown`:
   * the link's login and groups are what the database said a moment ago (start's check).
   */
  async join(team: TeamLink, options: { whoKnown?: boolean } = {}): Promise<MirrorReport> {
    this.link = { team, store: new PgProfiles(team.pool, team.where) };
    // A link whose login and groups the database has just given needs no whoAmI now.
    return this.refresh({ askWho: !options.whoKnown });
  }

  /** Back to a single desk: its own profiles listed again, the team's copies set aside. */
  leave(): LeaveReport {
    this.link = undefined;
    return this.mirror.leave();
  }

  /** Reads the team's profiles into the mirror; a local profile with the same gateway identity lends its secrets. */
  async refresh(options: { askWho?: boolean } = {}): Promise<MirrorReport> {
    const link = this.requireLink();
    const report = this.mirror.replace(await link.store.list());
    const me =
      options.askWho === false ? undefined : await link.team.whoAmI?.().catch(() => undefined);
    if (me?.reachable && this.link === link)
      this.link = { ...link, team: { ...link.team, login: me.login, roles: me.groups } };
    this.refreshedAt = this.now();
    for (const id of report.removed) {
      this.forget(id);
      await this.secrets.delete(id, 'control-key').catch(() => false);
      await this.secrets.delete(id, 'rsa-private-key').catch(() => false);
    }
    await this.adoptLocalSecrets();
    return report;
  }

  /**
   * Refreshes when the mirror is older than STALE_MS, waiting at most `waitMs` for it: a list
   * never hangs on a database that is away (a connection attempt may take its whole timeout);
   * it shows the last copy, and the refresh lands for the next read. One attempt per period.
   */
  async refreshIfStale(waitMs = 1_500): Promise<void> {
    if (!this.active || this.now() - this.refreshedAt < STALE_MS) return;
    this.refreshedAt = this.now();
    this.refreshing ??= this.refresh()
      .then(() => undefined)
      .catch(() => undefined)
      .finally(() => (this.refreshing = undefined));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      this.refreshing,
      new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs).unref())),
    ]);
    clearTimeout(timer);
  }

  viewOf(profile: Profile, hasPrivateKey: boolean): TeamProfileView | undefined {
    if (!this.active) return undefined;
    const info = this.mirror.info(profile.id);
    if (info?.role !== 'shared') return undefined;
    const team = info.teamKeyFingerprint;
    const desk = hasPrivateKey ? profile.keyFingerprint : null;
    const keyState: TeamKeyState =
      team === null
        ? desk === null
          ? 'none'
          : 'team-has-none'
        : desk === null
          ? 'missing-here'
          : desk === team
            ? 'same'
            : 'differs';
    return {
      canEdit: this.isAdmin,
      updatedBy: info.updatedBy,
      teamFingerprint: team,
      deskFingerprint: desk,
      keyState,
      keyMessage: keyMessage(profile.name, keyState, this.isAdmin),
    };
  }

  async create(input: ProfileInput): Promise<Profile> {
    const { store } = this.requireLink();
    const clean = validateProfileInput(input);
    const shared = await this.guard(store.create(randomUUID(), clean), clean, 'add');
    this.mirror.upsert(shared);
    return this.profiles.require(shared.id);
  }

  /** Changes a shared profile; unchanged fields go nowhere (a desk may set its own control key). */
  async update(id: string, input: ProfileInput): Promise<Profile> {
    const { store } = this.requireLink();
    const current = this.profiles.require(id);
    const clean = validateProfileInput(input);
    const same =
      clean.name === current.name &&
      clean.environment === current.environment &&
      clean.baseUrl === current.baseUrl &&
      clean.endpointId === current.endpointId &&
      (clean.endpointKind ?? 'endpoint') === current.endpointKind &&
      clean.login === current.login &&
      (clean.payoutFourEyes ?? false) === current.payoutFourEyes;
    if (same) return current;
    const info = this.mirror.info(id);
    if (clean.environment !== current.environment && info?.teamKeyFingerprint)
      throw new ProfileError(
        "This shared profile has the team's signing key, and a key pair belongs to one environment. An admin rotates to a new key before changing the environment.",
        'environment',
      );
    const shared = await this.guard(store.update(id, clean), current, 'change');
    if (!shared) {
      await this.refresh();
      throw new ProfileError(
        `The team's profile "${current.name}" was removed by another admin; the list is up to date now.`,
      );
    }
    this.mirror.upsert(shared);
    this.forget(id);
    return this.profiles.require(id);
  }

  async remove(id: string): Promise<void> {
    const { store } = this.requireLink();
    const current = this.profiles.require(id);
    await this.guard(store.remove(id), current, 'remove');
    this.mirror.drop(id);
  }

  /**
   * Before a key is attached to a shared profile on this desk: only an admin changes the team's
   * key; anyone else may only import the team's own key (the way to mend a differing desk).
   * `fingerprint` undefined: a key is about to be generated.
   */
  checkKey(profileId: string, fingerprint: string | undefined): void {
    if (!this.isShared(profileId) || this.isAdmin) return;
    const team = this.mirror.info(profileId)?.teamKeyFingerprint ?? null;
    const login = this.link?.team.login ?? '';
    if (fingerprint === undefined)
      throw new ProfileError(
        `On a team only an admin makes a new key for a shared profile: it changes the key of every desk. Your login ${login} is not an admin. Import the team's key on this desk instead (an admin gives you the file).`,
        'key',
      );
    if (team !== null && fingerprint !== team)
      throw new ProfileError(
        `This key (${fingerprint}) is not the team's key for this profile (${team}). Import the team's key; only an admin changes which key the team uses.`,
        'key',
      );
  }

  /** An admin's new key on a shared profile becomes the team's key. */
  async keyAttached(profile: Profile): Promise<void> {
    if (!this.isShared(profile.id) || !this.isAdmin || !profile.keyFingerprint) return;
    const { store } = this.requireLink();
    try {
      const shared = await store.setKeyFingerprint(profile.id, profile.keyFingerprint);
      if (shared) this.mirror.upsert(shared);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new ProfileError(
        `The new key is on this desk, but the team's key for "${profile.name}" was not updated (${why}). Until it is, this desk shows its key as different from the team's. Import or generate again once the team's database answers.`,
        'key',
      );
    }
  }

  private requireLink(): { team: TeamLink; store: PgProfiles } {
    if (!this.link) throw new ProfileError('This desk is not on a team; its profiles are local.');
    return this.link;
  }

  /** The database's refusal as a sentence: who may change shared profiles, a taken name. */
  private async guard<T>(
    work: Promise<T>,
    profile: { name: string },
    verb: 'add' | 'change' | 'remove',
  ): Promise<T> {
    try {
      return await work;
    } catch (error) {
      if (!(error instanceof StoreError)) throw error;
      const team = this.requireLink().team;
      if (error.sqliteCode === 'PG_42501') {
        const groups = team.roles.length > 0 ? team.roles.join(', ') : 'no Paydesk group';
        throw new ProfileError(
          `Only a Paydesk admin may ${verb} the team's shared profiles; the team's database refused it for your login ${team.login} (${groups}). Ask an admin of your team to ${verb} "${profile.name}".`,
        );
      }
      if (error.sqliteCode === 'PG_23505')
        throw new ProfileError(
          `The team has a profile named "${profile.name}" already; choose another name.`,
          'name',
        );
      if (error.sqliteCode === 'PG_23503')
        throw new ProfileError(
          `"${profile.name}" has entries in the team journal, which are kept for the record; it cannot be removed.`,
        );
      throw error;
    }
  }

  /**
   * A local profile set aside for a shared one with the same gateway identity lends that one its
   * control key and private key, when this desk has none for it yet: the person keeps working
   * with the secrets already entered on this desk.
   */
  private async adoptLocalSecrets(): Promise<void> {
    for (const local of this.mirror.setAside()) {
      if (!local.teamProfileId) continue;
      const sharedId = local.teamProfileId;
      const controlKey = await this.secrets.get(local.id, 'control-key');
      if (controlKey && !(await this.secrets.get(sharedId, 'control-key')))
        await this.secrets.set(sharedId, 'control-key', controlKey);
      const privateKey = await this.secrets.get(local.id, 'rsa-private-key');
      const fingerprint = this.profiles.get(local.id)?.keyFingerprint;
      if (privateKey && fingerprint && !(await this.secrets.get(sharedId, 'rsa-private-key'))) {
        try {
          this.profiles.checkKey(sharedId, fingerprint);
        } catch {
          continue; // another environment's key: not lent
        }
        await this.secrets.set(sharedId, 'rsa-private-key', privateKey);
        this.profiles.attachKey(sharedId, fingerprint);
      }
    }
  }
}

function keyMessage(name: string, state: TeamKeyState, isAdmin: boolean): string | null {
  // The two fingerprints travel beside the sentence (teamFingerprint, deskFingerprint), so a
  // screen can set them out to be read aloud and compared.
  if (state === 'differs')
    return `This desk's key for "${name}" is not the team's key. Import the team's key on this desk (Keys → Import)${isAdmin ? '; or, if this desk holds the new key after a rotation, import it again here to make it the team’s key' : ', or, if this desk holds the new key after a rotation, ask an admin to make it the team’s key'}.`;
  if (state === 'missing-here')
    return `The team signs "${name}" with its key, and this desk has no private key for it. Import the team's key on this desk (Keys → Import; an admin gives you the file).`;
  if (state === 'team-has-none')
    return `The team has no key recorded for "${name}". ${isAdmin ? 'Import or generate the key here to record it as the team’s.' : 'An admin records the team’s key by importing or generating it on their desk.'}`;
  return null;
}
