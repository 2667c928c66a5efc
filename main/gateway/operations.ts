// The one table of operations. The client builds requests from it, the sandbox verifies and
// answers from it, and the screens list it: adding an operation is adding one row here.
//
// Sources: every row of the Operations table of spec/gateway-api.md, plus the three operations
// that appear only in its authentication examples. Where the spec says "not shown" the row
// follows gateway-notes.md, and where both are silent the decision is written in
// docs/protocol.md (look for "decided").

import { InputError } from './errors';

export type AuthScheme =
  | { readonly kind: 'control'; readonly formula: readonly ControlPart[] }
  | { readonly kind: 'oauth-hmac' }
  | { readonly kind: 'oauth-rsa' };

/**
 * One element of a `control` formula, concatenated in order. `endpointId` is the path
 * parameter, `login` and `merchant_control_key` come from the profile, anything else is a
 * body field by its name in that operation. `amount` enters as integer minor units.
 */
export type ControlPart = 'endpointId' | 'login' | 'merchant_control_key' | (string & {});

export type ResponseType =
  | 'async-response'
  | 'async-form-response'
  | 'status-response'
  | 'create-card-ref-response'
  | 'get-card-info-response'
  | 'create-recurring-payment-response';

export type OperationGroup =
  'payment' | 'order' | 'card' | 'recurring' | 'payout' | 'form' | '3ds' | 'transfer';

export interface OperationDef {
  readonly name: RequestOperation;
  /** Path after the base URL, without the trailing `/{endpointId}`. */
  readonly path: string;
  readonly purpose: string;
  readonly group: OperationGroup;
  readonly auth: AuthScheme;
  /** Body fields that must be present and non-empty. */
  readonly required: readonly string[];
  /** Sets of fields of which at least one must be present (e.g. status by orderid or client_orderid). */
  readonly requiredOneOf?: readonly (readonly string[])[];
  /** Fields that must be sent together or not at all (capture/return: amount with currency). */
  readonly together?: readonly (readonly string[])[];
  /** Known optional fields; other fields are passed through as the caller gives them. */
  readonly optional: readonly string[];
  /** The field that carries the merchant's order id in this operation. */
  readonly clientOrderIdField: 'client_orderid' | 'client-order-id';
  /** True when the operation moves money or registers something, so the journal records it. */
  readonly journaled: boolean;
  readonly response: ResponseType;
}

export const REQUEST_OPERATIONS = [
  'TDS_UPLOAD_CRES_RESULT',
  'TDS_UPLOAD_METHOD_URL_RESULT',
  'TDS_UPLOAD_PARES_RESULT',
  'ACCOUNT_VERIFICATION_FORM',
  'ACCOUNT_VERIFICATION',
  'CAPTURE',
  'CARDREF',
  'CARDINFO',
  'REBILL',
  'PAYMENTFORM',
  'PAYOUTFORM',
  'PAYOUT',
  'PREAUTHFORM',
  'PREAUTH',
  'RETURN',
  'SALEFORM',
  'SALE',
  'STATUS',
  'VOID',
  'CARDREF_V4',
  'CREATE_RP_V4',
  'PAYOUT_V4_CHECK',
  'PAYOUT_V4_PAY',
  'PAN_ELIGIBILITY_SEND',
  'TRANSFER_V4',
  'TRANSFER_BY_REF_V4',
] as const;

export type RequestOperation = (typeof REQUEST_OPERATIONS)[number];

// Formulas, written once and named by what they sign.
const ENDPOINT_ORDER_AMOUNT_EMAIL: readonly ControlPart[] = [
  'endpointId',
  'client_orderid',
  'amount',
  'email',
  'merchant_control_key',
];
const ENDPOINT_ORDER_EMAIL: readonly ControlPart[] = [
  'endpointId',
  'client_orderid',
  'email',
  'merchant_control_key',
];
const LOGIN_ORDER_ORDERID: readonly ControlPart[] = [
  'login',
  'client_orderid',
  'orderid',
  'merchant_control_key',
];
const LOGIN_ORDER_ORDERID_AMOUNT: readonly ControlPart[] = [
  'login',
  'client_orderid',
  'orderid',
  'amount',
  'currency',
  'merchant_control_key',
];
const LOGIN_TDS_ORDER: readonly ControlPart[] = [
  'login',
  'client-order-id',
  'orderid',
  'merchant_control_key',
];

const control = (formula: readonly ControlPart[]): AuthScheme => ({ kind: 'control', formula });
const OAUTH_HMAC: AuthScheme = { kind: 'oauth-hmac' };
const OAUTH_RSA: AuthScheme = { kind: 'oauth-rsa' };

