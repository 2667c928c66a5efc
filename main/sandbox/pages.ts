// The sandbox's own web pages, for a person in a browser: the hosted payment (or payout) form,
// the 3-D Secure ACS challenge, and the waiting page that sends the customer back to the
// merchant's redirect_url with a POST form once the order is final. Plain HTML that works
// without script; script only auto-submits the return form, as the real gateway's page does.

import type { IncomingMessage, ServerResponse } from 'node:http';

import { formatMinor } from '../gateway/amount';
import { InputError } from '../gateway/errors';
import { validateFields } from '../gateway/fields';
import { getOperation } from '../gateway/operations';
import { outcomeParams, pageUrl } from './answers';
import { maskPan, outcomeForCvv2, storedCard } from './cards';
import type { TxRow } from './db';
import type { Engine } from './engine';
import { readBody } from './wire';

/** The one-time code the sandbox ACS accepts; shown on the page so anyone can complete it. */
export const ACS_CODE = '1234';

export interface PageContext {
  engine: Engine;
  /** Base address of the pages as the browser reached them. */
  pages: string;
  controlKeyOf: (endpointId: string) => string | undefined;
}

const escape = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

function layout(title: string, body: string, extraHead = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>${extraHead}
<style>
body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;padding:2rem;color:#1d2433}
main{max-width:28rem;margin:auto;background:#fff;border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 4px #0002}
label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}
.row{display:flex;gap:.5rem}.row>div{flex:1}
button{margin-top:1.2rem;padding:.6rem 1.2rem;font-size:1rem}
.error{color:#a00;background:#fee;padding:.5rem;border-radius:4px}
.note{color:#555;font-size:.9rem}
</style>
</head>
<body><main>
<p class="note">Paydesk sandbox gateway: test data only.</p>
${body}
</main></body>
</html>`;
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    // The pages carry no third-party content; script only auto-submits the return form.
    'Content-Security-Policy':
      "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; form-action *",
  });
  res.end(html);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { Location: location, 'Content-Length': '0' });
  res.end();
}

const amountText = (tx: TxRow) =>
  tx.amount_minor > 0n ? `${formatMinor(tx.amount_minor, tx.currency)} ${tx.currency}` : '';

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  return new URLSearchParams((await readBody(req)).toString('utf8'));
}

// Hosted form ------------------------------------------------------------------------------

const CARD_LABELS: Record<string, string> = {
  credit_card_number: 'Card number',
  card_printed_name: 'Name on card',
  expire_month: 'Expiry month (MM)',
  expire_year: 'Expiry year (YYYY)',
  cvv2: 'CVV2',
};

function cardForm(
  tx: TxRow,
  action: string,
  error?: string,
  values: Record<string, string> = {},
): string {
  const payout = tx.kind === 'payout';
  const title = payout
    ? 'Where should we send the money?'
    : tx.kind === 'account-verification'
      ? 'Verify your card'
      : 'Pay by card';
  const input = (name: string, label: string, attrs = '') =>
    `<div><label for="${name}">${escape(label)}</label><input id="${name}" name="${name}" value="${escape(values[name] ?? '')}" ${attrs}></div>`;
  const fields = payout
    ? input(
        'destination-card-no',
        'Card number to receive the payout',
        'inputmode="numeric" autocomplete="off" required',
      ) + input('receiver_name', 'Name of the receiver', 'autocomplete="name"')
    : input(
        'credit_card_number',
        CARD_LABELS.credit_card_number ?? '',
        'inputmode="numeric" autocomplete="cc-number" required',
      ) +
      input(
        'card_printed_name',
        CARD_LABELS.card_printed_name ?? '',
        'autocomplete="cc-name" required',
      ) +
      `<div class="row">${input('expire_month', CARD_LABELS.expire_month ?? '', 'inputmode="numeric" autocomplete="cc-exp-month" required')}${input('expire_year', CARD_LABELS.expire_year ?? '', 'inputmode="numeric" autocomplete="cc-exp-year" required')}</div>` +
      input('cvv2', CARD_LABELS.cvv2 ?? '', 'inputmode="numeric" autocomplete="cc-csc" required');
  const amount = amountText(tx);
  const button = payout
    ? `Receive ${amount}`
    : tx.kind === 'account-verification'
      ? 'Verify card'
      : `Pay ${amount}`;
  return layout(
    title,
    `<h1>${escape(title)}</h1>
<p>Order ${escape(tx.client_orderid)}${amount ? `: <strong>${escape(amount)}</strong>` : ''}</p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<form method="POST" action="${escape(action)}">
${fields}
<button type="submit">${escape(button)}</button>
</form>
${payout ? '' : '<p class="note">Test cards: any Luhn-valid number. CVV2 123 approves, 321 asks for 3-D Secure, 116 is declined for insufficient funds.</p>'}`,
  );
}

export async function formPage(
  ctx: PageContext,
  tx: TxRow,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const self = pageUrl.form(ctx.pages, tx.page_token ?? '');
  if (tx.stage !== 'form') {
    redirect(res, pageUrl.wait(ctx.pages, tx.page_token ?? ''));
    return;
  }
  if (req.method !== 'POST') {
    sendHtml(res, 200, cardForm(tx, self));
    return;
  }
  const body = await formBody(req);
  const values = Object.fromEntries([...body.entries()].map(([k, v]) => [k, v.trim()]));
  const { engine } = ctx;
  try {
    if (tx.kind === 'payout') {
      const pan = (values['destination-card-no'] ?? '').replace(/[\s-]/g, '');
      if (!pan) throw new InputError('Enter the card number that should receive the payout.');
      validateFields(
        { ...getOperation('PAYOUT'), required: ['destination-card-no'] },
        { 'destination-card-no': pan },
      );
      engine.store.atomically(() => engine.queue(tx, { destination: `card ${maskPan(pan)}` }));
      redirect(res, pageUrl.wait(ctx.pages, tx.page_token ?? ''));
      return;
    }
    const card: Record<string, string> = {};
    for (const [name, label] of Object.entries(CARD_LABELS)) {
      const value =
        name === 'credit_card_number'
          ? (values[name] ?? '').replace(/[\s-]/g, '')
          : (values[name] ?? '');
      if (!value) throw new InputError(`Enter the ${label.toLowerCase()}.`);
      card[name] = value;
    }
    // The client's own field rules, so the page and the API refuse the same things.
    const clean = validateFields(
      { ...getOperation('SALE'), required: Object.keys(CARD_LABELS) },
      card,
    );
    const outcome = outcomeForCvv2(clean.cvv2);
    const patch = {
      ...storedCard(clean),
      plan: outcome.plan,
      decline_code: outcome.declineCode ?? null,
      decline_reason: outcome.declineReason ?? null,
      three_ds: outcome.threeDs ? 1n : 0n,
    };
    if (outcome.threeDs) {
      // A person is at the browser: the Method step is skipped and the challenge shown at once.
      engine.store.updateTx(tx.id, { ...patch, stage: '3ds-challenge' });
      redirect(res, pageUrl.acs(ctx.pages, tx.page_token ?? ''));
    } else {
      engine.store.atomically(() => engine.queue(tx, patch));
      redirect(res, pageUrl.wait(ctx.pages, tx.page_token ?? ''));
    }
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    delete values.cvv2;
    sendHtml(res, 400, cardForm(tx, self, error.message, values));
  }
}

// 3-D Secure ACS ---------------------------------------------------------------------------

function acsChallenge(tx: TxRow, action: string, error?: string): string {
  const card = tx.card_bin ? `${tx.card_bin}******${tx.card_last4 ?? ''}` : 'your card';
  return layout(
    '3-D Secure check',
    `<h1>3-D Secure check</h1>
<p>Confirm the payment${amountText(tx) ? ` of <strong>${escape(amountText(tx))}</strong>` : ''} with ${escape(card)}.</p>
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ''}
<form method="POST" action="${escape(action)}">
<label for="otp">One-time code</label>
<input id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code">
<p class="note">Sandbox ACS: the code is ${ACS_CODE}.</p>
<button type="submit" name="action" value="authenticate">Confirm</button>
<button type="submit" name="action" value="cancel">Cancel payment</button>
</form>`,
  );
}

export async function acsPage(
  ctx: PageContext,
  tx: TxRow,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const self = pageUrl.acs(ctx.pages, tx.page_token ?? '');
  if (!ctx.engine.isWaitingFor3ds(tx)) {
    redirect(res, pageUrl.wait(ctx.pages, tx.page_token ?? ''));
    return;
  }
  // The status's `html` hand-off POSTs here without an action: that only opens the page.
  const body = req.method === 'POST' ? await formBody(req) : new URLSearchParams();
  const action = body.get('action');
  if (action === null) {
    sendHtml(res, 200, acsChallenge(tx, self));
    return;
  }
  if (action === 'authenticate' && (body.get('otp') ?? '').trim() !== ACS_CODE) {
    sendHtml(
      res,
      400,
      acsChallenge(tx, self, `That code is wrong; the sandbox code is ${ACS_CODE}.`),
    );
    return;
  }
  if (action !== 'authenticate' && action !== 'cancel') {
    sendHtml(res, 400, acsChallenge(tx, self, 'Choose Confirm or Cancel.'));
    return;
  }
  const { engine } = ctx;
  engine.store.atomically(() => engine.completeChallenge(tx, action === 'authenticate'));
  redirect(res, pageUrl.wait(ctx.pages, tx.page_token ?? ''));
}

// Waiting and the browser return ---------------------------------------------------------

export function waitPage(ctx: PageContext, tx: TxRow, res: ServerResponse): void {
  const token = tx.page_token ?? '';
  if (tx.stage === 'form') return redirect(res, pageUrl.form(ctx.pages, token));
  if (ctx.engine.isWaitingFor3ds(tx)) return redirect(res, pageUrl.acs(ctx.pages, token));
  if (tx.status === 'processing') {
    sendHtml(
      res,
      200,
      layout(
        'Processing',
        '<h1>Processing…</h1><p>Your payment is being processed. This page refreshes by itself.</p>',
        '\n<meta http-equiv="refresh" content="1">',
      ),
    );
    return;
  }
  const words: Record<string, string> = {
    approved: 'Approved',
    declined: 'Declined',
    unknown: 'Waiting for the bank',
    error: 'Failed',
    filtered: 'Declined',
  };
  const headline = words[tx.status] ?? tx.status;
  const reason =
    tx.status !== 'approved' && tx.decline_reason ? `<p>${escape(tx.decline_reason)}</p>` : '';
  const key = ctx.controlKeyOf(tx.endpoint_id);
  if (!tx.redirect_url || key === undefined) {
    sendHtml(
      res,
      200,
      layout(
        headline,
        `<h1 id="result">${escape(headline)}</h1>${reason}<p>You can close this page.</p>`,
      ),
    );
    return;
  }
  const inputs = Object.entries(outcomeParams(tx, key))
    .map(([name, value]) => `<input type="hidden" name="${escape(name)}" value="${escape(value)}">`)
    .join('\n');
  sendHtml(
    res,
    200,
    layout(
      headline,
      `<h1 id="result">${escape(headline)}</h1>${reason}
<form method="POST" action="${escape(tx.redirect_url)}" id="back">
${inputs}
<button type="submit">Return to the shop</button>
</form>
<script>document.getElementById('back').submit();</script>`,
    ),
  );
}
