// Reports -> Daily close (finance): for a range of days in the desk's time zone and a profile or
// all, what was captured, refunded, voided, paid out and rebilled, per currency, per day and by
// operator. Main's store groups and sums (SQLite or the team's PostgreSQL); this screen only rolls
// those lines up with bigint, one currency at a time. Only what the gateway approved is summed as
// done; failures are counted apart, and operations still waiting make every figure "at least".
// The charts' library (chart.js) is a chunk of its own, loaded once there is something to draw.

import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState, type FormEvent } from 'react';

import type { ReportRequestData } from '../../../../common/report-contract';
import { paydesk, unwrap } from '../../api';
import { ErrorNotice, Notice } from '../../components/Notice';
import { useActiveProfile } from '../../profile-context';
import { linesOf } from './figures';
import { ReportCharts } from './ReportCharts';
import { ByOperator, PerDay, Totals, Waiting } from './ReportTables';
import './reports.css';

const pad = (n: number) => String(n).padStart(2, '0');
const dayText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** This month so far, in the desk's time zone. */
function thisMonth(): { from: string; to: string } {
  const today = new Date();
  return {
    from: dayText(new Date(today.getFullYear(), today.getMonth(), 1)),
    to: dayText(today),
  };
}

export function ReportsScreen() {
  const ids = useId();
  const { profiles } = useActiveProfile();
  const [form, setForm] = useState(() => ({ ...thisMonth(), profileId: '' }));
  const [asked, setAsked] = useState<ReportRequestData>(() => thisMonth());
  const report = useQuery({
    queryKey: ['reports', 'summary', asked],
    queryFn: () => unwrap(paydesk().reports.summary(asked)),
  });
  const lines = useMemo(() => (report.data ? linesOf(report.data.lines) : []), [report.data]);
  const profileName = (id: string | null | undefined) =>
    id ? (profiles.find((p) => p.id === id)?.name ?? id) : 'every profile';

  // Saving asks main for a file name (its save dialog) and writes the same summary as CSV.
  const save = useMutation({
    mutationFn: (request: ReportRequestData) => unwrap(paydesk().reports.exportCsv(request)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.reset();
    setAsked({
      from: form.from,
      to: form.to,
      ...(form.profileId ? { profileId: form.profileId } : {}),
    });
  };

  return (
    <div className="reports-screen">
      <h1>Reports</h1>
      <nav className="report-tabs" aria-label="Reports">
        <a href="#/reports" aria-current="page">
          Daily close
        </a>
        <a href="#/reconcile">Reconciliation</a>
      </nav>
      <p className="screen-intro">
        What was captured, refunded, voided, paid out and rebilled, from the journal: per currency,
        per day and by operator. Only what the gateway approved is counted as done; failures are
        counted apart; operations still waiting for the gateway make the figures “at least”.
      </p>
      <form className="card report-form" aria-label="Report range" onSubmit={submit}>
        <div className="field">
          <label htmlFor={`${ids}-from`}>From</label>
          <input
            id={`${ids}-from`}
            type="date"
            required
            value={form.from}
            onChange={(e) => setForm({ ...form, from: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-to`}>To</label>
          <input
            id={`${ids}-to`}
            type="date"
            required
            value={form.to}
            onChange={(e) => setForm({ ...form, to: e.target.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-profile`}>Profile</label>
          <select
            id={`${ids}-profile`}
            value={form.profileId}
            onChange={(e) => setForm({ ...form, profileId: e.target.value })}
          >
            <option value="">All profiles</option>
            {profiles.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <div className="button-row">
          <button type="submit" className="primary">
            Show
          </button>
          <button
            type="button"
            onClick={() => save.mutate(asked)}
            disabled={!report.data || save.isPending}
          >
            Save as CSV…
          </button>
        </div>
      </form>
      {save.data?.saved && (
        <Notice kind="success">Saved to {save.data.path ?? 'the file you chose'}.</Notice>
      )}
      {save.error && <ErrorNotice error={save.error} title="The report was not saved:" />}
      {report.error && <ErrorNotice error={report.error} title="The report could not be made:" />}
      {report.isPending && <p className="screen-loading">Counting…</p>}
      {report.data && (
        <>
          <p className="report-scope" role="status">
            {report.data.from} to {report.data.to}, days in {report.data.zone},{' '}
            {profileName(report.data.profileId)}.
          </p>
          {lines.length === 0 ? (
            <Notice kind="info">
              Nothing was captured, refunded, voided, paid out or rebilled in these days.
            </Notice>
          ) : (
            <>
              <Waiting lines={lines} />
              <Totals lines={lines} />
              <ReportCharts lines={lines} from={report.data.from} to={report.data.to} />
              <PerDay lines={lines} />
              <ByOperator lines={lines} />
            </>
          )}
        </>
      )}
    </div>
  );
}
