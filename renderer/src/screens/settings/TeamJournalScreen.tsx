// Settings -> Team journal: point this desk at the team's PostgreSQL (what the database
// administrator gave the person: server, database, their own login and password), test it, use
// it, or go back to this desk's own journal. The password is write-only: it goes to main, into
// the keychain, and never comes back; the screen only says whether one is saved. Switching
// journals restarts Paydesk, because the services open their journal once, at start. The
// connection's fields are TeamConnectionFields.tsx; the draft they fill is team-draft.ts.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';

import { isThisComputer } from '../../../../common/this-computer';
import { paydesk, unwrap } from '../../api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorNotice, Notice } from '../../components/Notice';
import { UploadLocalJournal } from '../../components/UploadLocalJournal';
import { useSchemasSoon, withSchemas, type Contract } from '../../schemas';
import { sessionKey, useSession } from '../../session';
import { fieldErrorsOf, splitBridgeError, type FieldErrors } from '../../components/form-errors';
import '../../components/admin.css';
import { SetupSql } from './SetupSql';
import { TeamConnectionFields } from './TeamConnectionFields';
import { draftOf, EMPTY, FIELDS, requestOf, type Draft, type SavedView } from './team-draft';
import './settings.css';

const settingsKey = ['team', 'settings'] as const;

export function TeamJournalScreen() {
  const saved = useQuery({
    queryKey: settingsKey,
    queryFn: () => unwrap(paydesk().team.settings({})),
  });
  if (saved.isPending) return <p className="screen-loading">Loading…</p>;
  // Settings that cannot be read are said so; the form starts empty, to enter them again.
  return (
    <>
      {saved.error && <ErrorNotice error={saved.error} title="The saved settings:" />}
      <TeamJournalForm saved={saved.data} />
    </>
  );
}

