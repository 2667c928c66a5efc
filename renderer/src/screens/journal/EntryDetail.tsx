// One journal entry in full, for an audit or a call with the gateway's support: every field,
// the request as it was sent (redacted: card numbers masked, no secret is ever stored), and
// every answer in the order it came. Nothing here can be edited.

import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';

import { isOpenLink } from '../../../../common/journal-actions';
import { groupThousands } from '../../../../common/money';
import { localTimeWithOffset } from '../../../../common/time';
import { paydesk, unwrap } from '../../api';
import { ErrorNotice } from '../../components/Notice';
import { RoleFence } from '../../components/RoleFence';
import { keys } from '../../queries';
import { SettleByHand } from './SettleByHand';

const STATE_WORDS: Record<string, string> = {
  sending: 'Written, being sent',
  acknowledged: 'Acknowledged by the gateway, processing',
  unknown: 'Answer lost: being checked with the gateway',
  final: 'Final',
  refused: 'Refused by the gateway: nothing was processed',
};

/** An open payment link's state: the gateway made the link; nothing moves until the customer pays. */
const OPEN_LINK_WORDS = 'Open link: waiting for the customer to pay (no money has moved)';

/** States still owed the gateway's final word: only these may be settled by hand. */
const IN_FLIGHT = ['sending', 'acknowledged', 'unknown'];

export function EntryDetail({
  clientOrderId,
  onClose,
}: {
  clientOrderId: string;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const detail = useQuery({
    queryKey: [...keys.journal, 'entry', clientOrderId],
    queryFn: () => unwrap(paydesk().journal.entry({ clientOrderId })),
  });

  useEffect(() => {
    const element = dialog.current;
    if (!element) return undefined;
    // Focus goes back to what opened the entry (its row's button) when it closes.
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal();
    closeButton.current?.focus();
    return () => {
      if (element.open) element.close();
      opener?.focus();
    };
  }, []);

  const d = detail.data;
  const row = d?.row;
  const facts: [string, string | null | undefined][] = row
    ? [
        ['What the clerk did', row.actionLabel],
        ['Gateway operation', row.operation],
        ['Shop order id (target)', row.targetClientOrderId],
        ['orderid (target)', row.targetOrderId],
        ['Customer e-mail', row.email],
        [
          'Amount',
          row.amount ? `${groupThousands(row.amount)} ${row.currency ?? ''}`.trim() : null,
        ],
        ['Reason', row.reason],
        ['Note', row.note],
        ['Operator', row.operator],
        ['Profile', `${row.profileName} (${row.profileId})`],
        ['Card', row.cardLastFour ? `ending ${row.cardLastFour}` : null],
        ['Action id (client_orderid)', row.clientOrderId],
        ['Its own orderid', row.orderId],
        ['State', isOpenLink(row) ? OPEN_LINK_WORDS : (STATE_WORDS[row.state] ?? row.state)],
        ['Gateway status', row.status],
        ['Error', [d.errorCode, row.errorMessage].filter(Boolean).join(': ') || null],
        ['Written', localTimeWithOffset(row.createdAt)],
        ['Last change', localTimeWithOffset(d.updatedAt)],
        ['Final at', row.finalAt ? localTimeWithOffset(row.finalAt) : null],
        [
          'Settled by hand',
          d.settledBy ? `by ${d.settledBy}: ${d.settleReason ?? ''}`.trim() : null,
        ],
        // Only on a team journal's uploaded entry: the operator above is the login that
        // uploaded it; this is what the desk itself had recorded.
        ...(d.uploaded
          ? [
              [
                'Uploaded from a desk',
                `${d.uploaded.desk}, ${localTimeWithOffset(d.uploaded.at)}; recorded there as ${d.uploaded.recordedOperator}${
                  d.uploaded.recordedSettledBy
                    ? `, settled by hand there by ${d.uploaded.recordedSettledBy}`
                    : ''
                }`,
              ] as [string, string],
            ]
          : []),
      ]
    : [];

  return (
    <dialog
      ref={dialog}
      className="entry-detail"
      aria-labelledby="entry-detail-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id="entry-detail-title">
        Journal entry {row ? `${row.actionLabel} ${row.clientOrderId}` : clientOrderId}
      </h2>
      {detail.error && <ErrorNotice error={detail.error} title="The entry could not be read:" />}
      {detail.isLoading && <p role="status">Reading the entry…</p>}
      {d && (
        <>
          <dl className="entry-facts">
            {facts.map(([label, value]) => (
              <div key={label}>
                <dt>{label}</dt>
                <dd>{value ?? '—'}</dd>
              </div>
            ))}
          </dl>
          {IN_FLIGHT.includes(row?.state ?? '') && (
            <RoleFence need="money">
              <SettleByHand key={row?.state} clientOrderId={clientOrderId} />
            </RoleFence>
          )}
          <h3>Request as sent (redacted)</h3>
          <table className="data entry-request">
            <tbody>
              {Object.entries(d.request).map(([name, value]) => (
                <tr key={name}>
                  <th scope="row" className="mono">
                    {name}
                  </th>
                  <td className="mono">{value}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>Answers, in order</h3>
          <ol className="entry-history">
            {d.history.map((h, index) => (
              <li key={index}>
                <span className="mono">{localTimeWithOffset(h.at)}</span>{' '}
                {STATE_WORDS[h.state] ?? h.state}
                {h.status ? `: ${h.status}` : ''}
                {h.orderId ? ` (orderid ${h.orderId})` : ''}
                {h.errorMessage ? ` — ${h.errorMessage}` : ''}
                {h.errorCode ? ` [${h.errorCode}]` : ''}
              </li>
            ))}
          </ol>
        </>
      )}
      <div className="button-row">
        <button ref={closeButton} type="button" onClick={onClose}>
          Close
        </button>
      </div>
    </dialog>
  );
}
