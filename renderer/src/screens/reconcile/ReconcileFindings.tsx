// The lines of a reconciliation a controller reads: every disagreement and every line that could
// not be read, each with what the journal held, what the gateway says, and a link to its order's
// page, and an unsettled entry the gateway knows to its Journal entry, where a person settles it
// by hand (the reconciliation itself settles nothing).

import { actionLabel } from '../../../../common/journal-actions';
import type { ReconcileLineData } from '../../../../common/reconcile-contract';
import { localTimeWithOffset } from '../../../../common/time';
import { hrefOf, orderHref } from '../../route';

export function ReconcileFindings({
  lines,
  profileId,
}: {
  lines: readonly ReconcileLineData[];
  /** The run's profile: each order's page opens on it. */
  profileId: string;
}) {
  if (lines.length === 0) return <p className="reconcile-none">No disagreement so far.</p>;
  return (
    <div className="reconcile-findings" role="region" aria-label="Disagreements" tabIndex={0}>
      <table>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Order</th>
            <th scope="col">Action or shop id</th>
            <th scope="col">Operation</th>
            <th scope="col">Journal</th>
            <th scope="col">Gateway</th>
            <th scope="col">Finding</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l) => (
            <tr
              key={l.seq}
              className={l.state === 'unreadable' ? 'reconcile-unreadable' : undefined}
            >
              <td className="num">{l.seq}</td>
              <td className="mono reconcile-order">
                {l.orderId ? (
                  <a href={orderHref(profileId, l.orderId)} aria-label={`Open order ${l.orderId}`}>
                    {l.orderId}
                  </a>
                ) : (
                  '—'
                )}
              </td>
              <td
                className="mono"
                title={l.createdAt ? `Written ${localTimeWithOffset(l.createdAt)}` : undefined}
              >
                {l.clientOrderId ?? '—'}
              </td>
              <td>
                {l.kind === 'order' ? 'the order' : actionLabel(l.action, l.operation ?? '—')}
              </td>
              <td>{l.journal}</td>
              <td>{l.gateway ?? (l.state === 'unreadable' ? 'not read' : 'no record')}</td>
              <td>
                {l.state === 'unreadable' ? (
                  <span>Could not be read. {l.error}</span>
                ) : (
                  <ul>
                    {l.findings.map((f) => (
                      <li key={f.kind}>
                        {f.message}
                        {f.kind === 'now-known' && l.clientOrderId && (
                          <span className="reconcile-hint">
                            {' '}
                            <a
                              href={hrefOf({
                                screen: 'journal',
                                param: `entry:${l.clientOrderId}`,
                              })}
                            >
                              Open its journal entry
                            </a>
                            .
                          </span>
                        )}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
