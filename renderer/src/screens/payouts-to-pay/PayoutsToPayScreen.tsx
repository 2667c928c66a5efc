// Payouts to pay (finance): every payout checked (v4 PAYOUT_V4_CHECK) and not paid yet, with
// who checked it and when, so none is forgotten. Paying is a separate, deliberate act; main
// refuses a second pay of the same payout, from this window or any other.

import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';

import type { CheckedPayout } from '../../../../common/contract';
import { localTimeWithOffset } from '../../../../common/time';
import { paydesk, unwrap } from '../../api';
import { ConfirmDialog, typeTheAmount, typeTheId } from '../../components/ConfirmDialog';
import { ErrorNotice, Notice } from '../../components/Notice';
import { FencedButton } from '../../components/RoleFence';
import { useActiveProfile, type ProfileView } from '../../profile-context';
import { keys } from '../../queries';
import { hrefOf } from '../../route';
import { ActionOutcome } from '../../money/ActionOutcome';
import { useMoneyAction } from '../../money/useMoneyAction';
import '../../money/money.css';

const STATE_WORDS: Record<CheckedPayout['state'], string> = {
  checking: 'Being checked',
  checked: 'Waiting to be paid',
  paying: 'Being paid',
};

const when = localTimeWithOffset;

export function PayoutsToPayScreen() {
  const { active } = useActiveProfile();
  const list = useQuery({
    queryKey: [...keys.journal, 'payouts-to-pay', active?.id ?? ''],
    queryFn: () => unwrap(paydesk().payouts.toPay({ profileId: active?.id ?? '' })),
    enabled: Boolean(active),
    refetchInterval: 5_000,
  });
  const [paying, setPaying] = useState<CheckedPayout>();
  if (!active) return null;
  const rows = list.data ?? [];
  return (
    <div>
      <h1>Payouts to pay</h1>
      <p className="field-hint">
        Payouts checked on <a href={hrefOf({ screen: 'payouts' })}>Payouts</a> and not paid yet.
        Each is paid once.
      </p>
      {!active.hasPrivateKey && (
        <Notice kind="warning">
          Paying is signed with the profile’s RSA key, and “{active.name}” has none. Open{' '}
          <a href={hrefOf({ screen: 'keys' })}>Keys</a> to generate or import one.
        </Notice>
      )}
      {list.error && <ErrorNotice error={list.error} title="The list could not be read:" />}
      {list.isSuccess && rows.length === 0 && (
        <Notice kind="info">No checked payout is waiting to be paid.</Notice>
      )}
      {rows.length > 0 && (
        <table className="data card" aria-label="Checked payouts waiting to be paid">
          <thead>
            <tr>
              <th>Checked</th>
              <th>By</th>
              <th className="num">Amount</th>
              <th>Destination</th>
              <th>Description</th>
              <th>State</th>
              <th>
                <span className="visually-hidden">Action</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.clientOrderId}>
                <td className="nowrap">{when(row.checkedAt)}</td>
                <td className="nowrap">{row.checkedBy}</td>
                <td className="num money nowrap">
                  {row.amount} {row.currency}
                </td>
                <td>{row.destination}</td>
                <td>{row.description}</td>
                <td>{STATE_WORDS[row.state]}</td>
                <td>
                  {row.state === 'checked' && (
                    <FencedButton
                      onClick={() => setPaying(row)}
                      disabled={!active.hasPrivateKey || paying !== undefined}
                      aria-label={`Pay ${row.amount ?? ''} ${row.currency ?? ''} to ${row.destination}`}
                    >
                      Pay…
                    </FencedButton>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {paying && (
        <PayOne
          key={paying.clientOrderId}
          payout={paying}
          profile={active}
          onDone={() => {
            setPaying(undefined);
            void list.refetch();
          }}
        />
      )}
    </div>
  );
}

function PayOne({
  payout,
  profile,
  onDone,
}: {
  payout: CheckedPayout;
  profile: ProfileView;
  onDone: () => void;
}) {
  const action = useMoneyAction(
    (request: { profileId: string; clientOrderId: string; checkClientOrderId: string }) =>
      unwrap(paydesk().payouts.pay(request)),
  );
  const { clientOrderId, review } = action;
  const asked = useRef(false);
  // The pay opens straight on its confirmation, once its action id is known.
  useEffect(() => {
    if (!clientOrderId || asked.current) return;
    asked.current = true;
    review({ profileId: profile.id, clientOrderId, checkClientOrderId: payout.clientOrderId });
  }, [clientOrderId, review, profile.id, payout.clientOrderId]);
  return (
    <>
      {action.stopped && <ErrorNotice error={action.stopped.error} title="Nothing was paid:" />}
      {action.stopped && (
        <button type="button" onClick={onDone}>
          Close
        </button>
      )}
      {action.phase === 'confirm' && (
        <ConfirmDialog
          title="Pay this payout?"
          confirmLabel={`Pay ${payout.amount ?? ''} ${payout.currency ?? ''}`}
          money={{
            production: profile.environment === 'production',
            // A checked payout always has its amount; the id is the fallback of an odd record.
            typed:
              payout.amount && payout.currency
                ? typeTheAmount(payout.amount, payout.currency)
                : typeTheId('the payout id', payout.orderId ?? payout.clientOrderId),
          }}
          onConfirm={() => void action.confirm()}
          onCancel={onDone}
        >
          <p>
            Pay{' '}
            <strong className="money">
              {payout.amount} {payout.currency}
            </strong>{' '}
            to <strong>{payout.destination}</strong>, checked by {payout.checkedBy} at{' '}
            {when(payout.checkedAt)}.
          </p>
          <p>Money leaves the merchant account; a payout is paid once.</p>
        </ConfirmDialog>
      )}
      <ActionOutcome
        action={action}
        what="The payout"
        close={{ label: 'Back to the list', onClose: onDone }}
      />
    </>
  );
}
