// Create or edit a profile. The control key is entered once: on edit the form says it is
// stored in the keychain and offers "Replace", and never shows or receives the stored value.
// The same schema as the bridge checks the fields first; the bridge's answer (http:// refused,
// a name in use, an endpoint id that is not a number) lands under the field it names.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState, type FormEvent } from 'react';

import { paydesk, unwrap } from '../../api';
import { ErrorNotice } from '../../components/Notice';
import { FencedForm } from '../../components/RoleFence';
import type { ProfileView } from '../../profile-context';
import { keys } from '../../queries';
import { useSchemasSoon, withSchemas } from '../../schemas';
import {
  describedBy,
  fieldErrorsOf,
  splitBridgeError,
  type FieldErrors,
} from '../../components/form-errors';

type Environment = ProfileView['environment'];
type EndpointKind = ProfileView['endpointKind'];

const FIELDS = ['name', 'environment', 'baseUrl', 'endpointId', 'login', 'controlKey'] as const;

interface Draft {
  name: string;
  environment: Environment;
  baseUrl: string;
  endpointKind: EndpointKind;
  endpointId: string;
  login: string;
  controlKey: string;
  payoutFourEyes: boolean;
}

function draftOf(profile: ProfileView | undefined): Draft {
  return {
    name: profile?.name ?? '',
    environment: profile?.environment ?? 'test',
    baseUrl: profile?.baseUrl ?? '',
    endpointKind: profile?.endpointKind ?? 'endpoint',
    endpointId: profile?.endpointId ?? '',
    login: profile?.login ?? '',
    controlKey: '',
    payoutFourEyes: profile?.payoutFourEyes ?? false,
  };
}

