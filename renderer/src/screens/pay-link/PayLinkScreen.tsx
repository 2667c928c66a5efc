// Payment links (finance, support): for a phone or e-mail order, a hosted-form link (SALEFORM,
// or PREAUTHFORM for a hold) made through the one action path. The link can be copied and shown
// as a QR code; the list follows every link's status until the customer pays (then it is an
// order like the others) or it fails.

import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useId, useState, type ComponentProps } from 'react';

import type { z } from 'zod';

import type { PayLinkData, payLinkRequestSchema } from '../../../../common/contract';
import { localTimeWithOffset } from '../../../../common/time';
import { paydesk, unwrap } from '../../api';
import { ErrorNotice, Notice } from '../../components/Notice';
import { useActiveProfile } from '../../profile-context';
import { keys } from '../../queries';
import { hrefOf } from '../../route';
import { describedBy, Field } from '../../money/Field';
import { MoneyForm } from '../../money/MoneyForm';
import { showMoney } from '../../money/amount';
import { FormCheck } from '../../money/checks';
import { useMoneyAction } from '../../money/useMoneyAction';
import '../../money/money.css';

// The QR code's encoder is as large as the rest of the screen and is needed only once a link
// exists: it loads once the screen has painted, so a link made shows its code at once.
const loadQr = () => import('qrcode.react');
const LazyQRCodeSVG = lazy(() => loadQr().then((m) => ({ default: m.QRCodeSVG })));
function QRCodeSVG(props: ComponentProps<typeof LazyQRCodeSVG>) {
  return (
    <Suspense fallback={null}>
      <LazyQRCodeSVG {...props} />
    </Suspense>
  );
}

type PayLinkRequest = z.input<typeof payLinkRequestSchema>;

const STATE_WORDS: Record<PayLinkData['state'], string> = {
  open: 'Open, waiting for the customer',
  paid: 'Paid',
  failed: 'Not paid',
  unsure: 'Unsure: the answer was lost, Paydesk is asking',
};

