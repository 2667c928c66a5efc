// What became of an action, in plain words, from the moment it is sent to the gateway's final
// word; with "Ask again" (the same action id: main asks the gateway, never sends twice) when the
// answer was lost, and a way to start a new action once this one is closed. Asking again sends
// the request again and a new action leads to sending: both are fenced (components/RoleFence),
// so a person whose role changed while the outcome is shown cannot use them; closing is not.

import type { ReactNode } from 'react';

import { ErrorNotice, Notice } from '../components/Notice';
import { FencedButton } from '../components/RoleFence';
import type { MoneyAction } from './useMoneyAction';

export function ActionOutcome<Req extends { clientOrderId: string }>({
  action,
  what,
  approved,
  newLabel,
  onNew,
  close,
  waiting,
}: {
  action: MoneyAction<Req>;
  /** "The payout", "The card reference"... */
  what: string;
  /** Shown when the action ended approved (or checked): what it made, with its ids. */
  approved?: ReactNode;
  /** The button that starts a new action once this one is closed (fenced). */
  newLabel?: string;
  /** Instead of action.startOver (e.g. also forgets a typed card number). */
  onNew?: () => void;
  /** A panel that closes instead ("Back to the list"): closing sends nothing, so never fenced. */
  close?: { label: string; onClose: () => void };
  /** The action's own part is done once the gateway has it (a link waits for its customer): these words then. */
  waiting?: string;
}) {
  const { phase, entry } = action;
  const done = action.settled || (waiting !== undefined && entry?.state === 'acknowledged');
  if (phase === 'edit' || phase === 'confirm') return null;
  return (
    <section className="card money-outcome" aria-live="polite" aria-label="Outcome">
      {phase === 'sending' && <Notice kind="info">Sending… {what} is in the journal first.</Notice>}
      {phase === 'refused' && (
        <ErrorNotice
          error={action.sendError}
          title={`${what} was refused; nothing was processed:`}
        />
      )}
      {phase === 'lost' && (
        <>
          <ErrorNotice
            error={action.sendError}
            title={`${what} may have reached the gateway; its answer was lost:`}
          />
          <p>
            Paydesk asks the gateway for its status and sends nothing again. It shows as pending
            until the gateway answers.
          </p>
        </>
      )}
      {entry &&
        (phase === 'sent' || phase === 'lost') &&
        (waiting !== undefined && entry.state === 'acknowledged' ? (
          <Notice kind="success">{waiting}</Notice>
        ) : (
          <EntryWords entry={entry} what={what} approved={approved} />
        ))}
      {action.replayed && phase === 'sent' && (
        <p className="field-hint">Already recorded: nothing was sent again.</p>
      )}
      <div className="button-row">
        {phase === 'lost' && (
          <FencedButton onClick={() => void action.askAgain()}>Ask the gateway again</FencedButton>
        )}
        {(phase === 'refused' || done) && newLabel !== undefined && (
          <FencedButton className="primary" onClick={onNew ?? action.startOver}>
            {newLabel}
          </FencedButton>
        )}
        {(phase === 'refused' || done) && close && (
          <button type="button" className="primary" onClick={close.onClose}>
            {close.label}
          </button>
        )}
      </div>
    </section>
  );
}

function EntryWords({
  entry,
  what,
  approved,
}: {
  entry: NonNullable<MoneyAction<{ clientOrderId: string }>['entry']>;
  what: string;
  approved: ReactNode;
}) {
  switch (entry.state) {
    case 'sending':
      return <Notice kind="info">{what} is being sent.</Notice>;
    case 'acknowledged':
      return (
        <Notice kind="info">
          The gateway received it{entry.orderId ? ` (orderid ${entry.orderId})` : ''}; waiting for
          its final status. It counts as pending.
        </Notice>
      );
    case 'unknown':
      return (
        <Notice kind="warning">
          Unsettled: {entry.errorMessage ?? 'the gateway has no record of it yet.'} Paydesk keeps
          asking and sends nothing again.
        </Notice>
      );
    case 'refused':
      return (
        <Notice kind="warning">
          Not processed: {entry.errorMessage ?? 'the gateway refused it.'}
        </Notice>
      );
    case 'final':
      return entry.status === 'approved' || entry.status === 'checked' ? (
        <Notice kind="success">
          <strong>{entry.status === 'checked' ? 'Checked' : 'Approved'}.</strong>{' '}
          {entry.orderId ? `orderid ${entry.orderId}. ` : ''}
          {approved}
        </Notice>
      ) : (
        <Notice kind="warning">
          <strong>{entry.status}</strong>: {entry.errorMessage ?? 'the gateway did not approve it.'}
        </Notice>
      );
  }
}
