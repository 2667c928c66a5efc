// Believable request fields for every operation of the table, shared by the unit tests of the
// client and the integration tests against the sandbox. Card numbers are public test numbers.

import type { RequestOperation } from '../../main/gateway/operations';

/**
 * The shop's control key, the one of the worked example in gateway-notes.md: every test and
 * bench that signs as the shop uses it.
 */
export const CONTROL_KEY = 'B17F59B4-A7DC-41B4-8FF9-37D986B43D20';

export const TEST_CARD = {
  credit_card_number: '4444555566661111',
  card_printed_name: 'JOHN SMITH',
  expire_month: '12',
  expire_year: '2030',
  cvv2: '123',
} as const;

const PAYER = {
  email: 'john.smith@gmail.com',
  ipaddress: '203.0.113.7',
  order_desc: 'Order 902B4FF5',
};

export const SAMPLE_FIELDS: Record<RequestOperation, Record<string, string>> = {
  TDS_UPLOAD_CRES_RESULT: {
    'client-order-id': 'co-3ds-1',
    orderid: '9001',
    cres: 'eyJ0cmFuc1N0YXR1cyI6IlkifQ',
  },
  TDS_UPLOAD_METHOD_URL_RESULT: {
    'client-order-id': 'co-3ds-2',
    orderid: '9002',
    threeDSCompInd: 'Y',
    browser_language: 'en-GB',
  },
  TDS_UPLOAD_PARES_RESULT: {
    'client-order-id': 'co-3ds-3',
    orderid: '9003',
    PaRes: 'eJzVWNmSo0iW/ZW0',
    MD: 'md-1',
  },
  ACCOUNT_VERIFICATION_FORM: {
    client_orderid: 'co-avf-1',
    ...PAYER,
    redirect_url: 'https://shop.example.com/return',
  },
  ACCOUNT_VERIFICATION: { client_orderid: 'co-av-1', ...PAYER, ...TEST_CARD },
  CAPTURE: { client_orderid: 'co-cap-1', orderid: '9010', amount: '7.50', currency: 'EUR' },
  CARDREF: { client_orderid: 'co-ref-1', orderid: '9011' },
  CARDINFO: { cardrefid: '777001' },
  REBILL: {
    client_orderid: 'co-rebill-1',
    cardrefid: '777001',
    amount: '19.99',
    currency: 'EUR',
    order_desc: 'Monthly plan',
  },
  PAYMENTFORM: {
    client_orderid: 'co-pf-1',
    amount: '25.00',
    currency: 'EUR',
    ...PAYER,
    redirect_url: 'https://shop.example.com/return',
  },
  PAYOUTFORM: {
    client_orderid: 'co-pof-1',
    amount: '40.00',
    currency: 'EUR',
    order_desc: 'Seller payout',
    redirect_url: 'https://shop.example.com/return',
  },
  PAYOUT: {
    client_orderid: 'co-po-1',
    amount: '120.00',
    currency: 'EUR',
    'destination-card-no': '4111111111111111',
    order_desc: 'Refund of deposit',
  },
  PREAUTHFORM: {
    client_orderid: 'co-paf-1',
    amount: '30.00',
    currency: 'EUR',
    ...PAYER,
    redirect_url: 'https://shop.example.com/return',
  },
  PREAUTH: { client_orderid: 'co-pa-1', amount: '30.00', currency: 'EUR', ...PAYER, ...TEST_CARD },
  RETURN: {
    client_orderid: 'co-ret-1',
    orderid: '9012',
    amount: '2.29',
    currency: 'EUR',
    comment: 'Customer returned one item',
  },
  SALEFORM: {
    client_orderid: 'co-sf-1',
    amount: '10.42',
    currency: 'EUR',
    ...PAYER,
    redirect_url: 'https://shop.example.com/return',
  },
  SALE: {
    client_orderid: '902B4FF5',
    amount: '10.42',
    currency: 'EUR',
    ...PAYER,
    ...TEST_CARD,
    redirect_url: 'https://shop.example.com/return',
  },
  STATUS: { client_orderid: 'co-sale-1', orderid: '9013' },
  VOID: { client_orderid: 'co-void-1', orderid: '9014', comment: 'Duplicate order' },
  CARDREF_V4: { client_orderid: 'co-ref4-1', orderid: '9015' },
  CREATE_RP_V4: {
    client_orderid: 'co-rp-1',
    amount: '9.99',
    currency: 'EUR',
    period: 'month',
    interval: '1',
    cardrefid: '777001',
    email: 'john.smith@gmail.com',
  },
  PAYOUT_V4_CHECK: {
    client_orderid: 'co-poc-1',
    amount: '55.00',
    currency: 'EUR',
    'destination-card-no': '4111111111111111',
  },
  PAYOUT_V4_PAY: { client_orderid: 'co-poc-1', orderid: '9016' },
  PAN_ELIGIBILITY_SEND: { 'client-order-id': 'co-pan-1', 'sending-card-ref-id': '7654321' },
  TRANSFER_V4: {
    client_orderid: 'co-tr-1',
    amount: '15.00',
    currency: 'EUR',
    ...TEST_CARD,
    'destination-card-no': '4111111111111111',
    deposit2card: 'false',
    ipaddress: '203.0.113.7',
    order_desc: 'Transfer',
    redirect_url: 'https://shop.example.com/return',
  },
  TRANSFER_BY_REF_V4: {
    'client-order-id': 'co-trr-1',
    'sending-card-ref-id': '7654321',
    amount: '5.00',
    currency: 'EUR',
    'destination-card-ref-id': '7654322',
  },
};

/** A payout to a test card as the Payouts screen sends it (without profile and action id). */
export const CARD_PAYOUT = {
  destination: { kind: 'card', cardNumber: '4444 5555 6666 1111' },
  receiverFirstName: 'Anna',
  receiverLastName: 'Berg',
  amount: '25.10',
  currency: 'EUR',
  purpose: 'Refund of deposit',
  description: 'Deposit back for booking 4411',
} as const;

/** A payment link's terms for a phone order (PayLinkService.create without profile and id). */
export const PHONE_ORDER_LINK = {
  kind: 'sale',
  amount: '42.00',
  currency: 'EUR',
  email: 'anna@example.com',
  description: 'Phone order 7781: two tickets',
  returnUrl: 'https://shop.example/thanks',
} as const;
