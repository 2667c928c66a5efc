// Settings -> Updates: the version running, what the feed offers and how its download is going,
// and "Install and restart", which main allows only when nothing of this desk is in flight (a
// refund waiting for its final answer, a running batch); the button is disabled with main's
// sentence why. Main pushes each change of the download (updateChanged); whether installing is
// allowed is asked again every few seconds while an update waits, and when the journal changes.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';

import type { UpdateViewData } from '../../../../common/contract';
import { localTimeWithOffset } from '../../../../common/time';
import { paydesk, unwrap } from '../../api';
import { ErrorNotice, Notice } from '../../components/Notice';
import './settings.css';

const updatesKey = ['updates'] as const;

const PHASE: Record<UpdateViewData['phase'], string> = {
  off: 'Updates are off',
  idle: 'Not checked yet',
  checking: 'Checking the feed…',
  'up-to-date': 'Up to date',
  downloading: 'Downloading in the background',
  ready: 'Downloaded, ready to install',
  failed: 'The last check or download failed',
};

function useUpdates() {
  const client = useQueryClient();
  useEffect(() => {
    const api = window.paydesk;
    if (!api) return undefined;
    const offUpdate = api.on('updateChanged', (view) => client.setQueryData(updatesKey, view));
    // An answer that ends an operation in flight may allow installing.
    const offJournal = api.on('journalChanged', () => {
      void client.invalidateQueries({ queryKey: updatesKey });
    });
    return () => {
      offUpdate();
      offJournal();
    };
  }, [client]);
  return useQuery({
    queryKey: updatesKey,
    queryFn: () => unwrap(paydesk().updates.state({})),
    refetchInterval: (query) =>
      query.state.data?.phase === 'ready' && !query.state.data.install.allowed ? 5_000 : false,
  });
}

export function UpdatesScreen() {
  const uid = useId();
  const client = useQueryClient();
  const updates = useUpdates();
  const check = useMutation({
    mutationFn: () => unwrap(paydesk().updates.check({})),
    onSuccess: (view) => client.setQueryData(updatesKey, view),
  });
  const install = useMutation({
    mutationFn: () => unwrap(paydesk().updates.install({})),
    onSettled: () => client.invalidateQueries({ queryKey: updatesKey }),
  });
  const view = updates.data;
  const refused = install.data && !install.data.installing ? install.data.reason : null;
  const why = view && view.phase === 'ready' && !view.install.allowed && !refused;

  return (
    <div className="team-journal-screen updates-screen">
      <h1>Updates</h1>
      <p className="screen-intro">
        Paydesk checks for a newer version when it starts and once a day, and downloads it in the
        background. It installs only when you choose, and not while an operation is waiting for the
        gateway&rsquo;s answer or a batch is running: restarting would interrupt them.
      </p>
      <section className="card" aria-labelledby={`${uid}-now`}>
        <h2 id={`${uid}-now`}>This Paydesk</h2>
        {updates.error && <ErrorNotice error={updates.error} />}
        {view && (
          <dl className="update-facts">
            <dt>Running</dt>
            <dd>{view.running}</dd>
            <dt>Offered</dt>
            <dd>{view.offered ?? 'Nothing newer'}</dd>
            <dt>State</dt>
            <dd>
              {PHASE[view.phase]}
              {view.phase === 'downloading' && view.percent !== null
                ? ` (${Math.floor(view.percent)} %)`
                : ''}
            </dd>
            <dt>Last checked</dt>
            <dd>{view.checkedAt ? localTimeWithOffset(view.checkedAt) : 'Not yet'}</dd>
            <dt>Feed</dt>
            <dd>
              <code>{view.feed}</code>
            </dd>
          </dl>
        )}
        {view?.message && (
          <Notice kind={view.phase === 'failed' ? 'warning' : 'info'}>{view.message}</Notice>
        )}
        {check.error && <ErrorNotice error={check.error} />}
        {install.error && <ErrorNotice error={install.error} />}
        {refused && <Notice kind="warning">{refused}</Notice>}
        {install.data?.installing && (
          <Notice kind="info">
            Paydesk is closing to install the update and will start again.
          </Notice>
        )}
        {why && !view.install.allowed && (
          <p className="update-why" id={`${uid}-why`}>
            {view.install.reason}
          </p>
        )}
        <div className="button-row">
          <button
            type="button"
            className="primary"
            disabled={
              !view || !view.install.allowed || install.isPending || !!install.data?.installing
            }
            aria-describedby={why ? `${uid}-why` : undefined}
            onClick={() => install.mutate()}
          >
            Install and restart
          </button>
          <button
            type="button"
            disabled={!view || view.phase === 'off' || view.phase === 'checking' || check.isPending}
            onClick={() => check.mutate()}
          >
            Check now
          </button>
        </div>
      </section>
    </div>
  );
}
