// What the window shows before the services have started and while Paydesk closes: the window
// opens at once and the start may wait on the keychain (an unlock prompt), so the step under way
// is on screen, and the keychain's wait comes with its choices. Main pushes each change (the
// 'lifecycle' event) and is asked once on load, for a window opened mid-start or mid-shutdown.

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';

import type { LifecycleData } from '../../common/contract';
import { paydesk, unwrap } from './api';
import { ErrorNotice, Notice } from './components/Notice';
import './lifecycle.css';

const lifecycleKey = ['lifecycle'] as const;

export function useLifecycle() {
  const client = useQueryClient();
  useEffect(() => {
    const api = window.paydesk;
    if (!api) return undefined;
    return api.on('lifecycle', (state) => client.setQueryData(lifecycleKey, state));
  }, [client]);
  return useQuery({
    queryKey: lifecycleKey,
    queryFn: () => unwrap(paydesk().lifecycle.state({})),
    staleTime: Infinity,
  });
}

/**
 * The screens once the services run; the start's or the shutdown's page until then. A bridge
 * that cannot say (an error) does not keep the screens away: they say what fails themselves.
 */
export function LifecycleGate({ children }: { children: ReactNode }) {
  const lifecycle = useLifecycle();
  const state = lifecycle.data;
  if (lifecycle.isPending)
    return <LifecyclePage state={{ phase: 'starting', step: 'Starting Paydesk' }} />;
  if (!state || state.phase === 'ready') {
    return (
      <>
        {state?.message && (
          <div className="lifecycle-banner">
            <Notice kind="warning">{state.message}</Notice>
          </div>
        )}
        {children}
      </>
    );
  }
  return <LifecyclePage state={state} />;
}

const TITLES: Record<Exclude<LifecycleData['phase'], 'ready'>, string> = {
  starting: 'Paydesk is starting',
  'keychain-waiting': 'Paydesk is waiting for the keychain',
  stopping: 'Paydesk is closing',
  failed: 'Paydesk could not start',
};

export function LifecyclePage({ state }: { state: LifecycleData }) {
  const title = state.phase === 'ready' ? 'Paydesk' : TITLES[state.phase];
  return (
    <main className="lifecycle-page" aria-busy={state.phase !== 'failed'}>
      <div className="lifecycle-card">
        <span className="wordmark">Paydesk</span>
        <h1>{title}</h1>
        <p className="lifecycle-step" role="status">
          {state.step}…
        </p>
        {state.phase === 'stopping' && (
          <p>
            Operations still in flight stay in the journal and are asked about at the next start.
          </p>
        )}
        {state.phase === 'failed' && state.message && (
          <ErrorNotice error={new Error(state.message)} />
        )}
        {state.phase === 'keychain-waiting' && <KeychainChoices message={state.message} />}
      </div>
    </main>
  );
}

function KeychainChoices({ message }: { message: string | undefined }) {
  const [error, setError] = useState<unknown>(null);
  const choose = (call: 'retryKeychain' | 'skipKeychain') => {
    setError(null);
    unwrap(paydesk().lifecycle[call]({})).catch(setError);
  };
  return (
    <>
      {message && <Notice kind="warning">{message}</Notice>}
      <div className="button-row">
        <button type="button" className="primary" onClick={() => choose('retryKeychain')}>
          Try again
        </button>
        <button type="button" onClick={() => choose('skipKeychain')}>
          Start without the keychain
        </button>
      </div>
      {error !== null && <ErrorNotice error={error} />}
    </>
  );
}
