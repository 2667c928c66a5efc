// Settings -> Backups and support. The desk's journal is the audit trail of every refund, kept in
// one file on this computer: main backs it up by itself (at start and every few hours), and here
// the person sees where and when, changes the folder, backs up now, restores one (through the one
// confirmation dialog; main restores at a restart, the current file kept aside), and saves the
// support bundle. On a team journal the screen says whose backups the journal's are. The folder
// is chosen with the system's folder picker (main opens it), or typed. On a team, choosing the
// folder and restoring are an admin's (common/backup-roles.ts): main refuses them for anyone
// else, and here they stay in view, greyed, under the line that says why (components/RoleFence);
// the list, Back up now and the support bundle are everyone's.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';

import type { ResultOf } from '../../../../common/contract';
import { localTimeWithOffset } from '../../../../common/time';
import { paydesk, unwrap } from '../../api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FencedButton, FencedForm, RoleFence } from '../../components/RoleFence';
import { ErrorNotice, Notice } from '../../components/Notice';
import '../../components/admin.css';
import './settings.css';

type Backup = ResultOf<'backups', 'status'>['backups'][number];

export const backupsKey = ['backups', 'status'] as const;

/** The time a backup began, as every screen says a time (local, with its offset). */
export function backupTime(takenAt: string): string {
  return localTimeWithOffset(takenAt);
}

