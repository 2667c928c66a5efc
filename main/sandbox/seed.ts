// `--seed demo`: a believable set of orders for first use, so a new user can look up, capture
// and refund at once: approved and declined sales, a 3DS sale waiting for the customer,
// preauths to capture (one partly captured), sales partly refunded, a voided sale, an order
// the bank has not answered, a payout and a card reference. Orders are spread over the last
// days; those older than the settlement delay can no longer be voided, as in real life.

import { parseAmount } from '../gateway/amount';
import { outcomeForCvv2, storedCard } from './cards';
import type { TxRow } from './db';
import type { Engine } from './engine';

const HOUR = 3_600_000;

interface DemoOrder {
  coid: string;
  kind: 'sale' | 'preauth';
  amount: string;
  currency: string;
  email: string;
  pan: string;
  holder: string;
  cvv2: string;
  hoursAgo: number;
}

const DEMO: readonly DemoOrder[] = [
  {
    coid: 'demo-sale-1001',
    kind: 'sale',
    amount: '49.90',
    currency: 'EUR',
    email: 'anna.schmidt@example.com',
    pan: '4444555566661111',
    holder: 'ANNA SCHMIDT',
    cvv2: '123',
    hoursAgo: 50,
  },
  {
    coid: 'demo-sale-1002',
    kind: 'sale',
    amount: '120.00',
    currency: 'EUR',
    email: 'li.wei@example.com',
    pan: '5555555555554444',
    holder: 'LI WEI',
    cvv2: '123',
    hoursAgo: 30,
  },
  {
    coid: 'demo-sale-1003',
    kind: 'sale',
    amount: '15.75',
    currency: 'USD',
    email: 'maria.garcia@example.com',
    pan: '4111111111111111',
    holder: 'MARIA GARCIA',
    cvv2: '111',
    hoursAgo: 3,
  },
  {
    coid: 'demo-sale-1004',
    kind: 'sale',
    amount: '230.00',
    currency: 'EUR',
    email: 'john.smith@example.com',
    pan: '4012888888881881',
    holder: 'JOHN SMITH',
    cvv2: '116',
    hoursAgo: 2,
  },
  {
    coid: 'demo-sale-1005',
    kind: 'sale',
    amount: '8.99',
    currency: 'EUR',
    email: 'olga.ivanova@example.com',
    pan: '2200000000000004',
    holder: 'OLGA IVANOVA',
    cvv2: '101',
    hoursAgo: 1,
  },
  {
    coid: 'demo-sale-1006',
    kind: 'sale',
    amount: '64.00',
    currency: 'EUR',
    email: 'tom.baker@example.com',
    pan: '5105105105105100',
    holder: 'TOM BAKER',
    cvv2: '321',
    hoursAgo: 0.2,
  },
  {
    coid: 'demo-sale-1007',
    kind: 'sale',
    amount: '99.00',
    currency: 'GBP',
    email: 'sam.jones@example.com',
    pan: '4444555566661111',
    holder: 'SAM JONES',
    cvv2: '217',
    hoursAgo: 5,
  },
  {
    coid: 'demo-sale-1008',
    kind: 'sale',
    amount: '75.50',
    currency: 'EUR',
    email: 'eva.novak@example.com',
    pan: '4111111111111111',
    holder: 'EVA NOVAK',
    cvv2: '1234',
    hoursAgo: 4,
  },
  {
    coid: 'demo-sale-1009',
    kind: 'sale',
    amount: '300.00',
    currency: 'EUR',
    email: 'ken.tanaka@example.com',
    pan: '5555555555554444',
    holder: 'KEN TANAKA',
    cvv2: '123',
    hoursAgo: 26,
  },
  {
    coid: 'demo-auth-2001',
    kind: 'preauth',
    amount: '180.00',
    currency: 'EUR',
    email: 'hotel.guest@example.com',
    pan: '4444555566661111',
    holder: 'PAULA BROWN',
    cvv2: '123',
    hoursAgo: 20,
  },
  {
    coid: 'demo-auth-2002',
    kind: 'preauth',
    amount: '59.00',
    currency: 'EUR',
    email: 'car.rental@example.com',
    pan: '5555555555554444',
    holder: 'IVAN PETROV',
    cvv2: '123',
    hoursAgo: 6,
  },
  {
    coid: 'demo-auth-2003',
    kind: 'preauth',
    amount: '420.00',
    currency: 'USD',
    email: 'event.tickets@example.com',
    pan: '4111111111111111',
    holder: 'NOOR KHAN',
    cvv2: '123',
    hoursAgo: 1.5,
  },
  // Currencies with other decimals than two (ISO 4217): yen have none, Kuwaiti dinars three.
  {
    coid: 'demo-sale-1010',
    kind: 'sale',
    amount: '5000',
    currency: 'JPY',
    email: 'yuki.sato@example.com',
    pan: '4444555566661111',
    holder: 'YUKI SATO',
    cvv2: '123',
    hoursAgo: 2.5,
  },
  {
    coid: 'demo-sale-1011',
    kind: 'sale',
    amount: '12.345',
    currency: 'KWD',
    email: 'fahad.alsabah@example.com',
    pan: '5555555555554444',
    holder: 'FAHAD ALSABAH',
    cvv2: '123',
    hoursAgo: 2.2,
  },
];

