// The renderer's half of the one action path, for every screen that moves money or registers
// something (payouts, card references, rebill, subscriptions, payment links). An action id is
// fetched when the form opens and sent on every "Ask again": main then asks the gateway about
// it first, so a lost answer never becomes a second payment. A new id only after the gateway
// closed the last one. Nothing is retried without a person pressing a button.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';

import type { JournalRow } from '../../../common/contract';
import { BridgeError, errorMessage, paydesk, sendFailure, unwrap } from '../api';
import { keys } from '../queries';
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
    setRequest(candidate);
    setPhase('confirm');
  }, []);

  return {
    clientOrderId,
    phase,
    request,
    entry,
    replayed: result?.replayed ?? false,
    stopped,
    sendError,
    settled,
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
