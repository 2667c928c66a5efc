// Settings -> Network against a company network: the real sandbox behind a TLS proxy whose
// certificate a private CA signed (as a TLS-inspecting proxy's is). Without that CA the gateway
// cannot be trusted and nothing is sent; once the CA is saved the same profile connects, the
// next start keeps it, removing it ends it, and what is not a CA certificate is refused.

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MemorySecretStore } from '../../main/secrets';
import { PaydeskServices } from '../../main/services/app';
import { TRUSTED_CA_FILE } from '../../main/services/trusted-ca';
import { privateCaChain } from '../support/tls';

const chain = privateCaChain();
let dataDir: string;
const secrets = new MemorySecretStore();
let proxy: tls.Server;
let proxyPort = 0;
let sandboxPort = 0;

const start = () =>
  PaydeskServices.start({
    dataDir,
    secrets,
    operator: 'ann',
    sandboxDelayMs: 50,
  });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'paydesk-trusted-ca-'));
  // The proxy: TLS with the private CA's certificate, passing bytes on to the sandbox.
  proxy = tls.createServer({ key: chain.key, cert: chain.cert }, (socket) => {
    const upstream = net.connect(sandboxPort, '127.0.0.1');
    socket.pipe(upstream).pipe(socket);
    const end = () => {
      socket.destroy();
      upstream.destroy();
    };
    socket.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyPort = (proxy.address() as net.AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

/** A profile for the sandbox's merchant, reached through the proxy. */
async function proxiedProfile(app: PaydeskServices): Promise<string> {
  const sandbox = (await app.profiles.list()).find((p) => p.embedded);
  if (!sandbox) throw new Error('no Sandbox profile');
  const direct = new URL(sandbox.baseUrl);
  sandboxPort = Number(direct.port);
  const existing = (await app.profiles.list()).find((p) => p.name === 'Through the proxy');
  const baseUrl = `https://127.0.0.1:${proxyPort}${direct.pathname}`;
  if (existing) {
    await app.profiles.update(existing.id, { ...existing, baseUrl });
    return existing.id;
  }
  const controlKey = await secrets.get(sandbox.id, 'control-key');
  const created = await app.profiles.create({
    name: 'Through the proxy',
    environment: 'sandbox',
    baseUrl,
    endpointId: sandbox.endpointId,
    login: sandbox.login,
    controlKey: controlKey ?? '',
  });
  return created.id;
}

describe('a trusted CA for a TLS-inspecting proxy', () => {
  it('connects through the proxy only once its CA is trusted, across a restart, until removed', async () => {
    let app = await start();
    try {
      const id = await proxiedProfile(app);
      expect(app.network.view()).toEqual({ certificates: [] });
      const refused = await app.profiles.testConnection(id);
      expect(refused.ok).toBe(false);
      expect(refused.message).toContain('not signed by a trusted authority');
      expect(refused.message).toContain('nothing was sent');

      const saved = app.network.save(chain.caCert);
      expect(saved.certificates).toEqual([
        expect.objectContaining({
          subject: expect.stringContaining('Example Corp TLS Inspection CA') as unknown,
        }),
      ]);
      expect(await app.profiles.testConnection(id)).toMatchObject({ ok: true });
    } finally {
      await app.close();
    }

    // Stored in the data folder, as the certificate alone; the next start trusts it again.
    expect(readFileSync(join(dataDir, TRUSTED_CA_FILE), 'utf8')).toContain('BEGIN CERTIFICATE');
    app = await start();
    try {
      const id = await proxiedProfile(app);
      expect(app.network.view().certificates).toHaveLength(1);
      expect(await app.profiles.testConnection(id)).toMatchObject({ ok: true });

      app.network.clear();
      const again = await app.profiles.testConnection(id);
      expect(again.message).toContain('not signed by a trusted authority');
    } finally {
      await app.close();
    }
  }, 120_000);

  it('refuses a private key, a server certificate and text that is no certificate, saying what to paste', async () => {
    const app = await start();
    try {
      expect(() => app.network.save(chain.key)).toThrow(/private key, not a certificate/);
      expect(() => app.network.save(chain.cert)).toThrow(/not a certificate authority's/);
      expect(() => app.network.save('hello')).toThrow(/No certificate found/);
      // Lines lost in copying: the DER inside is cut short.
      const lines = chain.caCert.trim().split('\n');
      const broken = [...lines.slice(0, 3), ...lines.slice(-2)].join('\n');
      expect(() => app.network.save(broken)).toThrow(/Certificate 1 cannot be read/);
      expect(app.network.view()).toEqual({ certificates: [] });
    } finally {
      await app.close();
    }
  }, 60_000);
});
