// Settings -> Team journal: point this desk at the team's PostgreSQL (what the database
// administrator gave the person: server, database, their own login and password), test it, use
// it, or go back to this desk's own journal. The password is write-only: it goes to main, into
// the keychain, and never comes back; the screen only says whether one is saved. Switching
// journals restarts Paydesk, because the services open their journal once, at start.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';

import type { ResultOf } from '../../../../common/contract';
import { isThisComputer } from '../../../../common/this-computer';
import { paydesk, unwrap } from '../../api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ErrorNotice, Notice } from '../../components/Notice';
import { UploadLocalJournal } from '../../components/UploadLocalJournal';
import { useSchemasSoon, withSchemas, type Contract } from '../../schemas';
import { sessionKey, useSession } from '../../session';
import {
  describedBy,
  fieldErrorsOf,
  splitBridgeError,
  type FieldErrors,
} from '../../components/form-errors';
import '../../components/admin.css';
import { SetupSql } from './SetupSql';
import './settings.css';

const FIELDS = ['host', 'port', 'database', 'login', 'password', 'desk', 'tls', 'caPem'] as const;

interface Draft {
  host: string;
  port: string;
  database: string;
  login: string;
  password: string;
  desk: string;
  tls: 'verified' | 'none';
  caPem: string;
}

const EMPTY: Draft = {
  host: '',
  port: '5432',
  database: '',
  login: '',
  password: '',
  desk: '',
  tls: 'verified',
  caPem: '',
};

const settingsKey = ['team', 'settings'] as const;

/** The request the contract takes; an empty password means "the one in the keychain". */
function requestOf(d: Draft) {
  return {
    host: d.host,
    port: /^\d+$/.test(d.port.trim()) ? Number(d.port.trim()) : Number.NaN,
    database: d.database,
    login: d.login,
    desk: d.desk,
    tls: d.tls,
    ...(d.password ? { password: d.password } : {}),
    ...(d.caPem.trim() ? { caPem: d.caPem } : {}),
  };
}

type SavedView = ResultOf<'team', 'settings'>;

function draftOf(settings: SavedView['settings'] | undefined): Draft {
  if (!settings) return EMPTY;
  return {
    host: settings.host,
    port: String(settings.port),
    database: settings.database,
    login: settings.login,
    password: '',
    desk: settings.desk,
    tls: settings.tls,
    caPem: settings.caPem ?? '',
  };
}

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

  async function readCaFile(file: File | undefined) {
    if (!file) return;
    set('caPem', await file.text());
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
        <div className="form-grid">
          <div className="field">
            <label htmlFor={fid('host')}>Server</label>
            <input
              {...describedBy(fid('host'), errors.host, true)}
              value={draft.host}
              autoComplete="off"
              spellCheck={false}
              placeholder="db.example.com"
              onChange={(e) => set('host', e.target.value)}
            />
            <span className="field-hint" id={`${fid('host')}-hint`}>
              The PostgreSQL server&apos;s name or address.
            </span>
            {errors.host && <FieldError id={fid('host')} message={errors.host} />}
          </div>
          <div className="field">
            <label htmlFor={fid('port')}>Port</label>
            <input
              {...describedBy(fid('port'), errors.port)}
              value={draft.port}
              inputMode="numeric"
              autoComplete="off"
              onChange={(e) => set('port', e.target.value)}
            />
            {errors.port && <FieldError id={fid('port')} message={errors.port} />}
          </div>
          <div className="field">
            <label htmlFor={fid('database')}>Database</label>
            <input
              {...describedBy(fid('database'), errors.database)}
              value={draft.database}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => set('database', e.target.value)}
            />
            {errors.database && <FieldError id={fid('database')} message={errors.database} />}
          </div>
          <div className="field">
            <label htmlFor={fid('login')}>Your login</label>
            <input
              {...describedBy(fid('login'), errors.login, true)}
              value={draft.login}
              autoComplete="off"
              spellCheck={false}
              onChange={(e) => set('login', e.target.value)}
            />
            <span className="field-hint" id={`${fid('login')}-hint`}>
              Your own database login, never a shared one: the journal records it as who did what.
            </span>
            {errors.login && <FieldError id={fid('login')} message={errors.login} />}
          </div>
          <div className="field">
            <label htmlFor={fid('password')}>Password</label>
            <input
              {...describedBy(fid('password'), errors.password, true)}
              type="password"
              value={draft.password}
              autoComplete="new-password"
              placeholder={passwordSaved ? 'saved in this computer’s keychain' : ''}
              onChange={(e) => set('password', e.target.value)}
            />
            <span className="field-hint" id={`${fid('password')}-hint`}>
              {passwordSaved
                ? 'Saved in this computer’s keychain. Leave empty to keep it, or type a new one.'
                : 'Kept in this computer’s keychain, never in a file; Paydesk never shows it again.'}
            </span>
            {errors.password && <FieldError id={fid('password')} message={errors.password} />}
          </div>
          <div className="field">
            <label htmlFor={fid('desk')}>This desk’s name</label>
            <input
              {...describedBy(fid('desk'), errors.desk, true)}
              value={draft.desk}
              autoComplete="off"
              placeholder="Front-1"
              onChange={(e) => set('desk', e.target.value)}
            />
            <span className="field-hint" id={`${fid('desk')}-hint`}>
              Stored with every entry, and shown to a desk that finds an order busy.
            </span>
            {errors.desk && <FieldError id={fid('desk')} message={errors.desk} />}
          </div>
          <div className="field field-wide">
            <label htmlFor={fid('tls')}>Connection security</label>
            <select
              {...describedBy(fid('tls'), errors.tls ?? (remotePlain ? 'plain' : undefined), true)}
              value={draft.tls}
              onChange={(e) => set('tls', e.target.value === 'none' ? 'none' : 'verified')}
            >
              <option value="verified">TLS, certificate verified</option>
              <option value="none">No TLS (only to this computer)</option>
            </select>
            <span className="field-hint" id={`${fid('tls')}-hint`}>
              TLS is required to any other computer: the password and the journal never cross a
              network in clear. Without TLS Paydesk connects only to localhost, 127.0.0.1 or ::1.
            </span>
            {(errors.tls ?? remotePlain) && (
              <FieldError
                id={fid('tls')}
                message={
                  errors.tls ??
                  `${draft.host.trim()} is another computer: choose "TLS, certificate verified".`
                }
              />
            )}
          </div>
          <div className="field field-wide">
            <label htmlFor={fid('caPem')}>CA certificate (optional)</label>
            <textarea
              {...describedBy(fid('caPem'), errors.caPem, true)}
              value={draft.caPem}
              rows={4}
              spellCheck={false}
              placeholder="-----BEGIN CERTIFICATE-----"
              onChange={(e) => set('caPem', e.target.value)}
            />
            <span className="field-hint" id={`${fid('caPem')}-hint`}>
              Only when the server&apos;s certificate is signed by your company&apos;s own
              authority: paste it (PEM), or{' '}
              <label className="file-link">
                read it from a file
                <input
                  type="file"
                  accept=".pem,.crt,.cer,text/plain"
                  onChange={(e) => void readCaFile(e.target.files?.[0])}
                />
              </label>
              .
            </span>
            {errors.caPem && <FieldError id={fid('caPem')} message={errors.caPem} />}
          </div>
        </div>

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

function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <span className="field-error" id={`${id}-error`} role="alert">
      {message}
    </span>
  );
}
