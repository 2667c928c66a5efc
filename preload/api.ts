// Builds the object the renderer sees as window.paydesk from the contract: grouped by
// namespace, one method per call, and `on` for events. It knows only a transport (invoke a
// channel, subscribe to one), so the same factory serves the real preload and the browser
// test harness. No ipcRenderer and no event object ever reach the page.

import {
  channelOf,
  contract,
  eventChannelOf,
  events,
  type BridgeResult,
  type EventName,
  type EventOf,
  type MethodOf,
  type Namespace,
  type RequestOf,
  type ResultOf,
} from '../common/contract';

export interface BridgeTransport {
  invoke(channel: string, payload: unknown): Promise<unknown>;
  /** Calls `listener` with each payload sent on `channel`; returns the unsubscribe. */
  subscribe(channel: string, listener: (payload: unknown) => void): () => void;
}

export type PaydeskCalls = {
  readonly [N in Namespace]: {
    readonly [M in MethodOf<N>]: (
      request: RequestOf<N, M>,
    ) => Promise<BridgeResult<ResultOf<N, M>>>;
  };
};

export type PaydeskApi = PaydeskCalls & {
  readonly version: string;
  on<E extends EventName>(event: E, listener: (payload: EventOf<E>) => void): () => void;
};

export function createPaydeskApi(transport: BridgeTransport, version: string): PaydeskApi {
  const api: Record<string, unknown> = { version };
  for (const namespace of Object.keys(contract) as Namespace[]) {
    const methods: Record<string, unknown> = {};
    for (const method of Object.keys(contract[namespace])) {
      const channel = channelOf(namespace, method);
      methods[method] = (request: unknown) => transport.invoke(channel, request ?? {});
    }
    api[namespace] = Object.freeze(methods);
  }
  api.on = (event: string, listener: (payload: unknown) => void) => {
    if (!(event in events)) throw new Error(`Unknown Paydesk event ${JSON.stringify(event)}.`);
    if (typeof listener !== 'function')
      throw new Error('A Paydesk event listener must be a function.');
    return transport.subscribe(eventChannelOf(event), (payload) => listener(payload));
  };
  return Object.freeze(api) as unknown as PaydeskApi;
}
