// Callback check (support): a shop pastes what it received (the callback URL, its query
// string, or the browser-return POST body) and learns whether the gateway sent it. Main checks
// the checksum with the profile's control key, which never reaches this window, and compares a
// callback that passes it with the gateway's answer about the order. The answer is the verdict
// in plain words, where the callback and the gateway disagree, the fields, and a way to the
// order's real status. Only a callback the gateway confirmed is shown as good.

import { useMutation } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';

import type { CallbackCheckData } from '../../../../common/contract';
import { paydesk, unwrap } from '../../api';
import { ErrorNotice } from '../../components/Notice';
import { useActiveProfile } from '../../profile-context';
import { hrefOf } from '../../route';
import './callback-check.css';

const VERDICT_TITLE: Record<CallbackCheckData['verdict'], string> = {
  genuine: 'Genuine',
  'other-profile': 'Genuine, for another profile',
  altered: 'Altered: the gateway says otherwise',
  'checksum-only': 'Only the checksum was checked',
  forged: 'Not genuine',
  incomplete: 'Cannot be checked',
};

/** How each verdict looks: only what the gateway confirmed is good. */
const VERDICT_TONE: Record<CallbackCheckData['verdict'], 'good' | 'unsure' | 'bad'> = {
  genuine: 'good',
  'other-profile': 'good',
  altered: 'bad',
  'checksum-only': 'unsure',
  forged: 'bad',
  incomplete: 'bad',
};

/** Verdicts after which the order is worth opening in this profile. */
const LEADS_TO_ORDER: readonly CallbackCheckData['verdict'][] = [
  'genuine',
  'altered',
  'checksum-only',
];

const FIELD_LABEL: Record<NonNullable<CallbackCheckData['differences']>[number]['field'], string> =
  { status: 'Status', amount: 'Amount', currency: 'Currency', type: 'Type' };

const READ_AS: Record<CallbackCheckData['readAs'], string> = {
  url: 'a callback URL',
  query: 'a query string',
  form: 'a POST body',
};

export function CallbackCheckScreen() {
  const ids = useId();
  const { active } = useActiveProfile();
  const [text, setText] = useState('');
  const [formError, setFormError] = useState<string>();
  const input = useRef<HTMLTextAreaElement>(null);
  const check = useMutation({
    mutationFn: (request: { profileId: string; text: string }) =>
      unwrap(paydesk().tools.checkCallback(request)),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!active) return;
    if (text.trim() === '') {
      setFormError('Paste the callback first.');
      input.current?.focus();
      return;
    }
    setFormError(undefined);
    check.mutate({ profileId: active.id, text });
  };

  return (
    <div className="callback-screen">
      <h1>Callback check</h1>
      <p className="screen-intro">
        Did the gateway really send this? Paste what the shop received: the callback URL, its query
        string, or the POST body of the customer’s return. Paydesk checks its checksum with the
        control key of <strong>{active?.name ?? 'the active profile'}</strong>; the key never leaves
        the keychain.
      </p>
      <form
        className="card callback-form"
        aria-label="Check a callback"
        onSubmit={submit}
        noValidate
      >
        <div className="field">
          <label htmlFor={`${ids}-text`}>Callback as received</label>
          <textarea
            id={`${ids}-text`}
            ref={input}
            rows={5}
            spellCheck={false}
            value={text}
            placeholder="https://shop.example/callback?status=approved&orderid=…&client_orderid=…&control=…"
            aria-invalid={formError ? true : undefined}
            aria-describedby={formError ? `${ids}-error` : undefined}
            onChange={(e) => {
              setText(e.target.value);
              if (formError) setFormError(undefined);
              if (check.data || check.error) check.reset();
            }}
          />
          {formError && (
            <span id={`${ids}-error`} className="field-error" role="alert">
              {formError}
            </span>
          )}
        </div>
        <div className="button-row">
          <button type="submit" className="primary" disabled={!active || check.isPending}>
            {check.isPending ? 'Checking…' : 'Check'}
          </button>
        </div>
      </form>
      {check.error && <ErrorNotice error={check.error} title="The callback was not checked:" />}
      {check.data && <Verdict result={check.data} />}
    </div>
  );
}

function Verdict({ result }: { result: CallbackCheckData }) {
  const tone = VERDICT_TONE[result.verdict];
  return (
    <section className={`card callback-verdict verdict-${tone}`} aria-label="Verdict">
      <h2>{VERDICT_TITLE[result.verdict]}</h2>
      <p role={tone === 'good' ? 'status' : 'alert'}>{result.message}</p>
      {result.differences && result.differences.length > 0 && (
        <Differences differences={result.differences} />
      )}
      {LEADS_TO_ORDER.includes(result.verdict) && !result.matchedProfile && result.orderid && (
        <p>
          <a className="button primary" href={hrefOf({ screen: 'lookup', param: result.orderid })}>
            Look up order {result.orderid}
          </a>
        </p>
      )}
      <table className="callback-fields">
        <caption>
          Read as {READ_AS[result.readAs]}: {result.fields.length}{' '}
          {result.fields.length === 1 ? 'field' : 'fields'}
        </caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {result.fields.map((field, index) => (
            <tr key={`${field.name}-${index}`}>
              <th scope="row">{field.name}</th>
              <td>{field.value === '' ? <em>empty</em> : field.value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Differences({
  differences,
}: {
  differences: NonNullable<CallbackCheckData['differences']>;
}) {
  return (
    <table className="callback-fields callback-differences">
      <caption>Where the callback and the gateway disagree</caption>
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col">The callback says</th>
          <th scope="col">The gateway says</th>
        </tr>
      </thead>
      <tbody>
        {differences.map((difference) => (
          <tr key={difference.field}>
            <th scope="row">{FIELD_LABEL[difference.field]}</th>
            <td>{difference.callback}</td>
            <td>{difference.gateway}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