function TeamJournalForm({ saved }: { saved: SavedView | undefined }) {
  const uid = useId();
  const fid = (name: string) => `${uid}-${name}`;
  const client = useQueryClient();
  const session = useSession();
  // The saved settings fill the form (never the password: main keeps it).
  const [draft, setDraft] = useState<Draft>(() => draftOf(saved?.settings));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [restartMessage, setRestartMessage] = useState<string>();
  const [confirmStop, setConfirmStop] = useState(false);
  useSchemasSoon();

  const test = useMutation({
    mutationFn: (d: Draft) => unwrap(paydesk().team.test(requestOf(d))),
    onError: (error) => setErrors(splitBridgeError(error, FIELDS).fieldErrors),
  });
  const use = useMutation({
    mutationFn: (d: Draft) => unwrap(paydesk().team.use(requestOf(d))),
    onSuccess: (answer) => {
      setRestartMessage(answer.message);
      setDraft((d) => ({ ...d, password: '' }));
      void client.invalidateQueries({ queryKey: settingsKey });
      void client.invalidateQueries({ queryKey: sessionKey });
    },
    onError: (error) => setErrors(splitBridgeError(error, FIELDS).fieldErrors),
  });
  const stop = useMutation({
    mutationFn: () => unwrap(paydesk().team.stop({})),
    onSuccess: (answer) => {
      setRestartMessage(answer.message);
      setDraft(EMPTY);
      void client.invalidateQueries({ queryKey: settingsKey });
      void client.invalidateQueries({ queryKey: sessionKey });
    },
  });

  function set<K extends keyof Draft>(key: K, value: Draft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
    test.reset();
    use.reset();
  }

  /** Checked with the bridge's own schema first, so the field that is wrong says so at once. */
  function checked({ contract }: Contract): boolean {
    const result = contract.team.use.request.safeParse(requestOf(draft));
    const found: FieldErrors = result.success ? {} : fieldErrorsOf(result.error);
    if (!draft.password && !saved?.passwordSaved)
      found.password ??= 'Enter your database password.';
    setErrors(found);
    const first = FIELDS.find((f) => found[f]);
    if (first) {
      document.getElementById(fid(first))?.focus();
      return false;
    }
    return true;
  }

  function onTest() {
    use.reset();
    withSchemas((schemas) => {
      if (checked(schemas)) test.mutate(draft);
    });
  }

  function onUse(event: FormEvent) {
    event.preventDefault();
    test.reset();
    withSchemas((schemas) => {
      if (checked(schemas)) use.mutate(draft);
    });
  }

  const current = session.data;
  const onTeam = current?.journal === 'team';
  const passwordSaved = saved?.passwordSaved ?? false;
  const remotePlain =
    draft.tls === 'none' && draft.host.trim() !== '' && !isThisComputer(draft.host);
  const testError = test.error ? splitBridgeError(test.error, FIELDS).general : undefined;
  const useError = use.error ? splitBridgeError(use.error, FIELDS).general : undefined;

  return (
    <div className="team-journal-screen">
      <h1>Team journal</h1>
      <p className="screen-intro">
        A team of desks can keep one journal on the company&apos;s PostgreSQL: every desk sees every
        refund and capture, no two desks act on one order at once, and the database enforces each
        person&apos;s role (support looks up, finance moves money, admins change profiles and keys).
        Your database administrator gives you the server, the database and your own login.
      </p>

      <section className="card" aria-labelledby={`${uid}-now`}>
        <h2 id={`${uid}-now`}>This desk now</h2>
        {current && !onTeam && (
          <p>
            Writes <strong>its own journal</strong>, on this computer. Nothing here is shared.
          </p>
        )}
        {current && onTeam && (
          <p>
            Writes <strong>the team journal</strong> ({current.where}) as{' '}
            <strong>{current.login}</strong>
            {current.groups.length > 0 ? ` in ${current.groups.join(', ')}` : ''}, desk{' '}
            <strong>{current.desk}</strong>.{' '}
            {current.reachable
              ? 'The database answers.'
              : 'The database cannot be used right now (the notice above says why).'}
          </p>
        )}
        {current && !onTeam && (saved?.keptFromTeam.length ?? 0) > 0 && (
          <p className="kept-from-team">
            Kept aside from the team journal, with the keys this desk holds for them:{' '}
            {saved?.keptFromTeam.map((name, i) => (
              <span key={name}>
                {i > 0 ? ', ' : ''}
                <strong>{name}</strong>
              </span>
            ))}
            . They are the team&apos;s profiles, so this desk does not list or use them on its own
            journal; they come back if it joins the team again. This desk&apos;s own profiles are
            listed as they were before it joined.
          </p>
        )}
        {onTeam && (
          <div className="button-row">
            <button type="button" onClick={() => setConfirmStop(true)} disabled={stop.isPending}>
              Stop using it
            </button>
          </div>
        )}
        {stop.error && <ErrorNotice error={stop.error} title="Still on the team journal:" />}
      </section>

      {/* Once on the team: this desk's own journal can go to the team's, once. */}
      {onTeam && current?.reachable && <UploadLocalJournal />}

      {restartMessage && (
        <Notice kind="success">
          <strong>Saved.</strong> {restartMessage} This desk&apos;s own journal stays on this
          computer, untouched, for when you go back to it.
        </Notice>
      )}

      <form className="card team-form" aria-labelledby={`${uid}-form`} noValidate onSubmit={onUse}>
        <h2 id={`${uid}-form`}>Connection</h2>
        <TeamConnectionFields
          draft={draft}
          errors={errors}
          fid={fid}
          set={set}
          passwordSaved={passwordSaved}
          remotePlain={remotePlain}
        />

        {test.data && (
          <Notice kind="success">
            <strong>Connected</strong> to {test.data.where} as {test.data.login}, in{' '}
            {test.data.groups.join(', ')}; team schema {test.data.schemaVersion}.
          </Notice>
        )}
        {testError !== undefined && <ErrorNotice error={testError} title="Not connected:" />}
        {useError !== undefined && <ErrorNotice error={useError} title="Not saved:" />}

        <div className="button-row">
          <button type="button" onClick={onTest} disabled={test.isPending || use.isPending}>
            {test.isPending ? 'Testing…' : 'Test connection'}
          </button>
          <button type="submit" className="primary" disabled={test.isPending || use.isPending}>
            {use.isPending ? 'Connecting…' : 'Use team journal'}
          </button>
        </div>
        <p className="field-hint">
          “Use team journal” tests the connection first, saves it (the password in the keychain, the
          rest in {saved?.file ?? 'team.json in Paydesk’s data folder'}) and restarts Paydesk on the
          team journal. This desk&apos;s own journal stays as it is.
        </p>
      </form>

      <SetupSql />

      {confirmStop && (
        <ConfirmDialog
          title="Stop using the team journal?"
          confirmLabel="Stop using it"
          onCancel={() => setConfirmStop(false)}
          onConfirm={() => {
            setConfirmStop(false);
            stop.mutate();
          }}
        >
          <p>
            Paydesk restarts on this desk&apos;s own journal, as it was before. The team journal
            keeps everything this desk wrote; the password leaves this computer&apos;s keychain.
            This desk&apos;s own profiles come back as they were; the team&apos;s profiles are set
            aside here (not listed, their keys kept) until this desk joins again.
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
