// The batches this desk loaded for the active profile, newest first: any of them opens to show
// its rows and save its result file. Opening only reads, so whoever may not send (support, or a
// read-only database) still looks back at what was sent and saves the results.

import type { BatchViewData } from '../../../../common/contract';
import { localTimeWithOffset } from '../../../../common/time';

const STATE_WORDS: Record<BatchViewData['state'], string> = {
  ready: 'checked, not started',
  running: 'running',
  paused: 'paused',
  cancelled: 'cancelled',
  done: 'done',
};

export function EarlierBatches({
  batches,
  openId,
  onOpen,
}: {
  batches: BatchViewData[];
  openId: number | undefined;
  onOpen: (batchId: number) => void;
}) {
  if (batches.length === 0) return null;
  return (
    <section className="card batch-earlier" aria-labelledby="batch-earlier-title">
      <h2 id="batch-earlier-title">Batches on this desk</h2>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">Batch</th>
            <th scope="col">File</th>
            <th scope="col">Loaded</th>
            <th scope="col">State</th>
            <th scope="col" className="num">
              Finished
            </th>
            <th scope="col">
              <span className="visually-hidden">Open</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {batches.map((b) => {
            const toSend = b.progress.total - b.progress.invalid;
            return (
              <tr key={b.id} aria-current={b.id === openId ? 'true' : undefined}>
                <td>{b.id}</td>
                <td>{b.fileName}</td>
                <td className="nowrap">{localTimeWithOffset(b.createdAt)}</td>
                <td>
                  {b.stopping === 'pause'
                    ? 'pausing'
                    : b.stopping === 'cancel'
                      ? 'cancelling'
                      : STATE_WORDS[b.state]}
                </td>
                <td className="num">
                  {b.progress.done + b.progress.failed} of {toSend}
                </td>
                <td>
                  {b.id === openId ? (
                    <span className="field-hint">open above</span>
                  ) : (
                    <button type="button" onClick={() => onOpen(b.id)}>
                      Open batch {b.id}
                    </button>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
