// What became of an action, in plain words, from the moment it is sent to the gateway's final
// word; with "Ask again" (the same action id: main asks the gateway, never sends twice) when the
// answer was lost, and a way to start a new action once this one is closed; the one outcome of
// every money screen, Orders' panel included (which brings its own words). Asking again sends
// the request again and a new action leads to sending: both are fenced (components/RoleFence),
// so a person whose role changed while the outcome is shown cannot use them; closing is not.

import type { ReactNode, RefObject } from 'react';

import { ErrorNotice, Notice } from '../components/Notice';
import { FencedButton } from '../components/RoleFence';
import type { MoneyAction } from './useMoneyAction';

type Entry = NonNullable<MoneyAction<{ clientOrderId: string }>['entry']>;

/** What a screen may say in its own words; the money screens' words otherwise. */
export interface OutcomeWords {
  /** While the request is on its way. */
  sending: ReactNode;
  /** Above the reason the gateway (or main) refused it. */
  refusedTitle: string;
  /** Above the error that lost the answer, and what happens next. */
  lostTitle: string;
  lostHint: ReactNode;
  askAgain: string;
  /** Said when the action id had been sent before (null: the entry's words say it). */
  replayed: ReactNode;
}

export function ActionOutcome<Req extends { clientOrderId: string }>({
  action,
  what,
  approved,
  newLabel,
  newWhen = 'closed',
  onNew,
  close,
  waiting,
  words,
  entryWords,
  focusRef,
  className = 'card money-outcome',
}: {
  action: MoneyAction<Req>;
  /** "The payout", "The card reference"... */
  what: string;
  /** Shown when the action ended approved (or checked): what it made, with its ids. */
  approved?: ReactNode;
  /** The button that starts a new action once this one is closed (fenced). */
  newLabel?: string;
  /** When it shows: once the action is closed, or only after a refusal (change and send again). */
  newWhen?: 'closed' | 'refused';
  /** Instead of action.startOver (e.g. also forgets a typed card number). */
  onNew?: () => void;
  /**
   * A panel that closes instead ("Back to the list", "Done"): closing sends nothing, so never
   * fenced. `whileOpen` labels it before the action is closed too (Orders' "Close").
   */
  close?: { label: string; onClose: () => void; whileOpen?: string };
  /** The action's own part is done once the gateway has it (a link waits for its customer): these words then. */
  waiting?: string;
  words?: Partial<OutcomeWords>;
  /** The entry's state in the screen's words (Orders names the amount) instead of these. */
  entryWords?: (entry: Entry) => ReactNode;
  /** Takes the focus when the screen moves it to the outcome. */
  focusRef?: RefObject<HTMLElement | null>;
  className?: string;
}) {
  const { phase, entry } = action;
  const done = action.settled || (waiting !== undefined && entry?.state === 'acknowledged');
  if (phase === 'edit' || phase === 'confirm') return null;
  // A lost answer the gateway has since settled is no longer lost.
  const lost = phase === 'lost' && !action.settled;
  const refusedNow =
    phase === 'refused' || (newWhen === 'refused' && action.settled && entry?.state === 'refused');
  const offerNew = newWhen === 'refused' ? refusedNow : phase === 'refused' || done;
  const closed = phase === 'refused' || done;
  const replayed =
    words?.replayed === undefined ? (
      <p className="field-hint">Already recorded: nothing was sent again.</p>
    ) : (
      words.replayed
    );
  return (
    <section
      className={className}
      aria-live="polite"
      aria-label="Outcome"
      ref={focusRef}
      tabIndex={focusRef ? -1 : undefined}
    >
      {phase === 'sending' &&
        (words?.sending ?? <Notice kind="info">Sending… {what} is in the journal first.</Notice>)}
      {phase === 'refused' && (
        <ErrorNotice
          error={action.sendError}
          title={words?.refusedTitle ?? `${what} was refused; nothing was processed:`}
        />
      )}
      {lost && (
        <>
          <ErrorNotice
            error={action.sendError}
            title={words?.lostTitle ?? `${what} may have reached the gateway; its answer was lost:`}
          />
          <p>
            {words?.lostHint ??
              'Paydesk asks the gateway for its status and sends nothing again. It shows as pending until the gateway answers.'}
          </p>
        </>
      )}
      {entry &&
        (phase === 'sent' || phase === 'lost') &&
        (waiting !== undefined && entry.state === 'acknowledged' ? (
          <Notice kind="success">{waiting}</Notice>
        ) : entryWords ? (
          entryWords(entry)
        ) : (
          <EntryWords entry={entry} what={what} approved={approved} />
        ))}
      {action.replayed && phase === 'sent' && replayed}
      <div className="button-row">
        {lost && (
          <FencedButton onClick={() => void action.askAgain()}>
            {words?.askAgain ?? 'Ask the gateway again'}
          </FencedButton>
        )}
        {offerNew && newLabel !== undefined && (
          <FencedButton className="primary" onClick={onNew ?? action.startOver}>
            {newLabel}
          </FencedButton>
        )}
        {close && phase !== 'sending' && (closed || close.whileOpen !== undefined) && (
          <button type="button" className={closed ? 'primary' : undefined} onClick={close.onClose}>
            {closed ? close.label : close.whileOpen}
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
  entry: Entry;
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
