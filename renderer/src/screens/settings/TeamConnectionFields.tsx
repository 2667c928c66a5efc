// Team journal -> Connection: the form's fields (server, port, database, login, password,
// desk, TLS, CA certificate), each with its hint and its error. The screen keeps the draft and
// its checks (TeamJournalScreen.tsx); this only shows them and reports each change through set.

import { describedBy, type FieldErrors } from '../../components/form-errors';
import type { Draft } from './team-draft';

export function TeamConnectionFields({
  draft,
  errors,
  fid,
  set,
  passwordSaved,
  remotePlain,
}: {
  draft: Draft;
  errors: FieldErrors;
  /** The element id of a field, unique to this form. */
  fid: (name: string) => string;
  set: <K extends keyof Draft>(key: K, value: Draft[K]) => void;
  passwordSaved: boolean;
  /** No TLS to a host that is not this computer: refused by main, said here at once. */
  remotePlain: boolean;
}) {
  async function readCaFile(file: File | undefined) {
    if (!file) return;
    set('caPem', await file.text());
  }

  return (
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
          TLS is required to any other computer: the password and the journal never cross a network
          in clear. Without TLS Paydesk connects only to localhost, 127.0.0.1 or ::1.
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
          Only when the server&apos;s certificate is signed by your company&apos;s own authority:
          paste it (PEM), or{' '}
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
  );
}

function FieldError({ id, message }: { id: string; message: string }) {
  return (
    <span className="field-error" id={`${id}-error`} role="alert">
      {message}
    </span>
  );
}
