// The banner of a read-only start: the database is damaged, read-only or in a folder Paydesk
// cannot write, or the journal Paydesk had is missing or empty. It says what is wrong, where the
// file is and what to do (the message comes from main), and what still works meanwhile. A
// missing or empty journal is a stop, not a fault to work around: the banner offers the latest
// backup and a new, empty journal, each through the one confirmation dialog, and main carries
// the choice out at a restart; until then nothing is changed. Both choices are an admin's on a
// team (common/backup-roles.ts), fenced as Settings -> Backups fences restoring. After such a
// start, a notice says what was restored and where the file it replaced was kept.

import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';

import type { ResultOf } from '../../../common/contract';
import { localTimeWithOffset } from '../../../common/time';
import { paydesk, unwrap } from '../api';
import { ConfirmDialog } from './ConfirmDialog';
import { FencedButton, RoleFence } from './RoleFence';
import { ErrorNotice, Notice } from './Notice';

type StoreStatus = ResultOf<'app', 'status'>['store'];

const when = (takenAt: string) => localTimeWithOffset(takenAt);

export function StoreNotice({ store }: { store: StoreStatus }) {
  if (store.code === 'MISSING' || store.code === 'EMPTY') return <JournalStop store={store} />;
  return (
    <div className="notice notice-error store-notice" role="alert">
      <strong>Paydesk is read-only: its database cannot be written.</strong>
      <p>{store.message ?? `Check the database at ${store.file}.`}</p>
      <p>
        Meanwhile lookups and the journal still work; capture, void, refund and cancel are refused,
        and so are changes to profiles and keys, because nothing may be sent that the journal cannot
        record first.
      </p>
      {store.latestBackup && (
        <p>
          The latest backup was taken {when(store.latestBackup.takenAt)}: Settings → Backups can
          restore it (Paydesk restarts, keeping this file aside).
        </p>
      )}
    </div>
  );
}

function JournalStop({ store }: { store: StoreStatus }) {
  const [asking, setAsking] = useState<'restore' | 'new' | undefined>();
  const latest = store.latestBackup;
  const choose = useMutation({
    mutationFn: (choice: 'restore' | 'new') =>
      choice === 'restore' && latest
        ? unwrap(paydesk().backups.restore({ name: latest.name }))
        : unwrap(paydesk().backups.startNewJournal({})),
  });
  const title =
    store.code === 'MISSING'
      ? 'Paydesk stopped: its journal is missing.'
      : 'Paydesk stopped: its journal is empty.';

  return (
    <div className="notice notice-error store-notice journal-stop" role="alert">
      <strong>{title}</strong>
      <p>{store.message}</p>
      {choose.data ? (
        <p>
          <strong>{choose.data.message}</strong>
        </p>
      ) : (
        <RoleFence need="backups">
          <div className="button-row">
            {latest && (
              <FencedButton
                className="primary"
                disabled={choose.isPending}
                onClick={() => setAsking('restore')}
              >
                Restore the backup of {when(latest.takenAt)}…
              </FencedButton>
            )}
            <FencedButton disabled={choose.isPending} onClick={() => setAsking('new')}>
              Begin a new, empty journal…
            </FencedButton>
          </div>
        </RoleFence>
      )}
      {choose.error && <ErrorNotice error={choose.error} title="Nothing was changed:" />}
      {asking === 'restore' && latest && (
        <ConfirmDialog
          title="Restore the latest backup?"
          confirmLabel="Restore and restart"
          onCancel={() => setAsking(undefined)}
          onConfirm={() => {
            setAsking(undefined);
            choose.mutate('restore');
          }}
        >
          <p>
            Paydesk restarts on the journal as it was at {when(latest.takenAt)} ({latest.name}).
            Every operation that was waiting for the gateway&apos;s word then is asked about again,
            never sent again.
          </p>
        </ConfirmDialog>
      )}
      {asking === 'new' && (
        <ConfirmDialog
          title="Begin a new, empty journal?"
          confirmLabel="Begin a new journal"
          danger
          onCancel={() => setAsking(undefined)}
          onConfirm={() => {
            setAsking(undefined);
            choose.mutate('new');
          }}
        >
          <p>
            The new journal holds no profiles and no history. The{' '}
            {store.code === 'EMPTY' ? 'empty file is' : 'backups are'} kept; you can still restore a
            backup later from Settings → Backups.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}

/** After a start that restored a backup (or began a new journal): what happened, and where. */
export function RestoredNotice({ store }: { store: StoreStatus }) {
  const restored = store.restored;
  if (!restored) return null;
  if (restored.problem)
    return (
      <Notice kind="warning">
        <strong>The journal was not restored.</strong> {restored.problem}
      </Notice>
    );
  return (
    <Notice kind="success">
      <strong>
        {restored.kind === 'restore'
          ? `Restored ${restored.backup ?? 'the backup'}.`
          : 'Began a new, empty journal.'}
      </strong>{' '}
      {restored.keptAside
        ? `The file it replaced is kept at ${restored.keptAside}.`
        : 'There was no file to keep aside.'}
      {restored.kind === 'restore' &&
        ' Operations that were waiting for the gateway’s word are being asked about now.'}
    </Notice>
  );
}
