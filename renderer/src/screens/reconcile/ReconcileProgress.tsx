// How far a reconciliation has come: a bar of the lines read of all its lines, what they found,
// the rate since this process took the run up and the time left at that rate.

import type { ReconcileRunData } from '../../../../common/reconcile-contract';
import { formatCount } from '../../format';

function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ${seconds % 60} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

export function ReconcileProgress({ run }: { run: ReconcileRunData }) {
  const p = run.progress;
  return (
    <div className="reconcile-progress">
      <progress
        max={Math.max(p.total, 1)}
        value={p.done}
        aria-label={`${p.done} of ${p.total} lines read`}
      />
      <p aria-live="polite">
        read {formatCount(p.done)} of {formatCount(p.total)} ·{' '}
        <span className="reconcile-agrees">agree {formatCount(p.agrees)}</span> ·{' '}
        <span className="reconcile-differs">disagree {formatCount(p.differs)}</span> · could not be
        read {formatCount(p.unreadable)}
        {p.notAskable > 0 && <> · cannot be asked {formatCount(p.notAskable)}</>} · left{' '}
        {formatCount(p.left)}
        {run.state === 'running' && p.ratePerSecond !== null && (
          <> · {p.ratePerSecond.toFixed(1)} lines/s</>
        )}
        {run.state === 'running' && p.secondsLeft !== null && p.left > 0 && (
          <> · about {duration(p.secondsLeft)} left</>
        )}
      </p>
    </div>
  );
}
