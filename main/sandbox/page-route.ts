// The sandbox's hosted pages under `{prefix}/sandbox/`: the payment form, the 3-D Secure
// check and the wait page a customer's browser is sent to, each found by the order's page token.

import type { IncomingMessage, ServerResponse } from 'node:http';

import { pagesBase } from './answers';
import type { Route } from './api-route';
import { acsPage, formPage, waitPage, type PageContext } from './pages';
import { sendText } from './wire';
import type { SandboxWorld } from './world';

/** The pages' route: `rest` is the path after the prefix, starting with /sandbox/. */
export function pageRoute(world: SandboxWorld, prefix: string): Route {
  return (req, res, rest, origin) => handlePage(world, prefix, req, res, rest, origin);
}

async function handlePage(
  world: SandboxWorld,
  prefix: string,
  req: IncomingMessage,
  res: ServerResponse,
  rest: string,
  origin: string,
): Promise<void> {
  const match = /^\/sandbox\/(form|acs|wait)\/([0-9a-f]{32})$/.exec(rest);
  const tx = match?.[2] ? world.store.byPageToken(match[2]) : undefined;
  if (!match || !tx) {
    sendText(
      res,
      404,
      'This sandbox page does not exist (the link is wrong or the sandbox was restarted).',
    );
    return;
  }
  if (req.method !== 'GET' && req.method !== 'POST') {
    sendText(res, 405, 'Use GET or POST.', { Allow: 'GET, POST' });
    return;
  }
  world.settleOrders();
  const ctx: PageContext = {
    engine: world.engine,
    pages: pagesBase(origin, prefix),
    controlKeyOf: world.controlKeyOf,
  };
  const fresh = world.store.tx(tx.id) ?? tx;
  if (match[1] === 'form') await formPage(ctx, fresh, req, res);
  else if (match[1] === 'acs') await acsPage(ctx, fresh, req, res);
  else waitPage(ctx, fresh, res);
}
