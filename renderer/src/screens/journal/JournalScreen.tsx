// The journal: everything Paydesk sent, searchable, virtualized for 100,000 entries, with the
// totals of what the filter shows beside the list, and exported to CSV with the same filter
// (its totals in a file beside it). #/journal/pending opens it on the entries whose final
// status the gateway still owes (the header's pending counter links there); #/journal/entry:<id>
// on one entry, opened (an order page's timeline links there). The list takes the window's
// height that the form above leaves, and never less than most of it.

import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';

import type { JournalFilterInput } from '../../../../common/contract';
import { paydesk, unwrap } from '../../api';
import { ErrorNotice, Notice } from '../../components/Notice';
import { useActiveProfile } from '../../profile-context';
import { keys } from '../../queries';
import { formatCount, plural } from '../../format';
import { draftOfPreset, entryOfPreset, filterOf, JournalFilters } from './JournalFilters';
import { EntryDetail } from './EntryDetail';
import { JournalList } from './JournalList';
import { JournalTotals } from './JournalTotals';
import './journal.css';

export function JournalScreen({ preset }: { preset?: string }) {
  // A new preset (the pending counter clicked while here) starts a fresh search.
  return <JournalView key={preset ?? ''} {...(preset ? { preset } : {})} />;
}

function JournalView({ preset }: { preset?: string }) {
  const { profiles } = useActiveProfile();
  const initial = draftOfPreset(preset);
  const [filter, setFilter] = useState<JournalFilterInput>(() => {
    const result = filterOf(initial);
    return result.errors ? {} : result.filter;
  });
  const filtered = Object.keys(filter).length > 0;
  const [openEntry, setOpenEntry] = useState<string | undefined>(() => entryOfPreset(preset));

  // The same query the list's first page uses: the count shown here is the list's.
  const count = useQuery({
    queryKey: [...keys.journal, 'search', filter, 0],
    queryFn: () => unwrap(paydesk().journal.search({ filter, offset: 0, limit: 200 })),
    gcTime: 60_000,
  });
  const total = count.data?.total;

  const exportCsv = useMutation({
    mutationFn: (f: JournalFilterInput) => unwrap(paydesk().journal.exportCsv({ filter: f })),
    onMutate: () => resetProgress(),
  });
  const [progress, resetProgress] = useExportProgress(exportCsv.isPending);

  return (
    <section className="journal-screen" aria-labelledby="journal-title">
      <div className="screen-heading">
        <h1 id="journal-title">Journal</h1>
      </div>
      <p className="screen-intro">
        Everything Paydesk sent (captures, voids, refunds, payouts, saved cards, rebills,
        subscriptions, payment links), written before it left and updated with the gateway's
        answers. Entries are never edited or deleted; one still waiting for the gateway can be
        settled by hand, with a reason.
      </p>
      <JournalFilters
        initial={initial}
        profiles={profiles}
        onApply={(next) => {
          // A new search is a new question: the last export's notice no longer applies.
          exportCsv.reset();
          setFilter(next);
        }}
      />
      <div className="journal-toolbar">
        <p className="journal-count" role="status" aria-live="polite">
          {total === undefined
            ? 'Searching…'
            : total === 0
              ? filtered
                ? 'No journal entries match these filters.'
                : 'The journal is empty: Paydesk writes an entry here before every capture, void or refund it sends.'
              : `${plural(total, 'entry', 'entries')}${filtered ? (total === 1 ? ' matches' : ' match') : ''}, newest first`}
        </p>
        <button
          type="button"
          onClick={() => exportCsv.mutate(filter)}
          disabled={exportCsv.isPending || !total}
        >
          {exportCsv.isPending ? 'Exporting…' : 'Export CSV…'}
        </button>
      </div>
      {exportCsv.isPending && progress && (
        <div className="export-progress" role="status">
          <progress
            value={progress.done}
            max={Math.max(1, progress.total)}
            aria-label="CSV export"
          />
          <span>
            {formatCount(progress.done)} of {formatCount(progress.total)} entries written
          </span>
        </div>
      )}
      {exportCsv.data &&
        (exportCsv.data.saved ? (
          <Notice kind="success">
            Exported {plural(exportCsv.data.count, 'entry', 'entries')} to{' '}
            <span className="mono">{exportCsv.data.path ?? 'the chosen file'}</span>
            {exportCsv.data.totalsPath ? (
              <>
                , their totals per currency to{' '}
                <span className="mono">{exportCsv.data.totalsPath}</span>
              </>
            ) : null}
            .
          </Notice>
        ) : (
          <Notice kind="info">Not exported: the save dialog was closed.</Notice>
        ))}
      {exportCsv.error && <ErrorNotice error={exportCsv.error} title="Not exported:" />}
      {total !== 0 && <JournalTotals filter={filter} />}
      {/* A new filter starts at the top of a new list. */}
      {total !== 0 && (
        <div className="journal-list-area">
          <JournalList key={JSON.stringify(filter)} filter={filter} onOpen={setOpenEntry} />
        </div>
      )}
      {openEntry && (
        <EntryDetail clientOrderId={openEntry} onClose={() => setOpenEntry(undefined)} />
      )}
    </section>
  );
}

/** How far the CSV export has come, as main reports it while `running`. */
function useExportProgress(
  running: boolean,
): [{ done: number; total: number } | undefined, () => void] {
  const [progress, setProgress] = useState<{ done: number; total: number }>();
  useEffect(
    () => (running ? window.paydesk?.on('journalExportProgress', setProgress) : undefined),
    [running],
  );
  return [progress, () => setProgress(undefined)];
}
