// Reconciliation: for every journal entry of a date range and profile, and every order those
// entries act on, the gateway's `status` is asked again and every disagreement with the journal
// is listed (compare.ts). Nothing but `status` is ever sent, and nothing is settled here: an
// entry Paydesk still calls unsettled that the gateway now knows is listed with what the
// gateway says, for a person to settle by hand from the order or the journal.
//
// The run is planned whole before the first request (its lines stored in this desk's SQLite,
// migration 15, also on a team: each desk runs its own, reading the team's entries through the
// journal port). Lines are asked at the run's pace (pace.ts), answers are written a few at a
// time, and a run that was running when its process stopped is taken up again at the next
// start: only the lines not yet answered are asked about.

import { FILTER_TIME_HINT, localTimeWithOffset, parseFilterTime } from '../../../common/time';
import { toStoreError } from '../../store/errors';
import type { JournalEntry, JournalPort } from '../../store/journal/port';
import type { Db } from '../../store/sqlite/database';
import type { Profiles } from '../../store/sqlite/profiles';
import {
  ReconcileRuns,
  type Line,
  type LineResult,
  type NewLine,
  type Run,
} from '../../store/sqlite/reconcile-runs';
import type { Connections } from '../connection';
import { ServiceError } from '../errors';
import { ORDER_MAKING } from './compare';
import { DEFAULT_PACE, DEFAULT_RETRY, Pace, PACE_LIMITS, type RetryPolicy } from './pace';
import { readLine, RunStop, STOPPED } from './read-line';
import { reconcileCsv, reconcileHtml } from './report';
import { lineView, subjectOf, type LineView, type RunView, type Subject } from './view';

export type { LineView, RunProgress, RunView } from './view';

export interface NewRunInput {
  profileId: string;
  from: string;
  to: string;
  perSecond?: number;
  atOnce?: number;
}

export interface ReconcileOptions {
  operator: string;
  retry?: Partial<RetryPolicy>;
  /** How often answers are written when fewer than FLUSH_LINES wait (ms). */
  flushMs?: number;
}

/** How long a quit waits for the status requests under way. */
const CLOSE_GRACE_MS = 2_000;
/** Answers written in one transaction at most; a crash loses at most these (asked again). */
const FLUSH_LINES = 64;

interface Active {
  pace: Pace;
  /** Aborted by a quit: the requests under way are given up, their lines stay to do. */
  quit: AbortController;
  stop: 'pause' | 'close' | null;
  startedAt: number;
  doneAtStart: number;
  done: Promise<void>;
}

export class ReconcileService {
  private readonly runs: ReconcileRuns;
  private readonly active = new Map<number, Active>();
  private readonly retry: RetryPolicy;

  constructor(
    db: Db,
    private readonly journal: JournalPort,
    private readonly profiles: Profiles,
    private readonly connections: Pick<Connections, 'clientFor'>,
    private readonly options: ReconcileOptions,
  ) {
    this.runs = new ReconcileRuns(db);
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
  }

  /** Plans the run (every line stored) and starts it. */
  async create(input: NewRunInput): Promise<RunView> {
    const profile = this.profiles.get(input.profileId);
    if (!profile)
      throw new ServiceError('NOT_FOUND', 'Choose a profile to reconcile.', 'profileId');
    this.refuseSecondRun(input.profileId);
    const perSecond = input.perSecond ?? DEFAULT_PACE.perSecond;
    const atOnce = input.atOnce ?? DEFAULT_PACE.atOnce;
    checkPace(perSecond, atOnce);
    // Kept as instants: a date alone means midnight in this desk's time zone, as the journal reads it.
    const from = instant(input.from, 'From');
    const to = instant(input.to, 'To');
    if (from >= to) throw new ServiceError('INPUT', 'From must be before To.', 'to');
    const lines = await this.plan(input.profileId, from, to);
    if (lines.length === 0)
      throw new ServiceError(
        'NOT_FOUND',
        `The journal holds no entry of "${profile.name}" from ${localTimeWithOffset(from)} until ${localTimeWithOffset(to)}: nothing to reconcile.`,
      );
    const run = this.runs.create(
      {
        profileId: input.profileId,
        operator: this.options.operator,
        from,
        to,
        journalStore: this.journal.store,
        perSecond,
        atOnce,
      },
      lines,
    );
    return this.resume(run.id);
  }

