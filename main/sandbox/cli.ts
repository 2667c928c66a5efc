// `npm run sandbox -- --port 18080 --merchants merchants.json [--seed demo] [--delay-ms N]`
// Prints the base URL on the first line (scripts read it), then how to use it; stops cleanly on
// SIGINT/SIGTERM. Bad arguments or a bad merchants file: a clear message and a non-zero exit.

import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { MerchantConfigError, parseMerchantsJson, type MerchantInput } from './merchants';
import { startSandbox } from './server';

const USAGE = `Usage: npm run sandbox -- [options]

  --port N            TCP port on 127.0.0.1 (default 18080; 0 lets the system choose)
  --merchants FILE    merchants.json: [{ "login", "controlKey", "endpointId", "publicKeyPem" }]
                      (without it a demo merchant is made and its credentials printed)
  --seed demo         create believable demo orders for the first merchant
  --delay-ms N        how long orders stay "processing" (default 2000)
  --prefix PATH       path prefix of the base URL (default /paynet)
  --db FILE           keep the sandbox's state in this SQLite file (default: in memory)
  --format json|lines answer JSON (default) or the deployed key=value layout
  --help              show this help`;

class UsageError extends Error {}

function wholeNumber(
  name: string,
  text: string | undefined,
  fallback: number,
  max: number,
): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text) || Number(text) > max)
    throw new UsageError(
      `--${name} must be a whole number from 0 to ${max}; got ${JSON.stringify(text)}.`,
    );
  return Number(text);
}

function demoMerchant(): { merchant: MerchantInput; lines: string[]; dir: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const dir = mkdtempSync(join(tmpdir(), 'paydesk-sandbox-'));
  const privatePath = join(dir, 'private_key.pem');
  writeFileSync(privatePath, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), {
    mode: 0o600,
  });
  writeFileSync(join(dir, 'public_key.pem'), publicKeyPem);
  const merchant: MerchantInput = {
    login: 'sandbox-merchant',
    controlKey: randomUUID().toUpperCase(),
    endpointId: '1111',
    publicKeyPem,
  };
  return {
    merchant,
    lines: [
      'Demo merchant (test credentials, made for this run):',
      `  login        ${merchant.login}`,
      `  endpoint id  ${merchant.endpointId}`,
      `  control key  ${merchant.controlKey}`,
      `  RSA key      ${privatePath} (public key beside it; removed when the sandbox stops)`,
    ],
    dir,
  };
}

async function main(argv: string[]): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        port: { type: 'string' },
        merchants: { type: 'string' },
        seed: { type: 'string' },
        'delay-ms': { type: 'string' },
        prefix: { type: 'string' },
        db: { type: 'string' },
        format: { type: 'string' },
        help: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const str = (name: string) => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
  };
  const port = wholeNumber('port', str('port'), 18080, 65535);
  const delayMs = wholeNumber('delay-ms', str('delay-ms'), 2000, 86_400_000);
  const seed = str('seed');
  if (seed !== undefined && seed !== 'demo')
    throw new UsageError(`--seed knows only "demo"; got ${JSON.stringify(seed)}.`);
  const format = str('format');
  if (format !== undefined && format !== 'json' && format !== 'lines')
    throw new UsageError(`--format is json or lines; got ${JSON.stringify(format)}.`);

  let merchants: MerchantInput[];
  let intro: string[] = [];
  let demoDir: string | undefined;
  const file = str('merchants');
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new MerchantConfigError(
        `The merchants file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
      );
    }
    merchants = parseMerchantsJson(text);
  } else {
    const demo = demoMerchant();
    merchants = [demo.merchant];
    intro = demo.lines;
    demoDir = demo.dir;
  }

  const sandbox = await startSandbox({
    port,
    merchants,
    delayMs,
    ...(seed ? { seed: 'demo' as const } : {}),
    ...(str('prefix') !== undefined ? { prefix: str('prefix') } : {}),
    ...(str('db') !== undefined ? { database: str('db') } : {}),
    ...(format ? { responseFormat: format } : {}),
  });
  console.log(sandbox.baseUrl);
  for (const line of intro) console.log(line);
  console.log(
    `Merchants: ${sandbox
      .merchants()
      .map((m) => `${m.login} (endpoint ${m.endpointId})`)
      .join(', ')}`,
  );
  if (seed) console.log(`Seeded ${sandbox.orders().length} demo transactions.`);
  console.log(
    'Test cards: any Luhn-valid number; CVV2 123 approved, 321 3-D Secure, 116 declined (see docs/sandbox.md). Ctrl+C stops.',
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    sandbox
      .close()
      .then(() => {
        // The demo merchant's keys were made for this run.
        if (demoDir) rmSync(demoDir, { recursive: true, force: true });
        console.error(`Sandbox stopped (${signal}).`);
        process.exit(0);
      })
      .catch((error: unknown) => {
        console.error(`Sandbox did not stop cleanly: ${String(error)}`);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (error instanceof MerchantConfigError || error instanceof RangeError) {
    console.error(error.message);
    process.exit(1);
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    console.error('The port is already in use; choose another with --port (or --port 0).');
    process.exit(1);
  }
  console.error(
    `The sandbox could not start: ${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
});
