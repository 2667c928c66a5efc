// Every row of a batch: what the file asks, the problem that keeps it from being sent (or a
// warning), and, once it ran, its final status or error.

import type { BatchRowData } from '../../../../common/contract';

const STATE_WORDS: Record<BatchRowData['state'], string> = {
  invalid: 'not sent',
  ready: 'waiting',
  sending: 'sending',
  done: 'done',
  failed: 'failed',
  cancelled: 'cancelled',
};

export function BatchRows({ rows }: { rows: BatchRowData[] }) {
  const problems = rows.filter((r) => r.problem).length;
  return (
    <div className="batch-rows">
      {problems > 0 && (
        <p className="batch-invalid" role="status">
          {problems} {problems === 1 ? 'row has a problem' : 'rows have a problem'} and will not be
          sent. Fix the file and load it again to send them.
        </p>
      )}
      <table>
        <thead>
          <tr>
            <th scope="col">Line</th>
            <th scope="col">Operation</th>
            <th scope="col">Order</th>
            <th scope="col">Amount</th>
            <th scope="col">State</th>
            <th scope="col">Problem, status or error</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.line} className={`batch-row batch-row-${r.state}`}>
              <td>{r.line}</td>
              <td>{r.operation}</td>
              <td className="mono">{r.orderid ?? r.clientOrderId ?? ''}</td>
              <td className="amount">{r.amount ? `${r.amount} ${r.currency ?? ''}` : ''}</td>
              <td>{STATE_WORDS[r.state]}</td>
              <td>
                {r.problem ?? r.error ?? r.status ?? ''}
                {r.warning && !r.problem && <span className="batch-warning"> {r.warning}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
