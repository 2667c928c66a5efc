// How far a batch has come: a bar of the rows finished of the rows to send, done / failed /
// left, the rate since this run started and the time left at that rate.

import type { BatchViewData } from '../../../../common/contract';

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function BatchProgress({ view }: { view: BatchViewData }) {
  const { progress } = view;
  const toSend = progress.total - progress.invalid;
  const finished = progress.done + progress.failed + progress.cancelled;
  return (
    <div className="batch-progress">
      <progress
        max={Math.max(toSend, 1)}
        value={finished}
        aria-label={`${finished} of ${toSend} rows finished`}
      />
      <p aria-live="polite">
        <span className="batch-done">done {progress.done}</span> ·{' '}
        <span className="batch-failed">failed {progress.failed}</span> · left {progress.left}
        {progress.cancelled > 0 && <> · cancelled {progress.cancelled}</>}
        {progress.ratePerSecond !== null && <> · {progress.ratePerSecond.toFixed(1)} rows/s</>}
        {progress.secondsLeft !== null && progress.left > 0 && (
          <> · about {duration(progress.secondsLeft)} left</>
        )}
      </p>
    </div>
  );
}
