// Which order a lookup asks for. The #/lookup/<ref> link carries it: a ref of digits only is
// the gateway's orderid, anything else the merchant's client_orderid; a prefix says it when
// the guess would be wrong (a client_orderid made of digits).

export type RefKind = 'orderid' | 'client_orderid';

export interface OrderRef {
  kind: RefKind;
  value: string;
}

const PREFIX: Record<RefKind, string> = { orderid: 'orderid:', client_orderid: 'client:' };

export function guessKind(value: string): RefKind {
  return /^\d+$/.test(value.trim()) ? 'orderid' : 'client_orderid';
}

export function parseRef(param: string): OrderRef {
  for (const kind of ['orderid', 'client_orderid'] as const) {
    if (param.startsWith(PREFIX[kind])) return { kind, value: param.slice(PREFIX[kind].length) };
  }
  return { kind: guessKind(param), value: param };
}

/** The route param for a ref: bare when the guess gets it right, prefixed otherwise. */
export function refParam(ref: OrderRef): string {
  const value = ref.value.trim();
  return guessKind(value) === ref.kind ? value : `${PREFIX[ref.kind]}${value}`;
}

export function lookupRequest(profileId: string, ref: OrderRef) {
  return ref.kind === 'orderid'
    ? { profileId, orderid: ref.value }
    : { profileId, client_orderid: ref.value };
}
