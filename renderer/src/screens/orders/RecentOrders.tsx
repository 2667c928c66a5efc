// Orders this desk looked up or acted on, newest first, so support finds an order again without
// its exact id: type part of the shop's id, the orderid or the e-mail, or the card's last four
// digits. Each row opens the order.

import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useId, useState } from 'react';

import { localTimeWithOffset } from '../../../../common/time';
import { paydesk, unwrap } from '../../api';
import { ErrorNotice } from '../../components/Notice';
import type { ProfileView } from '../../profile-context';
import { keys } from '../../queries';
import { hrefOf } from '../../route';
import { showMoney } from './money';
import { refParam } from './ref';

export function RecentOrders({ profile }: { profile: ProfileView }) {
  const ids = useId();
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query.trim());
  const recent = useQuery({
    queryKey: [...keys.orders, 'recent', profile.id, deferred],
    queryFn: () =>
      unwrap(
        paydesk().orders.recent({
          profileId: profile.id,
          ...(deferred ? { query: deferred } : {}),
        }),
      ),
    // Every lookup adds to the list: coming back to this screen reads it anew.
    refetchOnMount: 'always',
  });
  const rows = recent.data ?? [];

  return (
    <section className="card recent-orders" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Recent orders</h2>
      <div className="field">
        <label htmlFor={`${ids}-filter`}>Find a recent order</label>
        <input
          id={`${ids}-filter`}
          type="search"
          value={query}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={`${ids}-hint`}
          onChange={(e) => setQuery(e.target.value)}
        />
        <span id={`${ids}-hint`} className="field-hint">
          Part of the shop’s order id, the orderid or the e-mail, or the card’s last four digits.
          Orders looked up or acted on at this desk, newest first.
        </span>
      </div>
      {recent.error && <ErrorNotice error={recent.error} title="Recent orders:" />}
      {recent.isSuccess && rows.length === 0 && (
        <p className="field-hint" role="status">
          {deferred
            ? `No recent order matches “${deferred}”.`
            : 'No orders looked up yet on this profile.'}
        </p>
      )}
      {rows.length > 0 && (
        <table className="data recent-table">
          <thead>
            <tr>
              <th scope="col">Shop order id</th>
              <th scope="col">orderid</th>
              <th scope="col">E-mail</th>
              <th scope="col">Card</th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col">State</th>
              <th scope="col">Last seen</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.orderId}>
                <td className="mono">{r.clientOrderId ?? '—'}</td>
                <td className="mono">
                  <a
                    href={hrefOf({
                      screen: 'lookup',
                      param: refParam({ kind: 'orderid', value: r.orderId }),
                    })}
                    aria-label={`Open order ${r.orderId}${r.clientOrderId ? ` (${r.clientOrderId})` : ''}`}
                  >
                    {r.orderId}
                  </a>
                </td>
                <td>{r.email ?? '—'}</td>
                <td className="mono">{r.lastFour ? `•••• ${r.lastFour}` : '—'}</td>
                <td className="num money">
                  {r.amount ? `${showMoney(r.amount)} ${r.currency ?? ''}` : '—'}
                </td>
                <td>{r.stateLabel ?? '—'}</td>
                <td className="nowrap">{localTimeWithOffset(r.seenAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
