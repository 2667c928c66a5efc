// Batch (finance): a CSV of captures, refunds, voids or status look-ups. Main parses and checks
// every row (shape, amount, the order's state and what is left, the same order twice, totals)
// and stores the batch; nothing is sent until the clerk starts it, on production profiles after
// typing the totals. Then progress, pause/resume/cancel, and the result file. A batch that was
// running when Paydesk stopped is listed as interrupted, to be resumed. Any earlier batch opens
// to be read and its results saved, also by whoever may not send (components/RoleFence.tsx):
// loading, starting, pausing and cancelling are fenced. Pause stops new rows at once; until the
// rows in flight end the batch says "pausing" (or "cancelling"). Cancel asks first.

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';

import type { BatchViewData } from '../../../../common/contract';
import { paydesk, unwrap } from '../../api';
import { ConfirmDialog, typeTheId } from '../../components/ConfirmDialog';
import { ErrorNotice, Notice } from '../../components/Notice';
import { FencedButton, FencedForm } from '../../components/RoleFence';
import { useActiveProfile } from '../../profile-context';
import { BatchProgress } from './BatchProgress';
import { BatchRows } from './BatchRows';
import { EarlierBatches } from './EarlierBatches';
import './batch.css';

const batchKey = (id: number) => ['batches', id] as const;

