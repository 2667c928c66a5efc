// The keychain's line, in a process of its own under a throw-away Secret Service (the row
// starts it with dbus-run-session and an unlocked gnome-keyring-daemon): sequential refunds
// through the services with their secrets in the OS keychain, read once and kept
// (CachedSecretStore, as the app runs), against the same refunds reading the keychain at every
// action (the keytar adapter alone), and against a third desk of the same process whose secrets
// are in memory (as the other refund lines' desks), interleaved: what the keychain read once
// still costs a refund is the first against the third, measured in one process. Writes the
// medians as JSON to the file it is given, or why the keychain could not be used; removes every
// secret it wrote.
//
//   keychain-refunds.ts <result-file>

import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';

import keytar from 'keytar';

import { CachedSecretStore, KeytarSecretStore, MemorySecretStore } from '../../../main/secrets';
import { median } from '../lib/stats';
import { RefundDesk } from '../rows/refund-desk';

const REPS = 3;
const REFUNDS = 150;
/**
 * Refunds each desk makes before the timed runs: a process's first few hundred refunds run
 * slower while V8 compiles the code they take, and the refund rows' desks, in the bench's own
 * process, meet their timed runs warm.
 */
const WARM_UP = 300;
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
  const inMemory = await RefundDesk.start(new MemorySecretStore());
  desks.push(inMemory);
  for (const desk of desks) await desk.viaServices(WARM_UP, 1, Number.POSITIVE_INFINITY);
  const rates = { kept: [] as number[], everyTime: [] as number[], inMemory: [] as number[] };
  for (let rep = 0; rep < REPS; rep++) {
    rates.kept.push(await kept.viaServices(REFUNDS, 1));
    rates.everyTime.push(await everyTime.viaServices(REFUNDS, 1));
    rates.inMemory.push(await inMemory.viaServices(REFUNDS, 1));
  }
  answer({
    kept: median(rates.kept),
    everyTime: median(rates.everyTime),
    inMemory: median(rates.inMemory),
  });
} finally {
  for (const desk of desks) await desk.close();
  for (const service of services) {
    for (const { account } of await keytar.findCredentials(service)) {
      await keytar.deletePassword(service, account);
    }
  }
}
