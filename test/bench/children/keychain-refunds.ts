// The keychain's line, in a process of its own under a throw-away Secret Service (the row
// starts it with dbus-run-session and an unlocked gnome-keyring-daemon): sequential refunds
// through the services with their secrets in the OS keychain, read once and kept
// (CachedSecretStore, as the app runs), against the same refunds reading the keychain at every
// action (the keytar adapter alone), interleaved. Writes the medians as JSON to the file it is
// given, or why the keychain could not be used; removes every secret it wrote.
//
//   keychain-refunds.ts <result-file>

import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';

import keytar from 'keytar';

import { CachedSecretStore, KeytarSecretStore } from '../../../main/secrets';
import { median } from '../lib/stats';
import { RefundDesk } from '../rows/refund-desk';

const REPS = 3;
const REFUNDS = 150;
const WARM_UP = 20;
const [resultFile = ''] = process.argv.slice(2);
const answer = (result: object) => writeFileSync(resultFile, JSON.stringify(result));

// A keychain service per desk: a desk that finds another's profile secrets in its keychain
// takes them for the evidence of a journal gone missing, and opens read-only.
const services = [`paydesk-bench-${randomUUID()}`, `paydesk-bench-${randomUUID()}`] as const;
const readOnce = new CachedSecretStore(new KeytarSecretStore({ service: services[0] }));
const readEveryTime = new KeytarSecretStore({ service: services[1] });
const status = await readEveryTime.probe();
if (!status.usable) {
  answer({ unusable: `${status.error.reason}: ${status.error.message}` });
  process.exit(0);
}

const desks: RefundDesk[] = [];
try {
  const kept = await RefundDesk.start(readOnce);
  desks.push(kept);
  const everyTime = await RefundDesk.start(readEveryTime);
  desks.push(everyTime);
  await kept.viaServices(WARM_UP, 1);
  await everyTime.viaServices(WARM_UP, 1);
  const rates = { kept: [] as number[], everyTime: [] as number[] };
  for (let rep = 0; rep < REPS; rep++) {
    rates.kept.push(await kept.viaServices(REFUNDS, 1));
    rates.everyTime.push(await everyTime.viaServices(REFUNDS, 1));
  }
  answer({ kept: median(rates.kept), everyTime: median(rates.everyTime) });
} finally {
  for (const desk of desks) await desk.close();
  for (const service of services) {
    for (const { account } of await keytar.findCredentials(service)) {
      await keytar.deletePassword(service, account);
    }
  }
}
