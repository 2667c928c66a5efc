import {
  createHash,
  createPrivateKey,
  createPublicKey,
  sign as cryptoSign,
  verify as cryptoVerify,
} from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';

import fc from 'fast-check';
import forge from 'node-forge';
import { describe, expect, expectTypeOf, it } from 'vitest';

import { loadRsaPrivateKey } from '../../../main/gateway/oauth';
import {
  type KeyAttachment,
  type KeyEnvironment,
  KeyError,
  type KeyMaterial,
  checkKeyEnvironment,
  fingerprintOf,
  generateKeyPair,
  importPrivateKey,
  normalizeFingerprint,
} from '../../../main/keys';
import type { Environment } from '../../../main/store/profiles/profile';

// Test-only keys, made for these tests with openssl 3.0 and never used anywhere else.
const fixture = (name: string): string =>
  readFileSync(path.join(import.meta.dirname, 'fixtures', `test-only-${name}.pem`), 'utf8');

const PASSPHRASE = 'test-only passphrase';
// Computed once, independently of Paydesk:
//   openssl pkey -pubin -in test-only-rsa2048-public.pem -outform DER | sha256sum
const FINGERPRINT =
  '20:3C:54:B2:F4:F3:E0:2D:C6:29:31:1D:2C:56:C2:FD:D2:42:EB:50:67:D0:04:85:6C:65:64:22:05:62:49:EA';

async function keyError(promise: Promise<unknown>): Promise<KeyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KeyError);
  return error as KeyError;
}

/** Signs with node:crypto and verifies with node-forge, and the other way round. */
function expectCrossVerifies(material: KeyMaterial): void {
  const message = 'POST&https%3A%2F%2Fgate.example%2Fpaynet&client_orderid%3D902B4FF5';
  const nodeSignature = cryptoSign('sha256', Buffer.from(message), material.privateKeyPkcs8Pem);
  const forgePublic = forge.pki.publicKeyFromPem(material.publicKeySpkiPem);
  const md = forge.md.sha256.create();
  md.update(message, 'utf8');
  expect(forgePublic.verify(md.digest().bytes(), nodeSignature.toString('binary'))).toBe(true);

  const forgePrivate = forge.pki.privateKeyFromPem(material.privateKeyPkcs8Pem);
  const forgeSignature = Buffer.from(forgePrivate.sign(md), 'binary');
  expect(
    cryptoVerify('sha256', Buffer.from(message), material.publicKeySpkiPem, forgeSignature),
  ).toBe(true);
  // PKCS#1 v1.5 is deterministic: both libraries must produce the very same bytes.
  expect(forgeSignature.equals(nodeSignature)).toBe(true);
  // And the gateway's signer accepts the stored form as it is.
  expect(loadRsaPrivateKey(material.privateKeyPkcs8Pem).asymmetricKeyType).toBe('rsa');
}

describe('fingerprints', () => {
  it('match the SHA-256 that openssl and sha256sum computed for public_key.pem', () => {
    expect(fingerprintOf(fixture('rsa2048-public'))).toBe(FINGERPRINT);
  });

  it('are the same for the PKCS#1 form of the public key', () => {
    expect(fingerprintOf(fixture('rsa2048-public-pkcs1'))).toBe(FINGERPRINT);
  });

  it('equal a node:crypto computation over the SPKI DER', () => {
    const der = createPublicKey(fixture('rsa2048-public')).export({ type: 'spki', format: 'der' });
    const hex = createHash('sha256').update(der).digest('hex').toUpperCase();
    expect(FINGERPRINT.replace(/:/g, '')).toBe(hex);
  });

  it('refuse a non-RSA public key and a private key given as public', () => {
    const ecPublic = createPublicKey(fixture('ec-p256-pkcs8'))
      .export({ type: 'spki', format: 'pem' })
      .toString();
    expect(() => fingerprintOf(ecPublic)).toThrow(/elliptic-curve/);
    expect(() => fingerprintOf(fixture('rsa2048-pkcs8'))).toThrow(/not a public key/);
  });

  it('normalise what people type, and refuse what is not 32 bytes of hex', () => {
    const bare = FINGERPRINT.replace(/:/g, '').toLowerCase();
    expect(normalizeFingerprint(bare)).toBe(FINGERPRINT);
    expect(normalizeFingerprint(` ${FINGERPRINT.toLowerCase()} `)).toBe(FINGERPRINT);
    expect(() => normalizeFingerprint('AB:CD')).toThrow(KeyError);
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => {
        const hex = Buffer.from(bytes).toString('hex');
        const canonical = normalizeFingerprint(hex);
        expect(canonical).toMatch(/^[0-9A-F]{2}(:[0-9A-F]{2}){31}$/);
        expect(normalizeFingerprint(canonical)).toBe(canonical);
      }),
    );
  });
});

