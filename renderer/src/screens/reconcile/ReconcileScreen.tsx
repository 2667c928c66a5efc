// Reconciliation (finance, controllers): for a date range and the active profile, every journal
// entry (and every order those entries act on) is asked about again with the gateway's `status`
// (the only request it sends) at a pace the person sets, and every disagreement is listed. Pause
// and resume; a run that was running when Paydesk stopped goes on at the next start. The result
// is saved as CSV, or as a printable PDF page a controller signs. Nothing is settled here: an
// entry Paydesk still calls unsettled that the gateway now knows links to its order.

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';

import type { ReconcileRunData } from '../../../../common/reconcile-contract';
import { RECONCILE_PACE } from '../../../../common/reconcile-pace';
import { localTimeWithOffset } from '../../../../common/time';
import { paydesk, unwrap } from '../../api';
import { ErrorNotice, Notice } from '../../components/Notice';
import { useActiveProfile } from '../../profile-context';
import { ReconcileFindings } from './ReconcileFindings';
import { ReconcileProgress } from './ReconcileProgress';
import './reconcile.css';

const runKey = (id: number) => ['reconcile', id] as const;

/** A day in this desk's time zone as YYYY-MM-DD, `days` after today. */
function day(days = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The day after a YYYY-MM-DD day: the range's end, which the journal takes as exclusive. */
function dayAfter(value: string): string {
  const [y, m, d] = value.split('-').map(Number) as [number, number, number];
  const next = new Date(y, m - 1, d + 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${next.getFullYear()}-${pad(next.getMonth() + 1)}-${pad(next.getDate())}`;
}

const STATE_WORDS: Record<ReconcileRunData['state'], string> = {
  running: 'running',
  paused: 'paused',
  done: 'finished',
};

export function ReconcileScreen() {
  const ids = useId();
  const { active } = useActiveProfile();
  const queryClient = useQueryClient();
  const [from, setFrom] = useState(() => day());
  const [through, setThrough] = useState(() => day());
  const [perSecond, setPerSecond] = useState<number>(RECONCILE_PACE.perSecond.default);
  const [atOnce, setAtOnce] = useState<number>(RECONCILE_PACE.atOnce.default);
  const [runId, setRunId] = useState<number>();

  const earlier = useQuery({
    queryKey: ['reconcile', 'list'],
    queryFn: () => unwrap(paydesk().reconcile.list({})),
  });
  const shownId = runId ?? earlier.data?.[0]?.id;
  const run = useQuery({
    queryKey: runKey(shownId ?? 0),
    queryFn: () => unwrap(paydesk().reconcile.get({ runId: shownId ?? 0 })),
    enabled: shownId !== undefined,
    refetchInterval: (q) =>
      q.state.data?.state === 'running' || q.state.data?.pausing ? 500 : false,
  });
  const view = run.data;
  const findings = useQuery({
    queryKey: ['reconcile', shownId ?? 0, 'findings', view?.state, view?.progress.done],
    queryFn: () => unwrap(paydesk().reconcile.findings({ runId: shownId ?? 0 })),
    enabled: shownId !== undefined,
    placeholderData: keepPreviousData,
  });

  const settle = (next: ReconcileRunData) => {
    queryClient.setQueryData(runKey(next.id), next);
    void queryClient.invalidateQueries({ queryKey: ['reconcile'] });
  };
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        paydesk().reconcile.create({
          profileId: active?.id ?? '',
          from,
          to: dayAfter(through),
          perSecond,
          atOnce,
        }),
      ),
    onSuccess: (created) => {
      setRunId(created.id);
      settle(created);
    },
  });
  const control = useMutation({
    mutationFn: (action: 'pause' | 'resume') =>
      action === 'pause'
        ? unwrap(paydesk().reconcile.pause({ runId: shownId ?? 0 }))
        : unwrap(paydesk().reconcile.resume({ runId: shownId ?? 0, perSecond, atOnce })),
    onSuccess: settle,
  });
  const save = useMutation({
    mutationFn: (kind: 'csv' | 'pdf') =>
      kind === 'csv'
        ? unwrap(paydesk().reconcile.saveCsv({ runId: shownId ?? 0 }))
        : unwrap(paydesk().reconcile.savePdf({ runId: shownId ?? 0 })),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };

  return (
    <div className="reconcile-screen">
      <h1>Reconciliation</h1>
      <nav className="reconcile-tabs" aria-label="Reports">
        <a href="#/reports">Daily close</a>
        <a href="#/reconcile" aria-current="page">
          Reconciliation
        </a>
      </nav>
      <p className="screen-intro">
        Asks the gateway again about every journal entry of the days you choose, and every order
        those entries act on, and lists where the gateway and the journal disagree. Only the
        gateway&apos;s status is asked; nothing is sent that moves money, and nothing is settled
        here.
      </p>
      <form className="card reconcile-form" aria-label="Reconcile" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={`${ids}-from`}>From</label>
          <input
            id={`${ids}-from`}
            type="date"
            value={from}
            required
            onChange={(e) => setFrom(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-through`}>Through (included)</label>
          <input
            id={`${ids}-through`}
            type="date"
            value={through}
            required
            onChange={(e) => setThrough(e.target.value)}
          />
        </div>
        <div className="field reconcile-pace">
          <label htmlFor={`${ids}-rate`}>Requests a second</label>
          <input
            id={`${ids}-rate`}
            type="number"
            min={RECONCILE_PACE.perSecond.min}
            max={RECONCILE_PACE.perSecond.max}
            step="any"
            value={perSecond}
            onChange={(e) => setPerSecond(Number(e.target.value))}
          />
        </div>
        <div className="field reconcile-pace">
          <label htmlFor={`${ids}-once`}>At once</label>
          <input
            id={`${ids}-once`}
            type="number"
            min={RECONCILE_PACE.atOnce.min}
            max={RECONCILE_PACE.atOnce.max}
            value={atOnce}
            onChange={(e) => setAtOnce(Number(e.target.value))}
          />
        </div>
        <div className="button-row">
          <button type="submit" className="primary" disabled={create.isPending || !active}>
            {create.isPending ? 'Reading the journal…' : `Reconcile ${active?.name ?? ''}`}
          </button>
        </div>
      </form>
      {create.error && (
        <ErrorNotice error={create.error} title="The reconciliation did not start:" />
      )}
      {view && (
        <section className="card reconcile-run" aria-label={`Reconciliation ${view.id}`}>
          <h2>
            {view.profileName}: entries written from {localTimeWithOffset(view.from)} until{' '}
            {localTimeWithOffset(view.to)}
            <span className="reconcile-state">
              {view.pausing ? 'pausing' : STATE_WORDS[view.state]}
            </span>
          </h2>
          <p className="reconcile-meta">
            Run {view.id} by {view.operator}, started {localTimeWithOffset(view.createdAt)}
            {view.finishedAt ? `, finished ${localTimeWithOffset(view.finishedAt)}` : ''} · at most{' '}
            {view.perSecond} requests a second, {view.atOnce} at once
          </p>
          {view.pausedBecause && <Notice kind="warning">{view.pausedBecause}</Notice>}
          <ReconcileProgress run={view} />
          <div className="button-row">
            {view.state === 'running' && (
              <button
                type="button"
                onClick={() => control.mutate('pause')}
                disabled={control.isPending}
              >
                Pause
              </button>
            )}
            {view.state === 'paused' && !view.pausing && (
              <button
                type="button"
                onClick={() => control.mutate('resume')}
                disabled={control.isPending}
              >
                Resume
              </button>
            )}
            <button type="button" onClick={() => save.mutate('csv')} disabled={save.isPending}>
              Save as CSV
            </button>
            <button type="button" onClick={() => save.mutate('pdf')} disabled={save.isPending}>
              Save the page to sign (PDF)
            </button>
          </div>
          {control.error && <ErrorNotice error={control.error} />}
          {save.error && <ErrorNotice error={save.error} title="Not saved:" />}
          {save.data?.saved && <Notice kind="success">Saved to {save.data.path}</Notice>}
          <h3>Disagreements and lines not read</h3>
          <ReconcileFindings lines={findings.data ?? []} profileId={view.profileId} />
        </section>
      )}
      {(earlier.data?.length ?? 0) > 1 && (
        <section className="reconcile-earlier" aria-label="Earlier reconciliations">
          <h2>Earlier reconciliations</h2>
          <ul>
            {earlier
              .data!.filter((r) => r.id !== shownId)
              .map((r) => (
                <li key={r.id}>
                  <button type="button" onClick={() => setRunId(r.id)}>
                    Run {r.id}
                  </button>{' '}
                  {r.profileName}, {localTimeWithOffset(r.from)} to {localTimeWithOffset(r.to)}:{' '}
                  {STATE_WORDS[r.state]}, {r.progress.differs} disagreements
                </li>
              ))}
          </ul>
        </section>
      )}
    </div>
  );
}
