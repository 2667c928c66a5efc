// Settling by hand: for an entry Paydesk cannot settle itself (the gateway still has no record
// of it after the quarantine, or it stays processing), a person who has the answer from
// elsewhere (the gateway's support, the merchant portal) writes it down with a reason. The
// journal keeps who did it and why. "Not received" lets the same money be sent again, so the
// form says so and asks for a second, deliberate click naming the outcome.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';

import { paydesk, unwrap } from '../../api';
import { ErrorNotice, Notice } from '../../components/Notice';
import { FencedButton, FencedForm } from '../../components/RoleFence';
import { keys } from '../../queries';

type Outcome = 'approved' | 'not-received';

const OUTCOME_WORDS: Record<Outcome, string> = {
  approved: 'Approved: the gateway processed it',
  'not-received': 'Not received: the gateway never processed it',
};

export function SettleByHand({ clientOrderId }: { clientOrderId: string }) {
  const ids = useId();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [reason, setReason] = useState('');
  const [reviewing, setReviewing] = useState(false);
  const settle = useMutation({
    mutationFn: () =>
      unwrap(
        paydesk().journal.settleByHand({
          clientOrderId,
          outcome: outcome ?? 'approved',
          reason,
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: keys.journal });
      void queryClient.invalidateQueries({ queryKey: keys.orders });
    },
  });

  // Settled: the entry's detail, read again, shows who settled it and why.
  if (settle.isSuccess) return null;
  if (!open)
    return (
      <div className="settle-by-hand">
        <p>
          Paydesk is still waiting for the gateway’s final word on this entry and keeps asking. If
          you know the outcome from elsewhere (the gateway’s support, its merchant portal), you can
          settle it by hand.
        </p>
        <FencedButton onClick={() => setOpen(true)}>Settle by hand…</FencedButton>
      </div>
    );
  const missing = !outcome ? 'Choose the outcome.' : !reason.trim() ? 'Write your reason.' : null;
  return (
    <FencedForm
      className="settle-by-hand"
      aria-label="Settle by hand"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (missing) return;
        if (!reviewing) setReviewing(true);
        else settle.mutate();
      }}
    >
      <fieldset disabled={settle.isPending}>
        <legend>What the gateway did with it</legend>
        {(Object.keys(OUTCOME_WORDS) as Outcome[]).map((o) => (
          <label key={o}>
            <input
              type="radio"
              name={`${ids}-outcome`}
              checked={outcome === o}
              onChange={() => {
                setOutcome(o);
                setReviewing(false);
              }}
            />
            {OUTCOME_WORDS[o]}
          </label>
        ))}
      </fieldset>
      <label htmlFor={`${ids}-reason`}>Your reason (who told you, when)</label>
      <textarea
        id={`${ids}-reason`}
        value={reason}
        maxLength={500}
        rows={2}
        disabled={settle.isPending}
        onChange={(event) => {
          setReason(event.target.value);
          setReviewing(false);
        }}
      />
      {reviewing && outcome === 'not-received' && (
        <Notice kind="warning">
          Settled as not received, this amount counts as never sent: the order’s figures free it and
          a new action may send the same money again. Settle so only if the gateway confirmed it has
          no such transaction.
        </Notice>
      )}
      {reviewing && outcome === 'approved' && (
        <Notice kind="warning">
          Settled as approved, this entry counts as done at the gateway in every figure.
        </Notice>
      )}
      {settle.error && <ErrorNotice error={settle.error} title="Not settled:" />}
      <div className="button-row">
        <button type="submit" disabled={Boolean(missing) || settle.isPending}>
          {reviewing
            ? `Yes, settle as ${outcome === 'approved' ? 'approved' : 'not received'}`
            : 'Review…'}
        </button>
        <button type="button" onClick={() => setOpen(false)} disabled={settle.isPending}>
          Cancel
        </button>
      </div>
      {missing && <p className="hint">{missing}</p>}
    </FencedForm>
  );
}