// Field groups shared by several rows.
const CARD = [
  'credit_card_number',
  'card_printed_name',
  'expire_month',
  'expire_year',
  'cvv2',
] as const;
const PAYER = [
  'first_name',
  'last_name',
  'address1',
  'city',
  'state',
  'zip_code',
  'country',
  'phone',
  'ipaddress',
  'order_desc',
  'site_url',
] as const;
const URLS = ['redirect_url', 'server_callback_url'] as const;
const DESTINATION = [
  'destination-card-no',
  'destination_card_recurring_payment_id',
  'destination-card-ref-id',
  'account_number',
  'bank_name',
  'bank_bic',
  'receiver_phone',
  'receiver_first_name',
  'receiver_last_name',
  'purpose',
] as const;
const BROWSER = [
  'browser_accept_header',
  'browser_java_enabled',
  'browser_language',
  'browser_color_depth',
  'browser_screen_height',
  'browser_screen_width',
  'browser_tz',
  'browser_user_agent',
] as const;

type Row = Omit<OperationDef, 'name' | 'optional' | 'clientOrderIdField' | 'journaled'> &
  Partial<Pick<OperationDef, 'optional' | 'clientOrderIdField' | 'journaled'>>;

const ROWS = {
  TDS_UPLOAD_CRES_RESULT: {
    path: '/api/3ds/v1/upload-cres-result',
    purpose: 'Upload the CRes of a 3DS 2.x challenge',
    group: '3ds',
    auth: control(LOGIN_TDS_ORDER),
    required: ['client-order-id', 'orderid', 'cres'],
    clientOrderIdField: 'client-order-id',
    response: 'async-response',
  },
  TDS_UPLOAD_METHOD_URL_RESULT: {
    path: '/api/3ds/v1/upload-method-url-result',
    purpose: 'Upload the result of the 3DS 2.x Method step',
    group: '3ds',
    auth: control(LOGIN_TDS_ORDER),
    required: ['client-order-id', 'orderid', 'threeDSCompInd'],
    optional: BROWSER,
    clientOrderIdField: 'client-order-id',
    response: 'async-response',
  },
  TDS_UPLOAD_PARES_RESULT: {
    path: '/api/3ds/v1/upload-pares-result',
    purpose: 'Upload the PaRes of a 3DS 1.0.2 flow',
    group: '3ds',
    auth: control(LOGIN_TDS_ORDER),
    required: ['client-order-id', 'orderid', 'PaRes'],
    optional: ['MD'],
    clientOrderIdField: 'client-order-id',
    response: 'async-response',
  },
  ACCOUNT_VERIFICATION_FORM: {
    path: '/api/v2/account-verification-form',
    purpose: 'Account verification on the hosted page',
    group: 'form',
    auth: control(ENDPOINT_ORDER_EMAIL),
    required: ['client_orderid', 'email', 'redirect_url'],
    optional: [...PAYER, 'server_callback_url'],
    journaled: true,
    response: 'async-form-response',
  },
  ACCOUNT_VERIFICATION: {
    path: '/api/v2/account-verification',
    purpose: 'Zero-amount authorization that checks the card account',
    group: 'payment',
    auth: control(ENDPOINT_ORDER_EMAIL),
    required: ['client_orderid', 'email', ...CARD],
    optional: [...PAYER, ...URLS],
    journaled: true,
    response: 'async-response',
  },
  CAPTURE: {
    path: '/api/v2/capture',
    purpose: 'Settle a preauth, fully or partly',
    group: 'order',
    auth: control(LOGIN_ORDER_ORDERID_AMOUNT),
    required: ['client_orderid', 'orderid'],
    together: [['amount', 'currency']],
    optional: ['amount', 'currency', 'comment'],
    journaled: true,
    response: 'async-response',
  },
  CARDREF: {
    path: '/api/v2/create-card-ref',
    purpose: 'Tokenize the card of an approved order into a card reference',
    group: 'card',
    auth: control(LOGIN_ORDER_ORDERID),
    required: ['client_orderid', 'orderid'],
    journaled: true,
    response: 'create-card-ref-response',
  },
  CARDINFO: {
    path: '/api/v2/get-card-info',
    purpose: 'BIN, brand, masked PAN and expiry of a card reference',
    group: 'card',
    // decided: the spec states no checksum; gateway-notes.md gives the deployed formula.
    auth: control(['login', 'cardrefid', 'merchant_control_key']),
    required: ['cardrefid'],
    response: 'get-card-info-response',
  },
  REBILL: {
    path: '/api/v2/make-rebill',
    purpose: 'Charge a stored card without the cardholder present',
    group: 'card',
    auth: control([
      'login',
      'client_orderid',
      'cardrefid',
      'amount',
      'currency',
      'merchant_control_key',
    ]),
    required: ['client_orderid', 'cardrefid', 'amount', 'currency'],
    optional: ['order_desc', 'ipaddress', 'cvv2', 'server_callback_url', 'comment'],
    journaled: true,
    response: 'async-response',
  },
  PAYMENTFORM: {
    path: '/api/v2/payment-form',
    purpose: 'Generic hosted payment form',
    group: 'form',
    // decided: the spec names no scheme; it is a payment form of v2 like sale-form, so it signs like sale-form.
    auth: control(ENDPOINT_ORDER_AMOUNT_EMAIL),
    required: ['client_orderid', 'amount', 'currency', 'email', 'redirect_url'],
    optional: [...PAYER, 'server_callback_url'],
    journaled: true,
    response: 'async-form-response',
  },
  PAYOUTFORM: {
    path: '/api/v2/payout-form',
    purpose: 'Payout whose destination is collected on the hosted page',
    group: 'form',
    // decided: the spec names no scheme; v2 payout signs with OAuth HMAC-SHA1 and so does
    // the deployed payout-form.
    auth: OAUTH_HMAC,
    required: ['client_orderid', 'amount', 'currency', 'order_desc', 'redirect_url'],
    optional: ['ipaddress', 'purpose', 'server_callback_url'],
    journaled: true,
    response: 'async-form-response',
  },
  PAYOUT: {
    path: '/api/v2/payout',
    purpose: 'Send funds to a card, bank account, e-wallet or phone (SBP)',
    group: 'payout',
    auth: OAUTH_HMAC,
    required: ['client_orderid', 'amount', 'currency'],
    optional: [...DESTINATION, 'order_desc', 'ipaddress', 'server_callback_url'],
    journaled: true,
    response: 'async-response',
  },
  PREAUTHFORM: {
    path: '/api/v2/preauth-form',
    purpose: 'Preauth on the hosted page',
    group: 'form',
    auth: control(ENDPOINT_ORDER_AMOUNT_EMAIL),
    required: ['client_orderid', 'amount', 'currency', 'email', 'redirect_url'],
    optional: [...PAYER, 'server_callback_url'],
    journaled: true,
    response: 'async-form-response',
  },
  PREAUTH: {
    path: '/api/v2/preauth',
    purpose: 'Reserve funds without settlement',
    group: 'payment',
    auth: control(ENDPOINT_ORDER_AMOUNT_EMAIL),
    required: ['client_orderid', 'amount', 'currency', 'email', ...CARD],
    optional: [...PAYER, ...URLS],
    journaled: true,
    response: 'async-response',
  },
  RETURN: {
    path: '/api/v2/return',
    purpose: 'Return funds: cancel a preauth, or refund a sale or capture, fully or partly',
    group: 'order',
    auth: control(LOGIN_ORDER_ORDERID_AMOUNT),
    required: ['client_orderid', 'orderid'],
    together: [['amount', 'currency']],
    optional: ['amount', 'currency', 'comment'],
    journaled: true,
    response: 'async-response',
  },
  SALEFORM: {
    path: '/api/v2/sale-form',
    purpose: 'Sale on the hosted page',
    group: 'form',
    auth: control(ENDPOINT_ORDER_AMOUNT_EMAIL),
    required: ['client_orderid', 'amount', 'currency', 'email', 'redirect_url'],
    optional: [...PAYER, 'server_callback_url'],
    journaled: true,
    response: 'async-form-response',
  },
  SALE: {
    path: '/api/v2/sale',
    purpose: 'Authorize and capture in one request',
    group: 'payment',
    auth: control(ENDPOINT_ORDER_AMOUNT_EMAIL),
    required: ['client_orderid', 'amount', 'currency', 'email', ...CARD],
    optional: [...PAYER, ...URLS],
    journaled: true,
    response: 'async-response',
  },
  STATUS: {
    path: '/api/v2/status',
    purpose: 'Current status of a transaction',
    group: 'order',
    auth: control(LOGIN_ORDER_ORDERID),
    required: [],
    requiredOneOf: [['orderid', 'client_orderid']],
    optional: ['orderid', 'client_orderid'],
    response: 'status-response',
  },
  VOID: {
    path: '/api/v2/void',
    purpose: 'Cancel an approved, unsettled transaction',
    group: 'order',
    auth: control(LOGIN_ORDER_ORDERID),
    // gateway-notes.md: deployed gateways require `comment` on void.
    required: ['client_orderid', 'orderid', 'comment'],
    journaled: true,
    response: 'async-response',
  },
  CARDREF_V4: {
    path: '/api/v4/create-card-ref',
    purpose: 'Tokenize a card (v4, RSA-signed)',
    group: 'card',
    auth: OAUTH_RSA,
    required: ['client_orderid', 'orderid'],
    journaled: true,
    response: 'create-card-ref-response',
  },
  CREATE_RP_V4: {
    path: '/api/v4/create-recurring-payment',
    purpose: 'Create a recurring payment subscription',
    group: 'recurring',
    auth: OAUTH_RSA,
    required: ['client_orderid', 'amount', 'currency', 'period', 'interval'],
    requiredOneOf: [['cardrefid', 'credit_card_number']],
    optional: [
      'cardrefid',
      ...CARD,
      'email',
      'order_desc',
      'start-date',
      'repeats-number',
      'ipaddress',
      'server_callback_url',
      ...PAYER,
    ],
    journaled: true,
    response: 'create-recurring-payment-response',
  },
  PAYOUT_V4_CHECK: {
    path: '/api/v4/payout-check',
    purpose: 'Two-step payout, step one: validate and register without releasing funds',
    group: 'payout',
    auth: OAUTH_RSA,
    required: ['client_orderid', 'amount', 'currency'],
    optional: [...DESTINATION, 'order_desc', 'ipaddress', 'server_callback_url'],
    journaled: true,
    response: 'async-response',
  },
  PAYOUT_V4_PAY: {
    path: '/api/v4/payout-pay',
    purpose: 'Two-step payout, step two: execute a registered payout',
    group: 'payout',
    // decided: RSA-SHA256 like the rest of v4; identifies the payout registered by
    // payout-check by its client_orderid and orderid; answers an AsyncResponse.
    auth: OAUTH_RSA,
    required: ['client_orderid', 'orderid'],
    journaled: true,
    response: 'async-response',
  },
  PAN_ELIGIBILITY_SEND: {
    path: '/api/v2/pan-eligibility/send',
    purpose: 'Check that a stored card can send funds',
    group: 'transfer',
    auth: OAUTH_HMAC,
    required: ['client-order-id', 'sending-card-ref-id'],
    clientOrderIdField: 'client-order-id',
    response: 'async-response',
  },
  TRANSFER_V4: {
    path: '/api/v4/transfer',
    purpose: 'Transfer funds between cards or to a card',
    group: 'transfer',
    auth: OAUTH_RSA,
    required: ['client_orderid', 'amount', 'currency'],
    optional: [
      ...CARD,
      'card_recurring_payment_id',
      'destination-card-no',
      'destination_card_recurring_payment_id',
      'deposit2card',
      'ipaddress',
      'order_desc',
      'redirect_url',
      'server_callback_url',
    ],
    journaled: true,
    response: 'async-response',
  },
  TRANSFER_BY_REF_V4: {
    path: '/api/v4/transfer-by-ref',
    purpose: 'Transfer funds from a stored card reference',
    group: 'transfer',
    auth: OAUTH_RSA,
    required: ['client-order-id', 'sending-card-ref-id'],
    together: [['amount', 'currency']],
    optional: [
      'amount',
      'currency',
      'destination-card-no',
      'destination-card-ref-id',
      'order_desc',
      'ipaddress',
      'redirect_url',
      'server_callback_url',
    ],
    clientOrderIdField: 'client-order-id',
    journaled: true,
    response: 'async-response',
  },
} as const satisfies Record<RequestOperation, Row>;