describe('importing a private key', () => {
  const forms: [string, string, string?][] = [
    ['PKCS#8', 'rsa2048-pkcs8'],
    ['PKCS#1', 'rsa2048-pkcs1'],
    ['encrypted PKCS#8 (PBES2, AES-256-CBC, HMAC-SHA256)', 'rsa2048-pkcs8-encrypted', PASSPHRASE],
    [
      'encrypted PKCS#8 with a non-ASCII passphrase',
      'rsa2048-pkcs8-encrypted-utf8',
      'tëst-önly pässwörd €',
    ],
    ['legacy encrypted PKCS#1 (Proc-Type, AES-256-CBC)', 'rsa2048-pkcs1-encrypted', PASSPHRASE],
    [
      'legacy encrypted PKCS#1 (Proc-Type, DES-EDE3-CBC)',
      'rsa2048-pkcs1-encrypted-des3',
      PASSPHRASE,
    ],
  ];

  it.each(forms)('reads %s into the forms openssl writes, byte for byte', async (_, name, pass) => {
    const material = await importPrivateKey(fixture(name), pass);
    expect(material.bits).toBe(2048);
    expect(material.fingerprint).toBe(FINGERPRINT);
    expect(material.privateKeyPkcs8Pem).toBe(fixture('rsa2048-pkcs8'));
    expect(material.publicKeySpkiPem).toBe(fixture('rsa2048-public'));
    expect(material.publicKeyPkcs1Pem).toBe(fixture('rsa2048-public-pkcs1'));
  });

  it('produces a key that signs with node:crypto and verifies with node-forge, and back', async () => {
    expectCrossVerifies(await importPrivateKey(fixture('rsa2048-pkcs1')));
  });

  it('decrypts PBES2 exactly as node-forge and OpenSSL do', async () => {
    const encrypted = fixture('rsa2048-pkcs8-encrypted');
    const byForge = forge.pki.decryptRsaPrivateKey(encrypted, PASSPHRASE);
    const byOpenSsl = createPrivateKey({ key: encrypted, passphrase: PASSPHRASE })
      .export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const ours = (await importPrivateKey(encrypted, PASSPHRASE)).privateKeyPkcs8Pem;
    expect(ours).toBe(byOpenSsl);
    expect(ours).toBe(
      forge.pki
        .privateKeyInfoToPem(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(byForge)))
        .replace(/\r\n/g, '\n'),
    );
  });

  it('accepts Windows line endings and surrounding text, and ignores a passphrase it does not need', async () => {
    const pasted = `Here is the key:\r\n${fixture('rsa2048-pkcs1').replace(/\n/g, '\r\n')}\r\nthanks`;
    expect((await importPrivateKey(pasted, 'unused')).fingerprint).toBe(FINGERPRINT);
  });

  it('asks for the passphrase of an encrypted key, and says when it is wrong', async () => {
    for (const name of ['rsa2048-pkcs8-encrypted', 'rsa2048-pkcs1-encrypted']) {
      expect((await keyError(importPrivateKey(fixture(name)))).code).toBe('passphrase-required');
      expect((await keyError(importPrivateKey(fixture(name), ''))).code).toBe(
        'passphrase-required',
      );
      const wrong = await keyError(importPrivateKey(fixture(name), 'not the passphrase'));
      expect(wrong.code).toBe('wrong-passphrase');
      expect(wrong.message).toMatch(/passphrase is not right/);
      expect(wrong.message).not.toContain('not the passphrase');
    }
  });

  it('says which old encryption schemes it does not read, and how to convert', async () => {
    for (const name of ['rsa2048-pkcs8-encrypted-pbes1', 'rsa2048-pkcs8-encrypted-scrypt']) {
      const error = await keyError(importPrivateKey(fixture(name), PASSPHRASE));
      expect(error.code).toBe('unsupported-encryption');
      expect(error.message).toMatch(/openssl pkcs8 -topk8 -v2 aes-256-cbc/);
    }
  });

  it.each([
    ['ec-p256-pkcs8', undefined, /elliptic-curve \(EC\) key/],
    ['ec-p256-sec1', undefined, /elliptic-curve \(EC\) key/],
    ['ec-p256-pkcs8-encrypted', PASSPHRASE, /elliptic-curve \(EC\) key/],
    ['ed25519-pkcs8', undefined, /Ed25519 key/],
    ['rsa-pss2048-pkcs8', undefined, /RSA-PSS/],
  ])('refuses the non-RSA key %s', async (name, pass, message) => {
    const error = await keyError(importPrivateKey(fixture(name), pass));
    expect(error.code).toBe('not-rsa');
    expect(error.message).toMatch(message);
    expect(error.message).toMatch(/needs an RSA key/);
  });

  it.each(['rsa1024-pkcs8', 'rsa1024-pkcs1'])('refuses %s: under 2048 bits', async (name) => {
    const error = await keyError(importPrivateKey(fixture(name)));
    expect(error.code).toBe('too-small');
    expect(error.message).toMatch(/1024 bits; the gateway requires at least 2048/);
  });

  it('refuses public keys, two keys at once, non-PEM text and OpenSSH files', async () => {
    expect((await keyError(importPrivateKey(fixture('rsa2048-public')))).code).toBe(
      'not-a-private-key',
    );
    const two = fixture('rsa2048-pkcs8') + fixture('rsa2048-pkcs1');
    expect((await keyError(importPrivateKey(two))).code).toBe('several-keys');
    expect((await keyError(importPrivateKey('hunter2'))).code).toBe('not-pem');
    const openssh =
      '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n';
    expect((await keyError(importPrivateKey(openssh))).message).toMatch(/ssh-keygen -p -m PKCS8/);
  });

  it('refuses a truncated key and one whose numbers do not belong together', async () => {
    const lines = fixture('rsa2048-pkcs8').split('\n');
    const truncated = [...lines.slice(0, 10), lines.at(-2), ''].join('\n');
    expect((await keyError(importPrivateKey(truncated))).code).toBe('damaged');

    const key = forge.pki.privateKeyFromPem(fixture('rsa2048-pkcs1'));
    const tampered = forge.pki.setRsaPrivateKey(
      key.n,
      key.e,
      key.d,
      key.p,
      key.q,
      key.dP.add(forge.jsbn.BigInteger.ONE),
      key.dQ,
      key.qInv,
    );
    const error = await keyError(importPrivateKey(forge.pki.privateKeyToPem(tampered)));
    expect(error.code).toBe('damaged');
    expect(error.message).toMatch(/numbers do not belong together/);
  });

  it('answers any text with key material or a KeyError, never a crash', async () => {
    const pem = fixture('rsa2048-pkcs8');
    const body = pem.split('\n').slice(1, -2).join('\n');
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          // The real key with one base64 character changed: damaged, or by luck still a key.
          fc
            .record({ at: fc.nat(body.length - 1), c: fc.constantFrom(...'AZaz09+/') })
            .map(
              ({ at, c }) =>
                `-----BEGIN PRIVATE KEY-----\n${body.slice(0, at)}${c}${body.slice(at + 1)}\n-----END PRIVATE KEY-----\n`,
            ),
        ),
        async (text) => {
          const outcome = await importPrivateKey(text).then(
            (m) => m,
            (e: unknown) => e,
          );
          if (outcome instanceof KeyError) return;
          expect((outcome as KeyMaterial).fingerprint).toBe(FINGERPRINT);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('generating a key pair', () => {
  it('makes a 2048-bit key in every exported form, signing with node:crypto and node-forge', async () => {
    const material = await generateKeyPair(2048);
    expect(material.bits).toBe(2048);
    expect(material.privateKeyPkcs8Pem).toMatch(
      /^-----BEGIN PRIVATE KEY-----\n[^\r]+-----END PRIVATE KEY-----\n$/,
    );
    expect(material.publicKeySpkiPem).toMatch(
      /^-----BEGIN PUBLIC KEY-----\n[^\r]+-----END PUBLIC KEY-----\n$/,
    );
    expect(material.publicKeyPkcs1Pem).toMatch(/^-----BEGIN RSA PUBLIC KEY-----\n/);
    const spki = createPublicKey(material.privateKeyPkcs8Pem).export({
      type: 'spki',
      format: 'der',
    });
    expect(material.fingerprint.replace(/:/g, '')).toBe(
      createHash('sha256').update(spki).digest('hex').toUpperCase(),
    );
    expect(fingerprintOf(material.publicKeyPkcs1Pem)).toBe(material.fingerprint);
    expectCrossVerifies(material);
    // What it generates, it also imports unchanged.
    expect(await importPrivateKey(material.privateKeyPkcs8Pem)).toEqual(material);
  });

  it('makes a 4096-bit key by default while timers keep firing (the main process is not frozen)', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    try {
      const material = await generateKeyPair();
      expect(material.bits).toBe(4096);
      expect(
        createPrivateKey(material.privateKeyPkcs8Pem).asymmetricKeyDetails?.modulusLength,
      ).toBe(4096);
    } finally {
      clearInterval(timer);
    }
    // Not a timing assertion: with a synchronous generator no timer could run at all.
    expect(ticks).toBeGreaterThan(0);
  });

  it('refuses sizes other than 2048, 3072 and 4096', async () => {
    expect((await keyError(generateKeyPair(1024 as never))).code).toBe('invalid-bits');
  });
});

describe('one key pair, one environment', () => {
  const other =
    '4B:2A:33:26:25:00:3F:96:68:99:E1:F7:9A:21:3D:3B:26:19:15:9D:8B:3D:3B:60:B5:83:21:BE:77:D8:B5:E0';
  const attachments: KeyAttachment[] = [
    {
      profileId: 'p1',
      profileName: 'Production EUR',
      environment: 'production',
      fingerprint: FINGERPRINT,
    },
    {
      profileId: 't1',
      profileName: 'Test EUR',
      environment: 'test',
      fingerprint: other,
      retiredAt: '2026-01-01T00:00:00Z',
    },
  ];

  it('mirrors the environments of the profiles store', () => {
    expectTypeOf<KeyEnvironment>().toEqualTypeOf<Environment>();
  });

  it('allows a new key, and the same key on another profile of the same environment', () => {
    expect(checkKeyEnvironment(other, { environment: 'test' }, attachments)).toEqual({
      allowed: true,
    });
    expect(checkKeyEnvironment(FINGERPRINT, { environment: 'production' }, attachments)).toEqual({
      allowed: true,
    });
    expect(checkKeyEnvironment(FINGERPRINT, { environment: 'test' }, [])).toEqual({
      allowed: true,
    });
  });

  it("refuses production's key on a test profile, naming the profile", () => {
    const decision = checkKeyEnvironment(
      FINGERPRINT.toLowerCase(),
      { environment: 'test' },
      attachments,
    );
    expect(decision.allowed).toBe(false);
    if (decision.allowed) return;
    expect(decision.conflict.profileId).toBe('p1');
    expect(decision.reason).toBe(
      'This key is used by the production profile "Production EUR", and a key pair belongs to one environment. Generate a new key for this test profile.',
    );
  });

  it('counts retired keys: a key once used for test never signs for production', () => {
    const decision = checkKeyEnvironment(other, { environment: 'production' }, attachments);
    expect(decision.allowed).toBe(false);
    if (!decision.allowed)
      expect(decision.reason).toMatch(/was used by the test profile "Test EUR"/);
  });

  it('names the production clash first when a key clashes with several', () => {
    const many: KeyAttachment[] = [
      { profileId: 's', profileName: 'Sandbox', environment: 'sandbox', fingerprint: FINGERPRINT },
      ...attachments,
    ];
    const decision = checkKeyEnvironment(FINGERPRINT, { environment: 'test' }, many);
    expect(decision.allowed || decision.conflict.environment).toBe('production');
  });
});
