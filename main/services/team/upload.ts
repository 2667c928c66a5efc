// The one-time upload of a desk's local (SQLite) journal to its team's journal (docs/team.md,
// "Uploading a desk's journal"). Only settled entries go, as they were (final or refused, with
// the desk's times and answers), each marked with this desk; the uploader's login becomes their
// operator (the database's word) and the desk's own operator is kept as "recorded on the desk
// as". It is safe to run again: what is there already is skipped and counted, so a second run,
// or a run after a crash mid-upload, finishes the job. It refuses, changing nothing, while the
// local journal has unsettled entries, or has entries of a profile the team does not share.

import type { Db } from '../../store/sqlite/database';
import { Journal } from '../../store/sqlite/journal';
import type { JournalEntry } from '../../store/journal/types';
import { IN_FLIGHT_SQL } from '../../store/journal/filter';
import { columnsOfEntry } from '../../store/journal/row';
import { uploadBatch, type UploadEntry } from '../../store/postgres/upload';
import { PgProfiles, type SharedProfile } from '../../store/postgres/profiles';
import { identityOf, type LocalRow } from '../../store/sqlite/team-mirror';
import { ServiceError } from '../errors';
import type { TeamProfiles } from './profiles';

export interface UploadPlanProfile {
  localId: string;
  name: string;
  entries: number;
  /** The shared profile its entries go to, or null when the team has none for it. */
  sharedId: string | null;
  sharedName: string | null;
  how: 'same-id' | 'same-gateway' | 'chosen' | null;
}

export interface UploadPlan {
  entries: number;
  /** Entries of the built-in Sandbox: training, they stay on this desk. */
  sandbox: number;
  unsettled: { clientOrderId: string; operation: string; state: string; createdAt: string }[];
  profiles: UploadPlanProfile[];
  lastUpload: { at: string; login: string; uploaded: number; present: number } | null;
}

export interface UploadReport {
  /** Entries written to the team's journal by this run. */
  uploaded: number;
  /** Entries found there already (an earlier run, or one cut short), skipped. */
  alreadyThere: number;
  sandbox: number;
  /** Action ids the team's journal holds for another entry: not uploaded. */
  clashes: string[];
  at: string;
  /** When this desk's journal was first uploaded completely, if before this run. */
  firstUploadAt: string | null;
}

export interface UploadOptions {
  /** Local profile id → shared profile id, for profiles the person maps themselves. */
  profileMap?: Record<string, string>;
  batchSize?: number;
  /** Told after each batch is in (a progress bar). */
  onBatch?: (done: number, total: number) => void | Promise<void>;
}

const LISTED = 10;

