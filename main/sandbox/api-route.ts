// The sandbox's API: every operation of the table under `{prefix}/api/<path>/<endpointId>`,
// checked as a strict gateway would (method, Accept, form body, fields, checksum or signature),
// run against the sandbox's world, and answered in the merchant's layout (JSON or key=value).
// Refusals carry the gateway's error-code and a sentence; an unexpected fault is a 500.

import type { IncomingMessage, ServerResponse } from 'node:http';

import { InputError } from '../gateway/errors';
import { validateFields } from '../gateway/fields';
import { OPERATIONS, type OperationDef } from '../gateway/operations';
import { pagesBase, type Fields } from './answers';
import { verifyControl, verifyOAuth } from './auth';
import { SandboxRefusal, refuse } from './codes';
import { runOperation } from './handlers';
import type { Merchant, ResponseFormat } from './merchants';
import { widenExpireYear } from './readings';
import {
  checkAccept,
  formParams,
  parseFormBody,
  MAX_BODY_BYTES,
  onBody,
  sendFields,
  sendText,
  type Pairs,
} from './wire';
import type { SandboxWorld } from './world';

const API_ENDPOINT_ID = /^[1-9]\d{0,18}$/;

export type Route = (
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
  origin: string,
) => Promise<void> | void;

/** The API's route: `rest` is the path after the prefix, starting with /api/. */
export function apiRoute(world: SandboxWorld, prefix: string): Route {
  const byPath = new Map<string, OperationDef>(
    [...OPERATIONS.values()].map((def) => [def.path, def]),
  );
  return (req, res, rest, origin) => handleApi(world, byPath, prefix, req, res, rest, origin);
}

function handleApi(
  world: SandboxWorld,
  byPath: ReadonlyMap<string, OperationDef>,
  prefix: string,
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
  origin: string,
): void {
  const slash = rest.lastIndexOf('/');
  const def = byPath.get(rest.slice(0, slash));
  const endpointId = rest.slice(slash + 1);
  if (!def || endpointId === '') {
    sendText(
      res,
      404,
      `No gateway operation at ${prefix}${rest}. Operations live at ${prefix}/api/<version>/<operation>/<endpointId>.`,
    );
    return;
  }
  if (req.method !== 'POST') {
    sendText(res, 405, `${def.name} is called with POST.`, { Allow: 'POST' });
    return;
  }
  // Known from the path before anything is checked, so every refusal (a wrong Accept header
  // included) comes in the merchant's own answer layout.
  const merchant: Merchant | undefined = API_ENDPOINT_ID.test(endpointId)
    ? world.registry.byEndpointId(endpointId)
    : undefined;
  // The body is read before any refusal, so the connection stays usable for the next request.
  // Answered in the body's own 'end' callback, with no promise or async step between: a status
  // is answered in one synchronous run, as a plain node:http handler answers.
  onBody(req, MAX_BODY_BYTES, (error, body) => {
    if (error !== undefined) {
      sendRefusal(world.log, res, error, world.formatFor(merchant));
      return;
    }
    let call: ApiCall;
    let latency: number;
    try {
      const params = formParams(body);
      call = { world, def, merchant, endpointId, prefix, req, res, origin, params };
      world.noteRequest(def.name, params);
      world.settleOrders();
      latency = world.misbehaviour.latencyFor(def.name);
    } catch (fault) {
      sendRefusal(world.log, res, fault, world.formatFor(merchant));
      return;
    }
    if (latency > 0) setTimeout(() => answerCall(call), latency);
    else answerCall(call);
  });
}

/** One API request whose body has arrived, its operation and merchant known from the path. */
interface ApiCall {
  world: SandboxWorld;
  def: OperationDef;
  merchant: Merchant | undefined;
  endpointId: string;
  prefix: string;
  req: IncomingMessage;
  res: ServerResponse;
  origin: string;
  params: URLSearchParams;
}

/** Checks, runs and answers the request; every refusal and fault is answered, never thrown. */
function answerCall(call: ApiCall): void {
  const { world, def, merchant, endpointId, req, res } = call;
  try {
    if (world.misbehaviour.shouldFail(def.name)) {
      throw refuse(
        'INJECTED_FAULT',
        'The sandbox was told to fail this request (misbehaviour switch); nothing was recorded.',
      );
    }
    checkAccept(req.headers.accept);
    const pairs = parseFormBody(req.headers['content-type'], call.params);
    if (!API_ENDPOINT_ID.test(endpointId)) {
      throw refuse(
        'INVALID_FIELD',
        `The endpoint id ${JSON.stringify(endpointId)} in the path must be a whole number.`,
      );
    }
    if (!merchant)
      throw refuse(
        'UNKNOWN_MERCHANT',
        `Endpoint ${endpointId} is not a merchant endpoint of this gateway.`,
      );
    const fields = checkFields(def, pairs);
    if (def.auth.kind === 'control') {
      verifyControl({
        def,
        merchant,
        endpointId,
        fields,
        login: valueOf(pairs, 'login'),
        control: valueOf(pairs, 'control'),
        store: world.store,
      });
    } else {
      verifyOAuth({
        def,
        merchant,
        registry: world.registry,
        store: world.store,
        url: `http://${req.headers.host ?? ''}${req.url ?? ''}`,
        bodyPairs: pairs,
        authorization: req.headers.authorization,
        nowSeconds: Math.floor(Date.now() / 1000),
      });
    }
    if (def.name === 'STATUS') world.visibility.checkStatus(endpointId, fields);
    const answer = runOperation(
      world.engine,
      { def, merchant, endpointId, fields, pages: pagesBase(call.origin, call.prefix) },
      { dedupe: !world.misbehaviour.noDedupe },
    );
    if (def.name !== 'STATUS')
      world.visibility.hide(endpointId, answer, world.misbehaviour.visibilityDelayFor(def.name));
    if (world.misbehaviour.shouldDrop(def.name)) {
      // The order is committed; the client never hears about it.
      res.socket?.destroy();
      return;
    }
    sendFields(res, 200, answer, world.formatFor(merchant));
  } catch (error) {
    sendRefusal(world.log, res, error, world.formatFor(merchant));
  }
}

export function sendRefusal(
  log: (message: string) => void,
  res: ServerResponse,
  error: unknown,
  format: ResponseFormat,
): void {
  let refusal: SandboxRefusal;
  if (error instanceof SandboxRefusal) refusal = error;
  else {
    log(
      `sandbox: unexpected fault: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    refusal = refuse(
      'INTERNAL',
      'The sandbox met an unexpected fault; the request may not have been recorded.',
    );
  }
  const fields: Fields = {
    type: refusal.responseType,
    'error-message': refusal.message,
    'error-code': refusal.code,
  };
  if (!res.headersSent) sendFields(res, refusal.http, fields, format);
}

/** The value of the body's field `name` (each name comes once: parseFormBody refuses repeats). */
function valueOf(pairs: Pairs, name: string): string | undefined {
  for (const [n, value] of pairs) if (n === name) return value;
  return undefined;
}

/**
 * The client's own field rules (validateFields), on the body without the names the signature
 * adds (login, control, oauth_*). A missing field is error-code 1, a malformed one 2.
 */
function checkFields(def: OperationDef, pairs: Pairs): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of pairs) {
    if (name === 'login' || name === 'control' || name.startsWith('oauth_')) continue;
    fields[name] = value;
  }
  try {
    return validateFields(def, widenExpireYear(fields));
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const missing = error.field !== undefined && !fields[error.field]?.trim();
    throw refuse(missing ? 'MISSING_FIELD' : 'INVALID_FIELD', error.message);
  }
}