/** The response type an operation answers with, known at compile time. */
export type ResponseTypeOf<Op extends RequestOperation> = (typeof ROWS)[Op]['response'];

/** The operation table, in the spec's order. */
export const OPERATIONS: ReadonlyMap<RequestOperation, OperationDef> = new Map(
  REQUEST_OPERATIONS.map((name) => {
    const row: Row = ROWS[name];
    const def: OperationDef = {
      ...row,
      name,
      optional: row.optional ?? [],
      clientOrderIdField: row.clientOrderIdField ?? 'client_orderid',
      journaled: row.journaled ?? false,
    };
    return [name, Object.freeze(def)];
  }),
);

export function isRequestOperation(name: string): name is RequestOperation {
  return (REQUEST_OPERATIONS as readonly string[]).includes(name);
}

/** Looks an operation up by its RequestOperation name; unknown names are refused clearly. */
export function getOperation(name: string): OperationDef {
  const def = isRequestOperation(name) ? OPERATIONS.get(name) : undefined;
  if (!def) {
    throw new UnknownOperationError(name);
  }
  return def;
}

export class UnknownOperationError extends InputError {
  constructor(name: string) {
    super(
      `${JSON.stringify(name)} is not an operation of the gateway API. Known operations: ${REQUEST_OPERATIONS.join(', ')}.`,
    );
    this.name = 'UnknownOperationError';
  }
}
