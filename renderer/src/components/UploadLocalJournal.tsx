// Uploading this desk's local journal to its team's, once (main/services/team/upload.ts; for the
// Settings → Team journal screen to place). It shows first what would go and what stands in the
// way (unsettled entries, profiles the team does not share, with a choice of shared profile for
// each), then uploads, and says what it did in counts. Running it again is safe: what is there
// already is counted, not sent twice.

import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';

import type { ResultOf } from '../../../common/contract';
import { localTimeWithOffset } from '../../../common/time';
import { paydesk, unwrap } from '../api';
import { useActiveProfile } from '../profile-context';
import { ErrorNotice, Notice } from './Notice';

const planKey = ['team', 'upload-plan'] as const;

type Report = ResultOf<'team', 'uploadLocalJournal'>;

const entries = (n: number) => `${n} ${n === 1 ? 'entry' : 'entries'}`;

function reportSentence(r: Report): string {
  const parts = [`${entries(r.uploaded)} uploaded`];
  if (r.alreadyThere > 0) parts.push(`${entries(r.alreadyThere)} already in the team's journal`);
  if (r.sandbox > 0) parts.push(`${entries(r.sandbox)} of the built-in Sandbox kept on this desk`);
  return `${parts.join(', ')}.${r.clashes.length > 0 ? ` Not uploaded, their action id is another entry's in the team's journal: ${r.clashes.join(', ')}.` : ''}`;
}

export function UploadLocalJournal() {
  const { profiles } = useActiveProfile();
  const shared = profiles.filter((p) => p.team);
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const plan = useQuery({
    queryKey: [...planKey, chosen],
    queryFn: () => unwrap(paydesk().team.planLocalJournalUpload({ profileMap: chosen })),
  });
  const upload = useMutation({
    mutationFn: () => unwrap(paydesk().team.uploadLocalJournal({ profileMap: chosen })),
    onSuccess: () => void plan.refetch(),
  });
  const p = plan.data;
  const blocked = !p || p.unsettled.length > 0 || p.profiles.some((x) => x.sharedId === null);

  return (
    <section className="card" aria-labelledby="upload-journal-title">
      <h2 id="upload-journal-title">This desk's journal</h2>
      {plan.error && <ErrorNotice error={plan.error} title="The upload cannot be planned:" />}
      {p && (
        <>
          <p>
            This desk's own journal has {entries(p.entries)}
            {p.sandbox > 0 ? `, ${p.sandbox} of them on the built-in Sandbox (they stay here)` : ''}
            . Uploading gives the team's journal each settled entry as it ended, marked with this
            desk, under your login; what the desk recorded as its operator is kept beside it.
          </p>
          {p.lastUpload && (
            <p className="field-hint">
              Last uploaded {localTimeWithOffset(p.lastUpload.at)} by {p.lastUpload.login}:{' '}
              {entries(p.lastUpload.uploaded)} uploaded, {p.lastUpload.present} already there.
            </p>
          )}
          {p.unsettled.length > 0 && (
            <Notice kind="warning">
              {entries(p.unsettled.length)} not settled yet; they must settle first (Journal):{' '}
              {p.unsettled.map((u) => `${u.clientOrderId} (${u.operation}, ${u.state})`).join(', ')}
              .
            </Notice>
          )}
          {p.profiles.length > 0 && (
            <ul className="upload-profiles">
              {p.profiles.map((x) => (
                <li key={x.localId}>
                  <strong>{x.name}</strong> ({entries(x.entries)}) →{' '}
                  <label>
                    <span className="visually-hidden">Shared profile for {x.name}</span>
                    <select
                      value={x.sharedId ?? ''}
                      onChange={(e) => setChosen({ ...chosen, [x.localId]: e.target.value })}
                    >
                      <option value="">the team shares none: choose one</option>
                      {shared.map((s) => (
                        <option key={s.id} value={s.id}>
                          {s.name}
                        </option>
                      ))}
                    </select>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
      {upload.data && <Notice kind="success">{reportSentence(upload.data)}</Notice>}
      {upload.error && <ErrorNotice error={upload.error} title="Not uploaded:" />}
      <div className="button-row">
        <button
          type="button"
          className="primary"
          disabled={blocked || upload.isPending}
          onClick={() => upload.mutate()}
        >
          {upload.isPending ? 'Uploading…' : "Upload this desk's journal"}
        </button>
      </div>
    </section>
  );
}