export class TeamUploadService {
  constructor(
    private readonly db: Db,
    private readonly team: TeamProfiles,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** What an upload would do, and what stands in its way; changes nothing. */
  async plan(profileMap: Record<string, string> = {}): Promise<UploadPlan> {
    const link = this.requireTeam();
    const shared = await new PgProfiles(link.pool, link.where).list();
    return this.planWith(shared, profileMap);
  }

  async uploadLocalJournal(options: UploadOptions = {}): Promise<UploadReport> {
    const link = this.requireTeam();
    const roles = link.roles;
    if (!roles.includes('paydesk_finance') && !roles.includes('paydesk_admin'))
      throw new ServiceError(
        'NOT_ALLOWED',
        `Only a finance or admin login uploads a desk's journal; your login ${link.login} is in ${roles.join(', ') || 'no Paydesk group'}. Ask someone in finance to upload it from this desk.`,
      );
    const shared = await new PgProfiles(link.pool, link.where).list();
    const plan = this.planWith(shared, options.profileMap ?? {});
    if (plan.unsettled.length > 0) throw unsettledError(plan.unsettled);
    const unmapped = plan.profiles.filter((p) => p.sharedId === null);
    if (unmapped.length > 0) throw unmappedError(unmapped);

    const target = new Map(plan.profiles.map((p) => [p.localId, p.sharedId!]));
    const rows = new Journal(this.db).ofProfiles([...target.keys()]);
    const firstUploadAt = this.firstUploadAt(link.where, link.desk);
    const report: UploadReport = {
      uploaded: 0,
      alreadyThere: 0,
      sandbox: plan.sandbox,
      clashes: [],
      at: '',
      firstUploadAt,
    };
    const size = Math.max(1, options.batchSize ?? 200);
    for (let start = 0; start < rows.length; start += size) {
      const batch = rows.slice(start, start + size).map((r) => toUpload(r, target));
      for (const { entry, outcome } of await uploadBatch(link.pool, link.where, link.desk, batch)) {
        if (outcome === 'uploaded') report.uploaded++;
        else if (outcome === 'present') report.alreadyThere++;
        else report.clashes.push(entry);
      }
      await options.onBatch?.(Math.min(start + size, rows.length), rows.length);
    }
    report.at = this.now().toISOString();
    this.db
      .prepare(
        `INSERT INTO team_uploads (team, login, desk, uploaded, present, sandbox, finished_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        link.where,
        link.login,
        link.desk,
        report.uploaded,
        report.alreadyThere,
        report.sandbox,
        report.at,
      );
    return report;
  }

  private requireTeam() {
    const link = this.team.team;
    if (!link)
      throw new ServiceError(
        'NOT_ALLOWED',
        "This desk is not on a team yet: set up Settings → Team journal first, then upload this desk's journal.",
      );
    return link;
  }

  private firstUploadAt(team: string, desk: string): string | null {
    const row = this.db
      .prepare('SELECT min(finished_at) AS at FROM team_uploads WHERE team = ? AND desk = ?')
      .get(team, desk) as { at: string | null };
    return row.at;
  }

  private planWith(
    shared: readonly SharedProfile[],
    profileMap: Record<string, string>,
  ): UploadPlan {
    const sharedById = new Map(shared.map((s) => [s.id, s]));
    const byIdentity = new Map(shared.map((s) => [identityOf(s), s]));
    const counts = this.db
      .prepare(
        `SELECT p.id, p.name, p.base_url, p.endpoint_id, p.login, p.embedded, count(*) AS n
         FROM journal j JOIN profiles p ON p.id = j.profile_id GROUP BY p.id ORDER BY p.name`,
      )
      .all() as (Omit<LocalRow, 'team_role' | 'team_profile_id'> & { n: number })[];
    const plan: UploadPlan = {
      entries: counts.reduce((sum, c) => sum + c.n, 0),
      sandbox: 0,
      unsettled: (
        this.db
          .prepare(
            `SELECT client_orderid, operation, state, created_at FROM journal j WHERE ${IN_FLIGHT_SQL}
             AND NOT EXISTS (SELECT 1 FROM profiles p WHERE p.id = j.profile_id AND p.embedded = 1)
             ORDER BY id`,
          )
          .all() as {
          client_orderid: string;
          operation: string;
          state: string;
          created_at: string;
        }[]
      ).map((r) => ({
        clientOrderId: r.client_orderid,
        operation: r.operation,
        state: r.state,
        createdAt: r.created_at,
      })),
      profiles: [],
      lastUpload: null,
    };
    for (const c of counts) {
      if (c.embedded === 1) {
        plan.sandbox += c.n;
        continue;
      }
      const chosen = profileMap[c.id] ? sharedById.get(profileMap[c.id]!) : undefined;
      const sameId = sharedById.get(c.id);
      const sameGateway = byIdentity.get(
        identityOf({ baseUrl: c.base_url, endpointId: c.endpoint_id, login: c.login }),
      );
      const match = chosen ?? sameId ?? sameGateway;
      plan.profiles.push({
        localId: c.id,
        name: c.name,
        entries: c.n,
        sharedId: match?.id ?? null,
        sharedName: match?.name ?? null,
        how: chosen ? 'chosen' : sameId ? 'same-id' : sameGateway ? 'same-gateway' : null,
      });
    }
    const last = this.db
      .prepare(
        'SELECT finished_at, login, uploaded, present FROM team_uploads ORDER BY id DESC LIMIT 1',
      )
      .get() as
      { finished_at: string; login: string; uploaded: number; present: number } | undefined;
    if (last)
      plan.lastUpload = {
        at: last.finished_at,
        login: last.login,
        uploaded: last.uploaded,
        present: last.present,
      };
    return plan;
  }
}

function toUpload(e: JournalEntry, target: Map<string, string>): UploadEntry {
  // Only settled entries are uploaded (plan refuses the rest).
  const state = e.state as UploadEntry['state'];
  return { ...columnsOfEntry(e), profile_id: target.get(e.profileId)!, state };
}

const more = (total: number) => (total > LISTED ? `, and ${total - LISTED} more` : '');

function unsettledError(unsettled: UploadPlan['unsettled']): ServiceError {
  const listed = unsettled
    .slice(0, LISTED)
    .map((u) => `${u.clientOrderId} (${u.operation}, ${u.state}, ${u.createdAt})`)
    .join('; ');
  return new ServiceError(
    'PENDING',
    `${unsettled.length} ${unsettled.length === 1 ? 'entry' : 'entries'} of this desk's journal ${unsettled.length === 1 ? 'is' : 'are'} not settled yet: ${listed}${more(unsettled.length)}. They must settle first (Journal: ask the gateway for their status, or settle by hand) so the team's journal gets each one as it ended; nothing was uploaded.`,
  );
}

function unmappedError(unmapped: UploadPlanProfile[]): ServiceError {
  const listed = unmapped
    .slice(0, LISTED)
    .map((p) => `"${p.name}" (${p.entries} ${p.entries === 1 ? 'entry' : 'entries'})`)
    .join(', ');
  return new ServiceError(
    'INPUT',
    `The team shares no profile for ${listed}${more(unmapped.length)}: no shared profile has the same base URL, endpoint id and merchant login. Ask an admin to add it as a shared profile, or choose which shared profile each one's entries belong to; nothing was uploaded.`,
  );
}
