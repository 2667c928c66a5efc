// The command line: `npm run sandbox -- ...` prints its base URL first, serves the merchants it
// was given (or a demo merchant whose credentials it prints), stops cleanly on SIGINT and
// SIGTERM, and refuses bad arguments and bad merchants files with a clear message.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { GatewayClient } from '../../main/gateway/client';
import { rsaKeyPair } from './harness';

const CLI = join(import.meta.dirname, '../../main/sandbox/cli.ts');
const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-test-'));
const running = new Set<ChildProcessWithoutNullStreams>();

function start(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { stdio: 'pipe' });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  /** Resolves with stdout once it holds `lines` lines, or rejects if the process ends first. */
  const output = (lines: number) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (stdout.split('\n').length > lines) resolve(stdout);
      };
      child.stdout.on('data', check);
      check();
      void exited.then((code) => reject(new Error(`exited ${code}: ${stderr}`)));
    });
  return { child, exited, output, stderr: () => stderr };
}

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

describe('sandbox CLI', () => {
  it('without --merchants makes a demo merchant, prints its credentials, serves it, and stops on SIGTERM', async () => {
    const cli = start(['--port', '0', '--delay-ms', '0']);
    const out = await cli.output(6);
    const [baseUrl] = out.split('\n');
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/paynet$/);
    const controlKey = /control key\s+(\S+)/.exec(out)?.[1] ?? '';
    const keyPath = /RSA key\s+(\S+)/.exec(out)?.[1] ?? '';
    const client = new GatewayClient({
      baseUrl: baseUrl ?? '',
      endpointId: /endpoint id\s+(\d+)/.exec(out)?.[1] ?? '',
      login: /login\s+(\S+)/.exec(out)?.[1] ?? '',
      controlKey,
      privateKeyPem: readFileSync(keyPath, 'utf8'),
    });
    const check = await client.call('PAYOUT_V4_CHECK', {
      client_orderid: 'cli-1',
      amount: '1.00',
      currency: 'EUR',
      'destination-card-no': '4111111111111111',
    });
    expect(check.type).toBe('async-response');
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stderr()).toContain('Sandbox stopped (SIGTERM)');
    // The demo merchant's keys were made for this run, and go with it.
    expect(existsSync(dirname(keyPath))).toBe(false);
  });

  it('serves the merchants of --merchants with demo orders, and stops on SIGINT', async () => {
    const file = join(dir, 'merchants.json');
    writeFileSync(
      file,
      JSON.stringify([
        {
          login: 'shop',
          controlKey: 'SHOP-KEY',
          endpointId: 1234,
          publicKeyPem: rsaKeyPair().publicKeyPem,
        },
      ]),
    );
    const cli = start(['--port', '0', '--merchants', file, '--seed', 'demo']);
    const out = await cli.output(3);
    expect(out).toMatch(/Merchants: shop \(endpoint 1234\)/);
    const client = new GatewayClient({
      baseUrl: out.split('\n')[0] ?? '',
      endpointId: '1234',
      login: 'shop',
      controlKey: 'SHOP-KEY',
    });
    expect((await client.status({ client_orderid: 'demo-sale-1004' })).status).toBe('declined');
    cli.child.kill('SIGINT');
    expect(await cli.exited).toBe(0);
  });

  it('refuses bad arguments with the usage and exit code 2', async () => {
    const runs = [
      ['--port', 'abc'],
      ['--port', '70000'],
      ['--bogus'],
      ['--seed', 'lots'],
      ['--delay-ms', '-1'],
      ['--format', 'xml'],
    ].map(start);
    for (const cli of runs) {
      expect(await cli.exited).toBe(2);
      expect(cli.stderr()).toContain('Usage: npm run sandbox');
    }
  });

  it('refuses a missing or bad merchants file with a message that says what is wrong', async () => {
    const cases: [string, RegExp][] = [
      ['[{"login":"a","endpointId":"1"}]', /merchants\[0\]\.controlKey/],
      ['{"login":"a"}', /non-empty JSON array/],
      ['not json', /not valid JSON/],
      [
        '[{"login":"a","controlKey":"k","endpointId":"x1"}]',
        /endpointId must be a positive whole number/,
      ],
      [
        '[{"login":"a","controlKey":"k","endpointId":"1","publicKeyPem":"nope"}]',
        /publicKeyPem of merchant "a" is not a readable PEM/,
      ],
      [
        '[{"login":"a","controlKey":"k","endpointId":"1"},{"login":"b","controlKey":"k","endpointId":"1"}]',
        /Endpoint id 1 is already used/,
      ],
    ];
    const runs = cases.map(([text], i) => {
      const file = join(dir, `bad-${i}.json`);
      writeFileSync(file, text);
      return start(['--port', '0', '--merchants', file]);
    });
    for (const [i, cli] of runs.entries()) {
      expect(await cli.exited).toBe(1);
      expect(cli.stderr()).toMatch(cases[i]?.[1] ?? /never/);
    }
    const missing = start(['--merchants', join(dir, 'nope.json')]);
    expect(await missing.exited).toBe(1);
    expect(missing.stderr()).toMatch(/cannot be read \(ENOENT\)/);
  });
});
