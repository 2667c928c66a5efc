// The support bundle a person sends to support: what it holds (versions, settings, the last
// days of the log, the database's integrity check), and what it must never hold. Fifteen
// secrets are planted where a careless line of code could put them (the keychain, log messages,
// log fields, error messages, lines written raw into the log) with a card number, and the
// bundle is scanned for each, as the journal is scanned.

import { generateKeyPairSync } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, expect, it } from 'vitest';

import { contentText } from '../../main/files';
import { createHandlers } from '../../main/handlers';
import { fileLogger } from '../../main/log';
import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices } from '../../main/services/app';
import { TEAM_SECRET_ID } from '../../main/services/team/settings';

let dataDir: string;
let services: PaydeskServices | undefined;

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'paydesk-bundle-'));
});
afterEach(async () => {
  await services?.close();
  services = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

const CARD = '4111111111111111';

function pem(type: 'pkcs8' | 'pkcs1'): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
  return privateKey.export({ type, format: 'pem' }).toString();
}

/** A line of the PEM's body: what would give the key away if any of it were left. */
const bodyOf = (key: string) => key.split('\n')[3] ?? '';

it('holds versions, settings, the log and the integrity check, and none of 15 planted secrets or a card number', async () => {
  const secrets = new MemorySecretStore();
  const logFile = join(dataDir, 'paydesk.log');
  const log = fileLogger(logFile);
  services = await PaydeskServices.start({
    dataDir,
    secrets,
    operator: 'ann',
    sandboxDelayMs: 50,
    log,
    backups: 'off',
  });
  await services.backups.backupNow();

  const planted: string[] = [];
  // Six profiles' control keys, three of them with an RSA private key: all in the keychain.
  for (let i = 0; i < 6; i++) {
    const controlKey = `CK-${i}-${crypto.randomUUID().toUpperCase()}`;
    const profile = await services.profiles.create({
      name: `Shop ${i}`,
      environment: 'test',
      baseUrl: `https://gate${i}.example.com/paynet`,
      endpointId: String(1000 + i),
      login: `shop-${i}`,
      controlKey,
    });
    planted.push(controlKey);
    if (i < 3) {
      const key = pem('pkcs8');
      await secrets.set(profile.id, 'rsa-private-key', key);
      planted.push(key);
    }
  }
  // The team's password and the embedded sandbox's own control key, in the keychain too.
  const teamPassword = 'team-pw-' + crypto.randomUUID();
  await secrets.set(TEAM_SECRET_ID, 'team-password', teamPassword);
  planted.push(teamPassword);
  const sandboxId = services.report.sandbox.running ? services.report.sandbox.profileId : '';
  const sandboxKey = (await secrets.get(sandboxId, 'control-key')) ?? '';
  expect(sandboxKey).not.toBe('');
  planted.push(sandboxKey);
  // Secrets only the log ever saw: a PKCS#1 key, a passphrase, a password, an API secret.
  const pkcs1 = pem('pkcs1');
  const passphrase = 'pass-' + crypto.randomUUID();
  const password = 'pw-' + crypto.randomUUID();
  const apiSecret = 'sk_live_' + crypto.randomUUID().replace(/-/g, '');
  planted.push(pkcs1, passphrase, password, apiSecret);
  expect(planted).toHaveLength(15);

  // Through the logger (which drops fields named like secrets) and written raw, as a bug would.
  for (const [i, secret] of planted.entries()) {
    log.log('error', `The gateway answered for ${secret} with an error`, {
      detail: `control=${secret}`,
      error: new Error(`checksum over ${secret} did not match`),
    });
    appendFileSync(
      logFile,
      JSON.stringify({
        at: new Date().toISOString(),
        level: 'warn',
        message: `raw line ${i}`,
        nested: { note: `see ${secret}`, passphrase, password, apiSecret },
      }) + '\n',
    );
  }
  log.log('info', `Card typed into a note: ${CARD} and 4111 1111 1111 1111, cvv 123`);
  log.log('info', 'A line from last week', {});
  appendFileSync(
    logFile,
    JSON.stringify({ at: '2020-01-01T00:00:00.000Z', level: 'info', message: 'an old line' }) +
      '\n',
  );

  // As the person gets it: Settings -> Save support bundle, through the save dialog.
  const saved: { name: string; content: string; kind: string }[] = [];
  const handlers = createHandlers(services, {
    version: '9.8.7',
    operator: 'ann',
    logFile,
    saveFile: async (name, content, kind) => {
      saved.push({ name, content: await contentText(content), kind });
      return { saved: true, path: join(dataDir, name) };
    },
    copyText: () => undefined,
  });
  const result = await handlers.support.saveBundle({});
  expect(result).toMatchObject({ saved: true });
  expect(saved).toHaveLength(1);
  const bundle = saved[0]!;
  expect(bundle.name).toMatch(/^paydesk-support-\d{4}-\d{2}-\d{2}\.json$/);
  expect(bundle.kind).toBe('json');
  const text = bundle.content;

  for (const secret of planted) {
    expect(text).not.toContain(secret);
    if (secret.includes('PRIVATE KEY')) expect(text).not.toContain(bodyOf(secret));
  }
  expect(text).not.toContain(CARD);
  expect(text).not.toContain('4111 1111 1111 1111');
  expect(text).not.toMatch(/cvv 123/);
  expect(text).toContain('411111******1111');

  const parsed = JSON.parse(text) as {
    app: { version: string };
    platform: { versions: { node: string } };
    settings: { profiles: { name: string }[]; backups: { backups: unknown[] } };
    database: { integrityCheck: string[] };
    log: { lines: { message?: string }[] };
  };
  expect(parsed.app.version).toBe('9.8.7');
  expect(parsed.platform.versions.node).toBe(process.versions.node);
  expect(parsed.settings.profiles.map((p) => p.name)).toContain('Shop 5');
  expect(parsed.settings.backups.backups).toHaveLength(1);
  expect(parsed.database.integrityCheck).toEqual(['ok']);
  const messages = parsed.log.lines.map((l) => l.message);
  expect(messages).toContain('Backed up the database');
  expect(messages).toContain('raw line 14');
  expect(messages).not.toContain('an old line'); // older than the bundle's days
});