export function BatchScreen() {
  const ids = useId();
  const { active } = useActiveProfile();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState('pasted.csv');
  const [concurrency, setConcurrency] = useState(4);
  const [batchId, setBatchId] = useState<number>();
  const [confirming, setConfirming] = useState(false);
  const [confirmingCancel, setConfirmingCancel] = useState(false);
  const [formError, setFormError] = useState<string>();

  const earlier = useQuery({
    queryKey: ['batches', 'list'],
    queryFn: () => unwrap(paydesk().batches.list({})),
  });
  const batch = useQuery({
    queryKey: batchKey(batchId ?? 0),
    queryFn: () => unwrap(paydesk().batches.get({ batchId: batchId ?? 0 })),
    enabled: batchId !== undefined,
    refetchInterval: (q) => (q.state.data?.state === 'running' ? 500 : false),
  });
  const running = batch.data?.state === 'running';
  const rows = useQuery({
    // Read again whenever the batch's figures move (and once more when it stops running).
    queryKey: [
      'batches',
      batchId ?? 0,
      'rows',
      batch.data?.state,
      batch.data ? batch.data.progress.done + batch.data.progress.failed : 0,
    ],
    queryFn: () => unwrap(paydesk().batches.rows({ batchId: batchId ?? 0 })),
    enabled: batchId !== undefined,
    placeholderData: keepPreviousData,
    refetchInterval: running ? 1_000 : false,
  });

  const settle = (view: BatchViewData) => {
    queryClient.setQueryData(batchKey(view.id), view);
    void queryClient.invalidateQueries({ queryKey: ['batches'] });
  };
  const load = useMutation({
    mutationFn: () =>
      unwrap(paydesk().batches.load({ profileId: active?.id ?? '', fileName, text, concurrency })),
    onSuccess: (loaded) => {
      openBatch(loaded.batch.id);
      queryClient.setQueryData(
        ['batches', loaded.batch.id, 'rows', loaded.batch.state, 0],
        loaded.rows,
      );
      settle(loaded.batch);
    },
  });
  const control = useMutation({
    mutationFn: (what: { action: 'start' | 'pause' | 'cancel'; confirmation?: string }) => {
      const id = batchId ?? 0;
      if (what.action === 'pause') return unwrap(paydesk().batches.pause({ batchId: id }));
      if (what.action === 'cancel') return unwrap(paydesk().batches.cancel({ batchId: id }));
      return unwrap(
        paydesk().batches.start({
          batchId: id,
          ...(what.confirmation !== undefined ? { confirmation: what.confirmation } : {}),
        }),
      );
    },
    onSuccess: settle,
  });
  const save = useMutation({
    mutationFn: () => unwrap(paydesk().batches.saveResult({ batchId: batchId ?? 0 })),
  });
  /** Shows another batch; the last one's "Saved to" is not this one's. */
  const openBatch = (id: number) => {
    save.reset();
    setBatchId(id);
  };

  const chooseFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (!file) return;
    setFileName(file.name);
    setText(await file.text());
    setFormError(undefined);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') {
      setFormError('Choose a CSV file or paste its rows first.');
      return;
    }
    setFormError(undefined);
    load.mutate();
  };

  const view = batch.data;
  const sendable = view ? view.progress.total - view.progress.invalid : 0;
  const interrupted = (earlier.data ?? []).filter(
    (b) => b.interrupted && b.state === 'paused' && b.profileId === active?.id && b.id !== batchId,
  );

  return (
    <div className="batch-screen">
      <h1>Batch</h1>
      <p className="screen-intro">
        Capture, refund, void or look up many orders from a CSV (comma or semicolon separated) with
        the columns <code>operation</code>, <code>orderid</code> or <code>client_orderid</code>,{' '}
        <code>amount</code>, <code>currency</code>, <code>reason</code>, <code>note</code>. Every
        row is checked first; nothing is sent until you start the batch.
      </p>
      {interrupted.map((b) => (
        <Notice key={b.id} kind="warning">
          Batch {b.id} ({b.fileName}) stopped while it ran: {b.progress.done + b.progress.failed} of{' '}
          {b.progress.total - b.progress.invalid} rows were finished. Rows in flight are settled by
          their status; nothing is sent twice.{' '}
          <button type="button" onClick={() => openBatch(b.id)}>
            Open batch {b.id}
          </button>
        </Notice>
      ))}
      <FencedForm
        className="card batch-form"
        aria-label="Load a batch"
        onSubmit={submit}
        noValidate
      >
        <div className="field">
          <label htmlFor={`${ids}-file`}>CSV file</label>
          <input
            id={`${ids}-file`}
            type="file"
            accept=".csv,text/csv,text/plain"
            onChange={(e) => void chooseFile(e)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-text`}>Or paste the rows</label>
          <textarea
            id={`${ids}-text`}
            rows={5}
            spellCheck={false}
            value={text}
            placeholder={
              'operation,orderid,amount,currency,reason,note\nrefund,1000009,5.00,EUR,Damaged,'
            }
            aria-invalid={formError ? true : undefined}
            onChange={(e) => {
              setText(e.target.value);
              setFileName('pasted.csv');
            }}
          />
        </div>
        <div className="field batch-concurrency">
          <label htmlFor={`${ids}-lanes`}>Orders at a time</label>
          <input
            id={`${ids}-lanes`}
            type="number"
            min={1}
            max={32}
            value={concurrency}
            onChange={(e) => setConcurrency(Math.max(1, Math.min(32, Number(e.target.value) || 1)))}
          />
        </div>
        {formError && (
          <p className="field-error" role="alert">
            {formError}
          </p>
        )}
        <div className="button-row">
          <button type="submit" className="primary" disabled={load.isPending || !active}>
            {load.isPending ? 'Checking every row…' : 'Check the rows'}
          </button>
        </div>
      </FencedForm>
      {load.error && <ErrorNotice error={load.error} title="The file was not loaded" />}

      {view && (
        <section className="card batch-view" aria-label={`Batch ${view.id}`}>
          <h2>
            Batch {view.id}: {view.fileName} <span className="batch-state">{stateWords(view)}</span>
          </h2>
          <BatchSummary view={view} />
          {view.state !== 'ready' && <BatchProgress view={view} />}
          {view.stopping && (
            <Notice kind="info">
              {view.stopping === 'pause' ? 'Pausing' : 'Cancelling'}: no new row starts.{' '}
              {view.progress.sending === 1
                ? 'The row being sent goes on to its final status first.'
                : `The ${view.progress.sending} rows being sent go on to their final status first.`}
            </Notice>
          )}
          {view.pausedBecause && (
            <Notice kind="warning">
              The batch paused by itself: {view.pausedBecause} Rows sent so far are safe; press
              Resume when it is back.
            </Notice>
          )}
          <div className="button-row">
            {(view.state === 'ready' || view.state === 'paused') && sendable > 0 && (
              <FencedButton
                className={view.needsConfirmation ? 'danger' : 'primary'}
                disabled={control.isPending}
                onClick={() => setConfirming(true)}
              >
                {view.state === 'ready'
                  ? `Send ${sendable} ${sendable === 1 ? 'row' : 'rows'}…`
                  : 'Resume'}
              </FencedButton>
            )}
            {running && !view.stopping && (
              <FencedButton onClick={() => control.mutate({ action: 'pause' })}>Pause</FencedButton>
            )}
            {(running || view.state === 'paused' || view.state === 'ready') &&
              view.stopping !== 'cancel' && (
                <FencedButton onClick={() => setConfirmingCancel(true)}>
                  Cancel the batch…
                </FencedButton>
              )}
            {view.state !== 'ready' && (
              <button type="button" disabled={save.isPending} onClick={() => save.mutate()}>
                Save the result CSV…
              </button>
            )}
          </div>
          {control.error && <ErrorNotice error={control.error} />}
          {save.error && <ErrorNotice error={save.error} />}
          {save.data?.saved && <Notice kind="success">Saved to {save.data.path}</Notice>}
          {rows.data && <BatchRows rows={rows.data} />}
        </section>
      )}

      <EarlierBatches
        // The open batch as it is now (it is read again while it runs; the list is not).
        batches={(earlier.data ?? [])
          .filter((b) => b.profileId === active?.id)
          .map((b) => (view && b.id === view.id ? view : b))}
        openId={batchId}
        onOpen={openBatch}
      />

      {confirmingCancel && view && (
        <ConfirmDialog
          title={`Cancel batch ${view.id}?`}
          confirmLabel="Cancel the batch"
          cancelLabel="Keep the batch"
          danger
          onCancel={() => setConfirmingCancel(false)}
          onConfirm={() => {
            setConfirmingCancel(false);
            control.mutate({ action: 'cancel' });
          }}
        >
          <p>
            {waitingWords(view.progress.left - view.progress.sending)} A cancelled batch cannot be
            resumed: load the file again to send those rows later.
          </p>
          {view.progress.sending > 0 && (
            <p>
              {view.progress.sending === 1
                ? 'The row already sent goes on to its final status.'
                : `The ${view.progress.sending} rows already sent go on to their final status.`}
            </p>
          )}
        </ConfirmDialog>
      )}

      {confirming && view && (
        <ConfirmDialog
          title={view.state === 'ready' ? `Send batch ${view.id}?` : `Resume batch ${view.id}?`}
          confirmLabel={
            view.state === 'ready'
              ? `Send ${sendable} ${sendable === 1 ? 'row' : 'rows'}`
              : 'Resume'
          }
          // On production the clerk types the totals (main checks them again before sending).
          money={{
            production: view.needsConfirmation,
            typed: typeTheId('the totals', view.confirmation),
          }}
          onCancel={() => setConfirming(false)}
          onConfirm={(typed) => {
            setConfirming(false);
            control.mutate({
              action: 'start',
              ...(view.needsConfirmation && typed !== undefined ? { confirmation: typed } : {}),
            });
          }}
        >
          <BatchSummary view={view} />
        </ConfirmDialog>
      )}
    </div>
  );
}

/** The batch's state as the clerk reads it: "pausing" while the rows in flight end. */
function stateWords(view: BatchViewData): string {
  if (view.stopping === 'pause') return 'pausing';
  if (view.stopping === 'cancel') return 'cancelling';
  return view.state;
}

function waitingWords(waiting: number): string {
  if (waiting === 0) return 'No row is waiting to be sent.';
  if (waiting === 1) return 'The 1 row not yet sent will not be sent.';
  return `The ${waiting} rows not yet sent will not be sent.`;
}

function BatchSummary({ view }: { view: BatchViewData }) {
  const { progress } = view;
  return (
    <div className="batch-summary">
      <p>
        {progress.total} rows: {progress.total - progress.invalid} to send
        {progress.invalid > 0 && (
          <>
            , <strong className="batch-invalid">{progress.invalid} with a problem</strong> (not
            sent)
          </>
        )}
        .
      </p>
      {view.totals.length > 0 && (
        <ul className="batch-totals" aria-label="Totals">
          {view.totals.map((t) => (
            <li key={`${t.operation}-${t.currency}`}>
              {t.operation} <strong>{t.amount}</strong> {t.currency} ({t.rows}{' '}
              {t.rows === 1 ? 'row' : 'rows'})
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