function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function BackupsScreen() {
  const uid = useId();
  const queryClient = useQueryClient();
  const status = useQuery({
    queryKey: backupsKey,
    queryFn: () => unwrap(paydesk().backups.status({})),
  });
  // What the person typed; undefined shows the folder in use.
  const [typedFolder, setFolder] = useState<string | undefined>();
  const [restoring, setRestoring] = useState<Backup | undefined>();
  const refresh = () => queryClient.invalidateQueries({ queryKey: backupsKey });
  const backUp = useMutation({
    mutationFn: () => unwrap(paydesk().backups.backUpNow({})),
    onSettled: refresh,
  });
  const saveFolder = useMutation({
    mutationFn: (next: string) => unwrap(paydesk().backups.setFolder({ folder: next })),
    onSuccess: (next) => {
      queryClient.setQueryData(backupsKey, next);
      setFolder(undefined);
    },
  });
  const chooseFolder = useMutation({
    mutationFn: () => unwrap(paydesk().backups.chooseFolder({})),
    onSuccess: (answer) => {
      queryClient.setQueryData(backupsKey, answer.status);
      if (answer.chosen) setFolder(undefined);
    },
  });
  const folderChanged =
    saveFolder.isSuccess || (chooseFolder.isSuccess && chooseFolder.data.chosen);
  const folderError = saveFolder.error ?? chooseFolder.error;
  const restore = useMutation({
    mutationFn: (name: string) => unwrap(paydesk().backups.restore({ name })),
  });
  const bundle = useMutation({ mutationFn: () => unwrap(paydesk().support.saveBundle({})) });
  const data = status.data;
  const folder = typedFolder ?? data?.folder ?? '';

  const onSaveFolder = (event: FormEvent) => {
    event.preventDefault();
    chooseFolder.reset();
    saveFolder.mutate(folder);
  };
  const onChooseFolder = () => {
    saveFolder.reset();
    chooseFolder.mutate();
  };

  return (
    <div className="backups-screen">
      <h1>Backups and support</h1>
      <p className="screen-intro">
        The journal is the record of every refund and capture this desk sent. Paydesk backs it up by
        itself when it starts and every {data?.everyHours ?? 4} hours while it runs, with
        SQLite&apos;s own backup (never a copy of the open file), and keeps {data?.retention ?? '…'}
        .
      </p>
      {status.error && <ErrorNotice error={status.error} title="Backups could not be read:" />}
      {data?.team && <Notice kind="info">{data.team}</Notice>}
      {data?.paused && <Notice kind="warning">{data.paused}</Notice>}
      {data?.lastError && <Notice kind="warning">{data.lastError}</Notice>}

      <RoleFence need="backups">
        <section className="card" aria-labelledby={`${uid}-list`}>
          <h2 id={`${uid}-list`}>Backups</h2>
          {data && data.backups.length === 0 && <p>No backup yet in {data.folder}.</p>}
          {data && data.backups.length > 0 && (
            <table className="backups-table">
              <thead>
                <tr>
                  <th scope="col">Taken</th>
                  <th scope="col">Size</th>
                  <th scope="col">File</th>
                  <th scope="col">
                    <span className="visually-hidden">Restore</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.backups.map((b) => (
                  <tr key={b.name}>
                    <td>{backupTime(b.takenAt)}</td>
                    <td>{size(b.bytes)}</td>
                    <td className="mono">{b.name}</td>
                    <td>
                      <FencedButton onClick={() => setRestoring(b)}>Restore…</FencedButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <div className="button-row">
            <button
              type="button"
              className="primary"
              onClick={() => backUp.mutate()}
              disabled={backUp.isPending || data?.paused !== undefined}
            >
              {backUp.isPending ? 'Backing up…' : 'Back up now'}
            </button>
          </div>
          {backUp.data && !backUp.isPending && (
            <Notice kind="success">
              Backed up: {backUp.data.name} ({size(backUp.data.bytes)}), checked whole.
            </Notice>
          )}
          {backUp.error && <ErrorNotice error={backUp.error} title="Not backed up:" />}
          {restore.data && (
            <Notice kind="success">
              <strong>Restore chosen.</strong> {restore.data.message}
            </Notice>
          )}
          {restore.error && <ErrorNotice error={restore.error} title="Not restored:" />}
        </section>

        <FencedForm
          className="card"
          aria-labelledby={`${uid}-folder`}
          noValidate
          onSubmit={onSaveFolder}
        >
          <h2 id={`${uid}-folder`}>Folder</h2>
          <div className="field field-wide">
            <label htmlFor={`${uid}-folder-input`}>Backup folder</label>
            <input
              id={`${uid}-folder-input`}
              className="mono"
              value={folder}
              onChange={(event) => setFolder(event.target.value)}
              aria-describedby={`${uid}-folder-hint`}
            />
            <span className="field-hint" id={`${uid}-folder-hint`}>
              Choose it, or type its whole path. A folder that exists and that you may write in;
              another disk or a network share keeps the backups when this disk fails. By default:{' '}
              {data?.defaultFolder}.
            </span>
          </div>
          {folderError && <ErrorNotice error={folderError} title="Folder not changed:" />}
          {folderChanged && <Notice kind="success">Backups now go to {data?.folder}.</Notice>}
          <div className="button-row">
            <button type="button" onClick={onChooseFolder} disabled={chooseFolder.isPending}>
              Choose folder…
            </button>
            <button type="submit" disabled={saveFolder.isPending || folder === data?.folder}>
              Use this folder
            </button>
          </div>
        </FencedForm>
      </RoleFence>

      <section className="card" aria-labelledby={`${uid}-support`}>
        <h2 id={`${uid}-support`}>Support bundle</h2>
        <p>
          One file for support when something went wrong: Paydesk&apos;s and this computer&apos;s
          versions, the settings, the last three days of the log and the database&apos;s integrity
          check. Every secret and card number is removed before it is written.
        </p>
        <div className="button-row">
          <button type="button" onClick={() => bundle.mutate()} disabled={bundle.isPending}>
            Save support bundle…
          </button>
        </div>
        {bundle.data?.saved && <Notice kind="success">Saved to {bundle.data.path}.</Notice>}
        {bundle.error && <ErrorNotice error={bundle.error} title="Not saved:" />}
      </section>

      {restoring && (
        <ConfirmDialog
          title="Restore this backup?"
          confirmLabel="Restore and restart"
          danger
          onCancel={() => setRestoring(undefined)}
          onConfirm={() => {
            const name = restoring.name;
            setRestoring(undefined);
            restore.mutate(name);
          }}
        >
          <p>
            Paydesk restarts on the journal as it was at {backupTime(restoring.takenAt)}. The
            current file is kept beside it, renamed, not deleted. Every operation that was waiting
            for the gateway&apos;s word in that backup is asked about again, never sent again; what
            was sent after the backup is not in it (the gateway still knows it).
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