  /** Every entry of the range, oldest first, then each order they act on not already a line. */
  private async plan(profileId: string, from: string, to: string): Promise<NewLine[]> {
    const entries: JournalEntry[] = [];
    for await (const entry of this.journal.iterate({ profileId, from, to })) entries.push(entry);
    entries.reverse();
    const own = new Set(
      entries.filter((e) => ORDER_MAKING.has(e.operation) && e.orderId).map((e) => e.orderId),
    );
    const orders = new Map<string, Subject>();
    for (const e of entries) {
      if (!e.targetOrderId || own.has(e.targetOrderId) || orders.has(e.targetOrderId)) continue;
      orders.set(e.targetOrderId, {
        orderId: e.targetOrderId,
        clientOrderId: e.targetClientOrderId,
        createdAt: e.createdAt,
      });
    }
    return [
      ...entries.map((e) => ({
        kind: 'entry' as const,
        ref: e.clientOrderId,
        subject: JSON.stringify(subjectOf(e)),
      })),
      ...[...orders.values()].map((s) => ({
        kind: 'order' as const,
        ref: s.orderId as string,
        subject: JSON.stringify(s),
      })),
    ];
  }

  /** Starts or resumes a run: only its lines not yet answered are asked about. */
  resume(runId: number, pace?: { perSecond: number; atOnce: number }): RunView {
    const run = this.require(runId);
    if (this.active.has(runId) || run.state === 'done') return this.view(runId);
    this.refuseSecondRun(run.profileId);
    if (pace) {
      checkPace(pace.perSecond, pace.atOnce);
      this.runs.setPace(runId, pace.perSecond, pace.atOnce);
    }
    const running = this.runs.setState(runId, 'running');
    const active: Active = {
      pace: new Pace(running.perSecond),
      quit: new AbortController(),
      stop: null,
      startedAt: performance.now(),
      doneAtStart: this.doneCount(runId),
      done: Promise.resolve(),
    };
    this.active.set(runId, active);
    active.done = this.work(running, active).finally(() => this.active.delete(runId));
    return this.view(runId);
  }

  /** No new request leaves; the ones under way get their answer, then the run is paused. */
  pause(runId: number): RunView {
    this.require(runId);
    const active = this.active.get(runId);
    this.runs.setState(runId, 'paused');
    if (active) {
      active.stop = 'pause';
      active.pace.stop();
    }
    return this.view(runId);
  }

  /** Runs left running by a process that stopped (a crash, a quit) are taken up again. */
  recover(): RunView[] {
    return this.runs.running().map((run) => this.resume(run.id));
  }

  /** Resolves when the run's current work has ended (paused, done, or stopped by a problem). */
  async settled(runId: number): Promise<void> {
    await this.active.get(runId)?.done;
  }