export function ProfileForm({
  profile,
  onDone,
  onCancel,
}: {
  /** The profile to edit; a new profile when absent. */
  profile?: ProfileView;
  onDone: (saved: ProfileView) => void;
  onCancel: () => void;
}) {
  const client = useQueryClient();
  const uid = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [draft, setDraft] = useState<Draft>(() => draftOf(profile));
  const [replaceKey, setReplaceKey] = useState(!profile || !profile.hasControlKey);
  const [errors, setErrors] = useState<FieldErrors>({});
  const editing = profile !== undefined;
  const fid = (name: string) => `${uid}-${name}`;
  useSchemasSoon();

  const save = useMutation({
    mutationFn: (d: Draft) => {
      const input = {
        name: d.name,
        environment: d.environment,
        baseUrl: d.baseUrl,
        endpointId: d.endpointId,
        endpointKind: d.endpointKind,
        login: d.login,
        payoutFourEyes: d.payoutFourEyes,
      };
      if (!profile)
        return unwrap(paydesk().profiles.create({ ...input, controlKey: d.controlKey }));
      return unwrap(
        paydesk().profiles.update({
          id: profile.id,
          profile: { ...input, ...(replaceKey ? { controlKey: d.controlKey } : {}) },
        }),
      );
    },
    onSuccess: async (saved) => {
      await client.invalidateQueries({ queryKey: keys.profiles });
      onDone(saved);
    },
    onError: (error) => {
      const { fieldErrors } = splitBridgeError(error, FIELDS);
      setErrors(fieldErrors);
      focusFirstError(fieldErrors);
    },
  });
  const general = save.error ? splitBridgeError(save.error, FIELDS).general : undefined;

  function focusFirstError(found: FieldErrors) {
    const first = FIELDS.find((f) => found[f]);
    if (first) document.getElementById(fid(first))?.focus();
  }

  function set<K extends keyof Draft>(key: K, value: Draft[K]) {
    setDraft((d) => ({ ...d, [key]: value }));
    if (errors[key]) setErrors((e) => ({ ...e, [key]: undefined }));
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    withSchemas((contract) => {
      const checked = !editing
        ? contract.contract.profiles.create.request.safeParse(draft)
        : contract.profileInputSchema.safeParse(draft);
      const found: FieldErrors = checked.success ? {} : fieldErrorsOf(checked.error);
      if (editing && replaceKey && !draft.controlKey.trim()) {
        found.controlKey = profile.hasControlKey
          ? 'Enter the new control key, or keep the stored one.'
          : 'Enter the control key the gateway gave you.';
      }
      setErrors(found);
      if (Object.values(found).some(Boolean)) {
        save.reset();
        focusFirstError(found);
        return;
      }
      save.mutate(draft);
    });
  }

  const endpointLabel = draft.endpointKind === 'group' ? 'Endpoint group id' : 'Endpoint id';
  const title = editing ? `Edit profile “${profile.name}”` : 'New profile';
  const titleId = `${uid}-title`;

  return (
    <FencedForm
      ref={formRef}
      className="card profile-form"
      aria-labelledby={titleId}
      noValidate
      onSubmit={submit}
    >
      <h2 id={titleId}>{title}</h2>
      {general !== undefined && <ErrorNotice error={general} title="Not saved:" />}
      <div className="form-grid">
        <div className="field">
          <label htmlFor={fid('name')}>Name</label>
          <input
            {...describedBy(fid('name'), errors.name, true)}
            value={draft.name}
            autoComplete="off"
            onChange={(e) => set('name', e.target.value)}
          />
          <span className="field-hint" id={`${fid('name')}-hint`}>
            What people pick in the profile switcher, for example “Production EUR”.
          </span>
          {errors.name && (
            <span className="field-error" id={`${fid('name')}-error`}>
              {errors.name}
            </span>
          )}
        </div>

        <div className="field">
          <label htmlFor={fid('environment')}>Environment</label>
          <select
            {...describedBy(fid('environment'), errors.environment, true)}
            value={draft.environment}
            onChange={(e) => set('environment', e.target.value as Environment)}
          >
            <option value="test">Test</option>
            <option value="production">Production (real money)</option>
            <option value="sandbox">Sandbox</option>
          </select>
          <span
            className={`field-hint${draft.environment === 'production' ? ' hint-production' : ''}`}
            id={`${fid('environment')}-hint`}
          >
            {draft.environment === 'production'
              ? 'Every action with this profile moves real money. It gets its own key pair.'
              : 'Test and sandbox profiles move no real money. Each environment has its own key pair.'}
          </span>
          {errors.environment && (
            <span className="field-error" id={`${fid('environment')}-error`}>
              {errors.environment}
            </span>
          )}
        </div>

        <div className="field field-wide">
          <label htmlFor={fid('baseUrl')}>Base URL</label>
          <input
            {...describedBy(fid('baseUrl'), errors.baseUrl, true)}
            value={draft.baseUrl}
            type="url"
            inputMode="url"
            spellCheck={false}
            autoComplete="off"
            placeholder="https://gate.example.com/paynet"
            onChange={(e) => set('baseUrl', e.target.value)}
          />
          <span className="field-hint" id={`${fid('baseUrl')}-hint`}>
            The address with its path prefix, as the gateway gave it, for example
            https://gate.example.com/paynet. Paydesk adds /api/v2/… itself.
          </span>
          {errors.baseUrl && (
            <span className="field-error" id={`${fid('baseUrl')}-error`}>
              {errors.baseUrl}
            </span>
          )}
        </div>

        <fieldset className="field endpoint-kind">
          <legend>The gateway gave you</legend>
          <label>
            <input
              type="radio"
              name={`${uid}-endpointKind`}
              checked={draft.endpointKind === 'endpoint'}
              onChange={() => set('endpointKind', 'endpoint')}
            />{' '}
            a single endpoint
          </label>
          <label>
            <input
              type="radio"
              name={`${uid}-endpointKind`}
              checked={draft.endpointKind === 'group'}
              onChange={() => set('endpointKind', 'group')}
            />{' '}
            an endpoint group
          </label>
        </fieldset>

        <div className="field">
          <label htmlFor={fid('endpointId')}>{endpointLabel}</label>
          <input
            {...describedBy(fid('endpointId'), errors.endpointId)}
            value={draft.endpointId}
            inputMode="numeric"
            autoComplete="off"
            onChange={(e) => set('endpointId', e.target.value)}
          />
          {errors.endpointId && (
            <span className="field-error" id={`${fid('endpointId')}-error`}>
              {errors.endpointId}
            </span>
          )}
        </div>

        <div className="field">
          <label htmlFor={fid('login')}>Merchant login</label>
          <input
            {...describedBy(fid('login'), errors.login)}
            value={draft.login}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => set('login', e.target.value)}
          />
          {errors.login && (
            <span className="field-error" id={`${fid('login')}-error`}>
              {errors.login}
            </span>
          )}
        </div>

        <div className="field field-wide">
          <label>
            <input
              type="checkbox"
              aria-describedby={`${fid('fourEyes')}-hint`}
              checked={draft.payoutFourEyes}
              onChange={(e) => set('payoutFourEyes', e.target.checked)}
            />{' '}
            Four eyes on two-step payouts
          </label>
          <span className="field-hint" id={`${fid('fourEyes')}-hint`}>
            A checked payout is paid by someone other than who checked it. On a team journal the
            team&rsquo;s database holds everyone to it.
          </span>
        </div>

        <div className="field field-wide">
          {replaceKey ? (
            <>
              <label htmlFor={fid('controlKey')}>
                {editing && profile.hasControlKey ? 'New control key' : 'Control key'}
              </label>
              <input
                {...describedBy(fid('controlKey'), errors.controlKey, true)}
                type="password"
                value={draft.controlKey}
                autoComplete="off"
                spellCheck={false}
                onChange={(e) => set('controlKey', e.target.value)}
              />
              <span className="field-hint" id={`${fid('controlKey')}-hint`}>
                Entered once and stored in the OS keychain; Paydesk never shows it again.
              </span>
              {errors.controlKey && (
                <span className="field-error" id={`${fid('controlKey')}-error`}>
                  {errors.controlKey}
                </span>
              )}
              {editing && profile.hasControlKey && (
                <div>
                  <button
                    type="button"
                    onClick={() => {
                      setReplaceKey(false);
                      set('controlKey', '');
                    }}
                  >
                    Keep the stored control key
                  </button>
                </div>
              )}
            </>
          ) : (
            <div className="stored-secret">
              <span className="stored-secret-label">Control key</span>
              <span className="stored-secret-value">stored in the keychain</span>
              <button type="button" onClick={() => setReplaceKey(true)}>
                Replace control key
              </button>
            </div>
          )}
        </div>
      </div>
      <div className="button-row">
        <button type="submit" className="primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : editing ? 'Save changes' : 'Create profile'}
        </button>
        <button type="button" onClick={onCancel} disabled={save.isPending}>
          Cancel
        </button>
      </div>
    </FencedForm>
  );
}
