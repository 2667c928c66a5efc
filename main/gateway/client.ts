// The gateway client: builds the exact request from the operation table, sends it, and reads
// the answer into a typed result or a typed error. It never retries a request by itself:
// whether a lost answer means "done" or "not done" is decided by asking `status` (services).

import http from 'node:http';
import https from 'node:https';

import { checkIdentity } from './identity';
import type { RequestOperation, ResponseType, ResponseTypeOf } from './operations';
import { getOperation } from './operations';
import { buildRequest, type BuildOptions, type Credentials, type PreparedRequest } from './request';
import { readResponse, type ResponseOf, type StatusResponse } from './response';
import { sendPrepared, type SendOptions } from './transport';

export interface ClientOptions extends Omit<SendOptions, 'signal'> {
  /** Replaces the HTTP transport; the sandbox tests use the real one. */
  send?: typeof sendPrepared;
}

export interface CallOptions extends BuildOptions {
  signal?: AbortSignal;
}

/** A reference to an order for `status`: the gateway's orderid, our client_orderid, or both. */
export interface OrderRef {
  orderid?: string;
  client_orderid?: string;
}

export class GatewayClient {
  private readonly send: typeof sendPrepared;
  /**
   * This client's connections, kept open between requests (one client per profile, so one
   * pool per gateway and trust settings). An idle connection the gateway closed meanwhile is
   * noticed by Node before use when the gateway announced its keep-alive timeout; a request
   * that still meets a closed connection fails as "may have been recorded", like any lost
   * answer, and is settled by `status`.
   */
  private readonly agent: http.Agent;

  constructor(
    private readonly credentials: Credentials,
    private readonly options: ClientOptions = {},
  ) {
    this.send = options.send ?? sendPrepared;
    // The transport sends to the base URL's scheme (and refuses http:// beyond loopback).
    this.agent = /^\s*https:/i.test(credentials.baseUrl)
      ? new https.Agent({ keepAlive: true })
      : new http.Agent({ keepAlive: true });
  }

  /** Closes the connections that are idle; requests under way finish on theirs. */
  close(): void {
    for (const sockets of Object.values(this.agent.freeSockets)) {
      for (const socket of sockets ?? []) socket.destroy();
    }
  }

  /** The exact request `call` would send: for previews, and for the journal's summary. */
  prepare(
    operation: RequestOperation,
    fields: Record<string, string>,
    options: BuildOptions = {},
  ): PreparedRequest {
    return buildRequest(operation, fields, this.credentials, options);
  }

  /** Sends a request made by `prepare`, unchanged, and reads the answer the operation defines. */
  async sendPrepared<T extends ResponseType>(
    request: PreparedRequest,
    expected: T,
    signal?: AbortSignal,
  ): Promise<ResponseOf<T>> {
    const raw = await this.send(request, { agent: this.agent, ...this.options, signal });
    const answer = readResponse(raw, expected);
    checkIdentity(request, answer);
    return answer;
  }

  /** Builds, signs, sends and reads one operation. */
  async call<Op extends RequestOperation>(
    operation: Op,
    fields: Record<string, string>,
    options: CallOptions = {},
  ): Promise<ResponseOf<ResponseTypeOf<Op>>> {
    const expected = getOperation(operation).response as ResponseTypeOf<Op>;
    const request = this.prepare(operation, fields, options);
    return this.sendPrepared(request, expected, options.signal);
  }

  /** The current status of an order, by orderid or client_orderid. */
  async status(ref: OrderRef, signal?: AbortSignal): Promise<StatusResponse> {
    const fields: Record<string, string> = {};
    if (ref.client_orderid) fields.client_orderid = ref.client_orderid;
    if (ref.orderid) fields.orderid = ref.orderid;
    const request = this.prepare('STATUS', fields);
    return this.sendPrepared(request, 'status-response', signal);
  }
}