/** Seeds the endpoint's books once; a database that already has orders there is left alone. */
export function seedDemo(engine: Engine, endpointId: string): void {
  const { store } = engine;
  if (store.listTx(endpointId).length > 0) return;
  const now = engine.now();
  const byCoid = new Map<string, TxRow>();

  // Settles a transaction as if it had been processed at `at`.
  const finishAt = (tx: TxRow, at: number): TxRow => {
    store.updateTx(tx.id, { due_at: BigInt(at), created_at: BigInt(at - 2_000) });
    engine.finalizeDue();
    const done = store.tx(tx.id) ?? tx;
    return done.final_at !== null ? store.updateTx(tx.id, { final_at: BigInt(at) }) : done;
  };

  store.atomically(() => {
    for (const order of DEMO) {
      const outcome = outcomeForCvv2(order.cvv2);
      const card = storedCard({
        credit_card_number: order.pan,
        card_printed_name: order.holder,
        expire_month: '12',
        expire_year: '2030',
      });
      const tx = engine.create({
        endpoint_id: endpointId,
        client_orderid: order.coid,
        operation: order.kind === 'sale' ? 'SALE' : 'PREAUTH',
        kind: order.kind,
        amount_minor: parseAmount(order.amount, 'amount', order.currency).minor,
        currency: order.currency,
        email: order.email,
        ...card,
        plan: outcome.plan,
        decline_code: outcome.declineCode ?? null,
        decline_reason: outcome.declineReason ?? null,
        three_ds: outcome.threeDs ? 1n : 0n,
        stage: outcome.threeDs ? '3ds-method' : 'queued',
      });
      const at = now - order.hoursAgo * HOUR;
      byCoid.set(
        order.coid,
        outcome.threeDs ? store.updateTx(tx.id, { created_at: BigInt(at) }) : finishAt(tx, at),
      );
    }

    const get = (coid: string): TxRow => store.tx(byCoid.get(coid)?.id ?? 0n) as TxRow;
    // Sales partly refunded, a fully refunded one, a voided one, a partly captured preauth.
    finishAt(
      engine.refund(get('demo-sale-1001'), { minor: 1990n, currency: 'EUR' }, 'demo-return-1001-a'),
      now - 40 * HOUR,
    );
    finishAt(
      engine.refund(get('demo-sale-1002'), { minor: 2000n, currency: 'EUR' }, 'demo-return-1002-a'),
      now - 20 * HOUR,
    );
    finishAt(
      engine.refund(get('demo-sale-1002'), { minor: 500n, currency: 'EUR' }, 'demo-return-1002-b'),
      now - 10 * HOUR,
    );
    finishAt(engine.refund(get('demo-sale-1009'), undefined, 'demo-return-1009'), now - 24 * HOUR);
    finishAt(engine.voidTx(get('demo-sale-1008'), 'demo-void-1008'), now - 3.5 * HOUR);
    finishAt(
      engine.capture(
        get('demo-auth-2001'),
        { minor: 12000n, currency: 'EUR' },
        'demo-capture-2001-a',
      ),
      now - 18 * HOUR,
    );

    // A payout sent yesterday and a card reference from the first sale.
    finishAt(
      engine.create({
        endpoint_id: endpointId,
        client_orderid: 'demo-payout-3001',
        operation: 'PAYOUT',
        kind: 'payout',
        amount_minor: 25000n,
        currency: 'EUR',
        destination: 'card 411111******1111',
      }),
      now - 22 * HOUR,
    );
    const first = get('demo-sale-1001');
    store.insertCardRef({
      endpoint_id: endpointId,
      source_tx_id: first.id,
      card_bin: first.card_bin ?? '',
      card_last4: first.card_last4 ?? '',
      card_type: first.card_type ?? '',
      card_holder: first.card_holder ?? '',
      card_exp_month: first.card_exp_month ?? '',
      card_exp_year: first.card_exp_year ?? '',
      created_at: BigInt(now - 49 * HOUR),
    });
  });
}