  /**
   * Quitting: no new request leaves; those under way get `graceMs` to answer (a quit is
   * bounded), then are given up and their lines stay to do. Runs stay running: the next start
   * asks about every line without an answer.
   */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    const actives = [...this.active.values()];
    for (const active of actives) {
      active.stop ??= 'close';
      active.pace.stop();
    }
    const timer = setTimeout(() => actives.forEach((a) => a.quit.abort()), graceMs);
    await Promise.all(actives.map((a) => a.done));
    clearTimeout(timer);
  }

  list(): RunView[] {
    return this.runs.list().map((r) => this.view(r.id));
  }

  view(runId: number): RunView {
    const run = this.require(runId);
    const counts = this.runs.counts(runId);
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    const done = total - counts.todo;
    const active = this.active.get(runId);
    const seconds = active ? (performance.now() - active.startedAt) / 1000 : 0;
    const since = active ? done - active.doneAtStart : 0;
    const rate = active && since > 0 && seconds > 0 ? since / seconds : null;
    return {
      id: run.id,
      profileId: run.profileId,
      profileName: this.profiles.get(run.profileId)?.name ?? run.profileId,
      operator: run.operator,
      from: run.from,
      to: run.to,
      journalStore: run.journalStore,
      state: run.state,
      pausing: run.state === 'paused' && active !== undefined,
      pausedBecause: run.pausedBecause,
      perSecond: run.perSecond,
      atOnce: run.atOnce,
      createdAt: run.createdAt,
      finishedAt: run.finishedAt,
      progress: {
        total,
        done,
        agrees: counts.agrees,
        differs: counts.differs,
        unreadable: counts.unreadable,
        notAskable: counts['not-askable'],
        left: counts.todo,
        ratePerSecond: rate,
        secondsLeft: rate ? Math.ceil(counts.todo / rate) : null,
      },
    };
  }

  /** The lines a controller reads: every disagreement and every line that could not be read. */
  findings(runId: number): LineView[] {
    this.require(runId);
    return this.runs.lines(runId, ['differs', 'unreadable']).map(lineView);
  }

  /** Every line, for the export. */
  allLines(runId: number): LineView[] {
    this.require(runId);
    return this.runs.lines(runId).map(lineView);
  }

  /** Every line as CSV, for the save dialog. */
  async csv(runId: number): Promise<string> {
    return reconcileCsv(this.allLines(runId));
  }

  /** The printable page a controller signs (printed to PDF in main). */
  html(runId: number, printedAt = new Date()): string {
    return reconcileHtml(this.view(runId), this.findings(runId), printedAt);
  }

  private doneCount(runId: number): number {
    const counts = this.runs.counts(runId);
    return Object.values(counts).reduce((a, b) => a + b, 0) - counts.todo;
  }

  /**
   * One run at a time per profile: the pace bounds what one run asks of the gateway, and two
   * side by side would ask twice as much.
   */
  private refuseSecondRun(profileId: string): void {
    for (const id of this.active.keys()) {
      const other = this.runs.get(id);
      if (other?.profileId === profileId && other.state === 'running')
        throw new ServiceError(
          'NOT_ALLOWED',
          `Reconciliation ${id} of this profile is running: pause it, or wait for it to end, before starting another.`,
        );
    }
  }

  private require(runId: number): Run {
    const run = this.runs.get(runId);
    if (!run) throw new ServiceError('NOT_FOUND', `There is no reconciliation ${runId}.`);
    return run;
  }

  private stopWith(runId: number, active: Active, reason: string): void {
    if (active.stop === null) {
      active.stop = 'pause';
      this.runs.setState(runId, 'paused', reason);
    }
    active.pace.stop();
  }

  private async work(run: Run, active: Active): Promise<void> {
    let client;
    try {
      ({ client } = await this.connections.clientFor(run.profileId));
    } catch (error) {
      this.stopWith(run.id, active, `The run stopped: ${messageOf(error)}`);
      return;
    }
    const todo = this.runs.todo(run.id);
    const answered: { seq: number; result: LineResult }[] = [];
    const flush = () => this.runs.record(run.id, answered.splice(0));
    const timer = setInterval(flush, this.options.flushMs ?? 100);
    let next = 0;
    const worker = async () => {
      while (active.stop === null && next < todo.length) {
        const line = todo[next++] as Line;
        try {
          const result = await readLine(
            line,
            this.journal,
            client,
            active.pace,
            this.retry,
            active.quit.signal,
          );
          if (result === STOPPED) return;
          answered.push({ seq: line.seq, result });
          if (answered.length >= FLUSH_LINES) flush();
        } catch (error) {
          this.stopWith(run.id, active, stopReason(error));
          return;
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(run.atOnce, todo.length) }, worker));
    } finally {
      clearInterval(timer);
      flush();
    }
    if (active.stop === null && this.runs.counts(run.id).todo === 0)
      this.runs.setState(run.id, 'done');
  }
}

function instant(value: string, label: string): string {
  const time = parseFilterTime(value);
  if (!time)
    throw new ServiceError(
      'INPUT',
      `${label} is not a time: write ${FILTER_TIME_HINT}.`,
      label.toLowerCase(),
    );
  return time.toISOString();
}

function checkPace(perSecond: number, atOnce: number): void {
  const { perSecond: p, atOnce: a } = PACE_LIMITS;
  if (!(perSecond >= p.min && perSecond <= p.max))
    throw new ServiceError(
      'INPUT',
      `Requests a second must be from ${p.min} to ${p.max}.`,
      'perSecond',
    );
  if (!Number.isInteger(atOnce) || atOnce < a.min || atOnce > a.max)
    throw new ServiceError(
      'INPUT',
      `Requests at once must be a whole number from ${a.min} to ${a.max}.`,
      'atOnce',
    );
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function stopReason(error: unknown): string {
  if (error instanceof RunStop) return `The run stopped: ${error.message}`;
  const store = toStoreError(error);
  if (store)
    return `The run stopped: the journal could not be read (${store.message}). Resume it once the journal is back.`;
  return `The run stopped: ${messageOf(error)}`;
}
