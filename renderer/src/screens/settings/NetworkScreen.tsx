// Settings -> Network: the certificate authority of a company's TLS-inspecting proxy. Behind
// such a proxy every gateway's certificate is the proxy's, signed by a CA only the company
// trusts, so Paydesk refuses the connection ("not signed by a trusted authority") until that CA
// is trusted here. Main checks what is pasted (a CA certificate, never a private key) and keeps
// trusting the built-in authorities; certificate checks are never turned off.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';

import type { TrustedCaData } from '../../../../common/contract';
import { paydesk, unwrap } from '../../api';
import { ErrorNotice, Notice } from '../../components/Notice';
import './settings.css';

const trustedCaKey = ['network', 'trusted-ca'] as const;

export function NetworkScreen() {
  const uid = useId();
  const client = useQueryClient();
  const [pem, setPem] = useState('');
  const current = useQuery({
    queryKey: trustedCaKey,
    queryFn: () => unwrap(paydesk().network.trustedCa({})),
  });
  const done = (data: TrustedCaData) => client.setQueryData(trustedCaKey, data);
  const save = useMutation({
    mutationFn: (text: string) => unwrap(paydesk().network.saveTrustedCa({ pem: text })),
    onSuccess: (data) => {
      done(data);
      setPem('');
    },
  });
  const remove = useMutation({
    mutationFn: () => unwrap(paydesk().network.clearTrustedCa({})),
    onSuccess: done,
  });
  const onSave = (event: FormEvent) => {
    event.preventDefault();
    remove.reset();
    save.mutate(pem);
  };
  const certificates = current.data?.certificates ?? [];

  return (
    <div className="team-journal-screen network-screen">
      <h1>Network</h1>
      <p className="screen-intro">
        If your company&rsquo;s network inspects TLS (a proxy that signs what it passes on with its
        own certificate authority), Paydesk cannot trust any gateway until it trusts that authority.
        Paste the CA certificate your IT gives you. Paydesk keeps trusting the built-in authorities
        too, and never turns certificate checks off.
      </p>
      <section className="card" aria-labelledby={`${uid}-now`}>
        <h2 id={`${uid}-now`}>Trusted besides the built-in authorities</h2>
        {current.error && <ErrorNotice error={current.error} />}
        {current.data && certificates.length === 0 && (
          <p>Nothing: only the built-in certificate authorities are trusted.</p>
        )}
        {certificates.length > 0 && (
          <>
            <dl className="ca-list">
              {certificates.map((c) => (
                <div key={c.fingerprint}>
                  <dt>{c.subject}</dt>
                  <dd>
                    Issued by {c.issuer}; valid until {c.validTo.slice(0, 10)}
                    <br />
                    <code>SHA-256 {c.fingerprint}</code>
                  </dd>
                </div>
              ))}
            </dl>
            <div className="button-row">
              <button
                type="button"
                disabled={remove.isPending}
                onClick={() => {
                  save.reset();
                  remove.mutate();
                }}
              >
                Stop trusting it
              </button>
            </div>
          </>
        )}
        {remove.error && <ErrorNotice error={remove.error} />}
      </section>
      <form className="card team-form" aria-labelledby={`${uid}-form`} onSubmit={onSave}>
        <h2 id={`${uid}-form`}>Trust a certificate authority</h2>
        <div className="field field-wide">
          <label htmlFor={`${uid}-pem`}>CA certificate (PEM)</label>
          <textarea
            id={`${uid}-pem`}
            rows={8}
            spellCheck={false}
            value={pem}
            placeholder={'-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----'}
            onChange={(event) => setPem(event.target.value)}
          />
        </div>
        {save.error && <ErrorNotice error={save.error} title="Not trusted:" />}
        {save.isSuccess && (
          <Notice kind="success">
            Trusted from the next connection on. Test a profile&rsquo;s connection in Profiles.
          </Notice>
        )}
        <div className="button-row">
          <button type="submit" className="primary" disabled={save.isPending || pem.trim() === ''}>
            Trust this CA
          </button>
        </div>
      </form>
    </div>
  );
}
