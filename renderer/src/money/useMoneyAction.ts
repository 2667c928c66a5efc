// The renderer's half of the one action path, for every screen that moves money or registers
// something (Orders' capture, void, refund and cancel, payouts, card references, rebill,
// subscriptions, payment links). The phases are written once here: an action id fetched when
// the form opens; every field checked before the confirmation opens (all problems at once);
// the confirmation; the send; and, after a failure, what main marked about it (api.ts
// sendFailure): nothing sent (back to the form, same id), refused (a new id for a new attempt)
// or may have reached the gateway (only "Try again", the same id: main asks the gateway first,
// so a lost answer never becomes a second payment). Nothing is retried without a person
// pressing a button.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';

import type { JournalRow } from '../../../common/contract';
import { BridgeError, errorMessage, paydesk, sendFailure, unwrap } from '../api';
import { keys } from '../queries';
import type { Checked, Problems } from './checks';
import { SETTLED_STATES, useJournalEntry } from './journal-entry';

export type Phase = 'edit' | 'confirm' | 'sending' | 'sent' | 'lost' | 'refused';

export interface MoneyAction<Req> {
  clientOrderId: string | undefined;
  phase: Phase;
  /** What was confirmed and sent (kept for "Ask again", which sends the same id). */
  request: Req | undefined;
  entry: JournalRow | undefined;
  replayed: boolean;
  /** An error that stopped the action before anything was sent, and the field it names. */
  stopped: { error: unknown; field?: string } | undefined;
  /** The error of a send whose outcome is unknown or closed. */
  sendError: unknown;
  settled: boolean;
  /** A request may be in flight: the screen keeps this action on screen. */
  busy: boolean;
  /** Problems of the last check, by field, and a field main named when it stopped the send. */
  problems: Problems;
  /** The problem to show beside a field known by any of these names. */
  problemOf: (...names: string[]) => string | undefined;
  /** The form's check: opens the confirmation, or shows every problem; true when it opened. */
  submit: (checked: Checked<Req>) => boolean;
  /** Forgets the problem of a field the clerk is correcting. */
  clearProblem: (name: string) => void;
  review: (request: Req) => void;
  back: () => void;
  confirm: () => Promise<void>;
  /** The answer was lost: ask again with the same action id (main asks the gateway, never resends). */
  askAgain: () => Promise<void>;
  /** After the gateway's final word: a new action with a new id. */
  startOver: () => void;
}

export function useMoneyAction<Req extends { clientOrderId: string }>(
  send: (request: Req) => Promise<{ entry: JournalRow; replayed: boolean }>,
): MoneyAction<Req> {
  const queryClient = useQueryClient();
  const [clientOrderId, setClientOrderId] = useState<string>();
  const [round, setRound] = useState(0);
  const [phase, setPhase] = useState<Phase>('edit');
  const [request, setRequest] = useState<Req>();
  const [result, setResult] = useState<{ entry: JournalRow; replayed: boolean }>();
  const [stopped, setStopped] = useState<{ error: unknown; field?: string }>();
  const [sendError, setSendError] = useState<unknown>();
  const [problems, setProblems] = useState<Problems>({});

  useEffect(() => {
    let live = true;
    unwrap(paydesk().orders.openAction({}))
      .then((opened) => {
        if (live) setClientOrderId(opened.clientOrderId);
      })
      .catch((error: unknown) => {
        if (live) setStopped({ error });
      });
    return () => {
      live = false;
    };
  }, [round]);

  // A mutation, so a refusal by the journal's store re-reads the role (queryClient.ts).
  const { mutateAsync } = useMutation({ mutationFn: send });

  const followed = useJournalEntry(
    request?.clientOrderId,
    result?.entry,
    phase === 'sent' || phase === 'lost',
  );
  const entry = followed.data ?? result?.entry;
  const settled = entry ? SETTLED_STATES.has(entry.state) : false;

  // The final word and the figures it changes are shown together: the orders are read again
  // the moment the entry settles.
  useEffect(() => {
    if (settled) void queryClient.invalidateQueries({ queryKey: keys.orders });
  }, [settled, queryClient]);

  const run = useCallback(
    async (toSend: Req) => {
      setPhase('sending');
      setSendError(undefined);
      setStopped(undefined);
      try {
        setResult(await mutateAsync(toSend));
        setPhase('sent');
      } catch (error) {
        const failure = sendFailure(error);
        if (failure === 'stopped') {
          setPhase('edit');
          setStopped({
            error,
            ...(error instanceof BridgeError && error.field ? { field: error.field } : {}),
          });
        } else if (failure === 'closed') {
          setSendError(error);
          setPhase('refused');
        } else {
          // The answer was lost (or the gateway failed): whether it was processed is unknown.
          setSendError(error);
          setPhase('lost');
        }
      } finally {
        void queryClient.invalidateQueries({ queryKey: keys.journal });
        void queryClient.invalidateQueries({ queryKey: keys.orders });
      }
    },
    [mutateAsync, queryClient],
  );

  const review = useCallback((candidate: Req) => {
    setStopped(undefined);
    setProblems({});
    setRequest(candidate);
    setPhase('confirm');
  }, []);

  const submit = useCallback(
    (checked: Checked<Req>) => {
      if (checked.problems) {
        setStopped(undefined);
        setProblems(checked.problems);
        return false;
      }
      review(checked.request);
      return true;
    },
    [review],
  );

  const problemOf = (...names: string[]) => {
    for (const name of names) {
      const problem = problems[name];
      if (problem) return problem;
    }
    return fieldError(stopped, ...names);
  };

  return {
    clientOrderId,
    phase,
    request,
    entry,
    replayed: result?.replayed ?? false,
    stopped,
    sendError,
    settled,
    busy: phase === 'sending' || ((phase === 'sent' || phase === 'lost') && !settled),
    problems,
    problemOf,
    submit,
    clearProblem: (name) => {
      setProblems((previous) => {
        if (previous[name] === undefined) return previous;
        const next = { ...previous };
        delete next[name];
        return next;
      });
      setStopped((previous) => (previous?.field === name ? undefined : previous));
    },
    review,
    back: () => setPhase('edit'),
    confirm: async () => {
      if (request) await run(request);
    },
    askAgain: async () => {
      if (request) await run(request);
    },
    startOver: () => {
      setClientOrderId(undefined);
      setRound((n) => n + 1);
      setRequest(undefined);
      setResult(undefined);
      setSendError(undefined);
      setStopped(undefined);
      setProblems({});
      setPhase('edit');
    },
  };
}

/** The message of a stopped action for one field, if it names that field. */
export function fieldError(
  stopped: { error: unknown; field?: string } | undefined,
  ...fields: string[]
): string | undefined {
  return stopped?.field && fields.includes(stopped.field) ? errorMessage(stopped.error) : undefined;
}
