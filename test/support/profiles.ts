// Profiles in a desk's database for store tests: the journal's entries name a profile (a foreign
// key), and an export writes each one's name; no gateway is reached at their address.

import { Profiles } from '../../main/store/sqlite/profiles';
import type { Db } from '../../main/store/sqlite/database';
import type { Profile } from '../../main/store/profiles/profile';

/** One sandbox profile per name, each its own endpoint and login. */
export function profilesNamed(db: Db, names: readonly string[]): Profile[] {
  const profiles = new Profiles(db);
  return names.map((name, i) =>
    profiles.create({
      name,
      environment: 'sandbox',
      baseUrl: 'http://127.0.0.1:9/paynet',
      endpointId: String(1000 + i),
      login: `shop${i}`,
    }),
  );
}
