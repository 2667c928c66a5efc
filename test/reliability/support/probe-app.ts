// Starts Paydesk's real services on a data folder and tries, through the real bridge, what a
// clerk would: read the start-up report, list profiles, look an order up, refund it, create a
// profile, search the journal. Returns what each answered. Used in-process and, for faults that
// need another user account (a read-only file as seen by a non-root user), by a child process.

import { createBridge, isAppTopFrame } from '../../../main/bridge';
import { createHandlers } from '../../../main/handlers';
import { MemorySecretStore } from '../../../main/secrets';
import { PaydeskServices } from '../../../main/services/app';
import { channelOf, type BridgeResult } from '../../../common/contract';

export interface ProbeInput {
  dataDir: string;
  profileId: string;
  controlKey: string;
  /** An approved order at the gateway the profile points to. */
  orderid: string;
  keychain?: 'locked';
}

export interface CallOutcome {
  ok: boolean;
  code?: string;
  storeCode?: string;
  message?: string;
}

export interface ProbeOutcome {
  status: {
    store: { writable: boolean; code?: string; message?: string; file: string };
    keychain: { usable: boolean; message?: string };
  };
  profiles: number;
  lookup: CallOutcome & { refundable?: string };
  refund: CallOutcome;
  createProfile: CallOutcome;
  journal: CallOutcome & { states?: string[] };
}

const SENDER = { url: 'app://paydesk/index.html', isTopFrame: true };

function outcome(result: BridgeResult<unknown>): CallOutcome {
  if (result.ok) return { ok: true };
  const details = result.error.details as { storeCode?: string } | undefined;
  return {
    ok: false,
    code: result.error.code,
    message: result.error.message,
    ...(details?.storeCode ? { storeCode: details.storeCode } : {}),
  };
}

export async function probeApp(input: ProbeInput): Promise<ProbeOutcome> {
  const secrets = new MemorySecretStore();
  await secrets.set(input.profileId, 'control-key', input.controlKey);
  if (input.keychain) secrets.makeUnavailable(input.keychain, 'linux');
  const services = await PaydeskServices.start({
    dataDir: input.dataDir,
    secrets,
    operator: 'probe',
    wait: { delayAfter: () => 25, giveUpAfterMs: 5_000 },
  });
  try {
    const bridge = createBridge(
      createHandlers(services, {
        version: 'probe',
        operator: 'probe',
        saveFile: () => Promise.resolve({ saved: false }),
        copyText: () => undefined,
      }),
      { isTrustedSender: isAppTopFrame('app://paydesk') },
    );
    const call = (namespace: string, method: string, payload: unknown) =>
      bridge.handle(channelOf(namespace, method), SENDER, payload);

    const status = await call('app', 'status', {});
    if (!status.ok) throw new Error(`app.status failed: ${status.error.message}`);
    const profiles = await call('profiles', 'list', {});
    const lookup = await call('orders', 'lookup', {
      profileId: input.profileId,
      orderid: input.orderid,
    });
    const action = await call('orders', 'openAction', {});
    const refund = await call('orders', 'refund', {
      profileId: input.profileId,
      orderid: input.orderid,
      clientOrderId: action.ok ? (action.data as { clientOrderId: string }).clientOrderId : '',
      amount: '1.00',
      reason: 'Customer request',
    });
    const createProfile = await call('profiles', 'create', {
      name: 'Another',
      environment: 'test',
      baseUrl: 'https://gate.example.com/paynet',
      endpointId: '2222',
      login: 'other',
      controlKey: 'KEY',
    });
    const journal = await call('journal', 'search', { filter: {}, offset: 0, limit: 1000 });
    return {
      status: status.data as ProbeOutcome['status'],
      profiles: profiles.ok ? (profiles.data as unknown[]).length : -1,
      lookup: {
        ...outcome(lookup),
        ...(lookup.ok
          ? { refundable: (lookup.data as { remainingRefundable: string }).remainingRefundable }
          : {}),
      },
      refund: outcome(refund),
      createProfile: outcome(createProfile),
      journal: {
        ...outcome(journal),
        ...(journal.ok
          ? { states: (journal.data as { rows: { state: string }[] }).rows.map((r) => r.state) }
          : {}),
      },
    };
  } finally {
    await services.close();
  }
}