export function PayLinkScreen() {
  useEffect(() => {
    void loadQr().catch(() => undefined);
  }, []);
  const { active } = useActiveProfile();
  const ids = useId();
  const [kind, setKind] = useState<'sale' | 'preauth'>('sale');
  const [values, setValues] = useState({
    amount: '',
    currency: 'EUR',
    email: '',
    description: '',
    returnUrl: 'https://',
  });
  const action = useMoneyAction((request: PayLinkRequest) =>
    unwrap(paydesk().payLinks.create(request)),
  );
  const links = useQuery({
    queryKey: [...keys.journal, 'pay-links', active?.id ?? ''],
    queryFn: () => unwrap(paydesk().payLinks.list({ profileId: active?.id ?? '' })),
    enabled: Boolean(active),
    refetchInterval: 3_000,
  });
  const [shownQr, setShownQr] = useState<string>();
  if (!active) return null;
  const locked = action.phase !== 'edit';
  const copy = (clientOrderId: string) =>
    void unwrap(paydesk().payLinks.copy({ profileId: active.id, clientOrderId }));
  const input = (
    name: keyof typeof values,
    label: string,
    extra: { hint?: string; inputMode?: 'decimal' | 'email' | 'url'; fields?: string[] } = {},
  ) => {
    const id = `${ids}-${name}`;
    const error = action.problemOf(...(extra.fields ?? [name]));
    return (
      <Field id={id} label={label} {...(extra.hint ? { hint: extra.hint } : {})} error={error}>
        <input
          {...describedBy(id, Boolean(extra.hint), error)}
          value={values[name]}
          disabled={locked}
          {...(extra.inputMode ? { inputMode: extra.inputMode } : {})}
          onChange={(e) => {
            setValues((v) => ({ ...v, [name]: e.target.value }));
            action.clearProblem(name);
          }}
        />
      </Field>
    );
  };
  const request = (clientOrderId: string) => {
    const check = new FormCheck();
    const money = check.money(values.amount, values.currency);
    const email = values.email.trim();
    const returnUrl = values.returnUrl.trim();
    check
      .add(
        'email',
        /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)
          ? undefined
          : 'Write the customer’s e-mail address, for example anna@example.com; the gateway sends the receipt there.',
      )
      .required('description', values.description, 'Say what the customer pays for.')
      .freeText('description', values.description)
      .add(
        'returnUrl',
        /^https?:\/\/\S+$/.test(returnUrl) && returnUrl !== 'https://'
          ? undefined
          : 'Write the address of the shop page the customer returns to after paying, starting with https://.',
      );
    return check.result<PayLinkRequest>(() => ({
      profileId: active.id,
      clientOrderId,
      kind,
      ...money,
      email,
      description: values.description.trim(),
      returnUrl,
    }));
  };
  const made = action.entry?.result['redirect-url'];
  return (
    <div>
      <h1>Payment links</h1>
      <p className="field-hint">
        For an order taken by phone or e-mail: the customer opens the link and pays on the gateway’s
        page. Card numbers never pass through Paydesk.
      </p>
      <MoneyForm
        action={action}
        profile={active}
        label="Payment link"
        submitLabel="Make link…"
        onReview={request}
        confirm={{
          title: 'Make this payment link?',
          confirmLabel: 'Make link',
          children: (request) => (
            <p>
              A link for {kind === 'preauth' ? 'a hold of' : 'a payment of'}{' '}
              <strong className="money">
                {showMoney(request.amount)} {request.currency}
              </strong>{' '}
              for {request.email}: “{request.description.trim()}”, on profile “{active.name}”.
            </p>
          ),
        }}
        outcome={{
          what: 'The link',
          newLabel: 'New link',
          waiting: `The link is ready${action.entry?.orderId ? ` (order ${action.entry.orderId})` : ''}: send it to the customer. Its status shows in the list below until the customer pays.`,
          approved: action.entry?.orderId && `The customer paid: order ${action.entry.orderId}.`,
        }}
      >
        <fieldset>
          <legend>Kind</legend>
          <div className="choice-row">
            <label>
              <input
                type="radio"
                name={`${ids}-kind`}
                checked={kind === 'sale'}
                disabled={locked}
                onChange={() => setKind('sale')}
              />
              Payment
            </label>
            <label>
              <input
                type="radio"
                name={`${ids}-kind`}
                checked={kind === 'preauth'}
                disabled={locked}
                onChange={() => setKind('preauth')}
              />
              Hold (capture later on Orders)
            </label>
          </div>
        </fieldset>
        <div className="field-pair field-pair-amount">
          {input('amount', 'Amount', { inputMode: 'decimal' })}
          {input('currency', 'Currency')}
        </div>
        {input('email', 'Customer’s e-mail', { inputMode: 'email' })}
        {input('description', 'Description', {
          hint: 'What the customer pays for; the payment page shows it.',
          fields: ['description', 'order_desc'],
        })}
        {input('returnUrl', 'Return page', {
          hint: 'The shop page the customer sees after paying.',
          inputMode: 'url',
          fields: ['returnUrl', 'redirect_url'],
        })}
      </MoneyForm>
      {made && action.clientOrderId && action.phase !== 'edit' && (
        <section className="card money-outcome" aria-label="The new link">
          <div className="link-box">
            <div className="qr" role="img" aria-label="QR code of the link">
              <QRCodeSVG value={made} size={144} marginSize={0} />
            </div>
            <div>
              <p className="link-url">{made}</p>
              <button type="button" onClick={() => copy(action.request?.clientOrderId ?? '')}>
                Copy link
              </button>
            </div>
          </div>
        </section>
      )}

      <h2>Links</h2>
      {links.error && <ErrorNotice error={links.error} title="The links could not be read:" />}
      {links.isSuccess && links.data.length === 0 && (
        <Notice kind="info">No payment link yet on this profile.</Notice>
      )}
      {links.data && links.data.length > 0 && (
        <table className="data card" aria-label="Payment links">
          <thead>
            <tr>
              <th>Made</th>
              <th>By</th>
              <th className="num">Amount</th>
              <th>Customer</th>
              <th>Description</th>
              <th>Status</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {links.data.map((link) => (
              <tr key={link.clientOrderId}>
                <td className="nowrap">{localTimeWithOffset(link.createdAt)}</td>
                <td className="nowrap">{link.createdBy}</td>
                <td className="num money nowrap">
                  {link.amount} {link.currency}
                  {link.kind === 'preauth' ? ' (hold)' : ''}
                </td>
                <td>{link.email}</td>
                <td>{link.description}</td>
                <td>
                  <span
                    className={`status-pill status-${link.state === 'paid' ? 'approved' : link.state === 'failed' ? 'declined' : 'pending'}`}
                  >
                    {STATE_WORDS[link.state]}
                  </span>
                  {link.state === 'failed' && link.errorMessage ? ` ${link.errorMessage}` : ''}
                </td>
                <td>
                  <div className="button-row">
                    {link.state === 'open' && link.url && (
                      <>
                        <button
                          type="button"
                          onClick={() => copy(link.clientOrderId)}
                          aria-label={`Copy the link for ${link.email ?? ''}`}
                        >
                          Copy
                        </button>
                        <button
                          type="button"
                          aria-expanded={shownQr === link.clientOrderId}
                          onClick={() =>
                            setShownQr((v) =>
                              v === link.clientOrderId ? undefined : link.clientOrderId,
                            )
                          }
                          aria-label={`QR code of the link for ${link.email ?? ''}`}
                        >
                          QR
                        </button>
                      </>
                    )}
                    {link.state === 'paid' && link.orderId && (
                      <a href={hrefOf({ screen: 'lookup', param: link.orderId })}>
                        Order {link.orderId}
                      </a>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {shownQr && links.data?.find((l) => l.clientOrderId === shownQr)?.url && (
        <div className="card link-box" aria-label="QR code of the chosen link">
          <div className="qr" role="img" aria-label="QR code">
            <QRCodeSVG
              value={links.data.find((l) => l.clientOrderId === shownQr)?.url ?? ''}
              size={144}
              marginSize={0}
            />
          </div>
          <p className="link-url">{links.data.find((l) => l.clientOrderId === shownQr)?.url}</p>
        </div>
      )}
    </div>
  );
}
