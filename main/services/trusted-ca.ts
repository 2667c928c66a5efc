// Settings -> Network: a certificate authority this desk trusts besides the built-in ones, for a
// company network whose proxy inspects TLS and signs what it passes on with its own CA. The
// packaged app's nodeOptions fuse turns NODE_OPTIONS off, and NODE_EXTRA_CA_CERTS is read only
// at a Node start Paydesk does not control, so the CA is a setting of Paydesk's own: one PEM file
// in the data folder (beside team.json), read at start, used for every gateway connection (the
// built-in roots plus this one; verification is never turned off), and changed here.

import { X509Certificate } from 'node:crypto';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';

import { ServiceError } from './errors';

export const TRUSTED_CA_FILE = 'trusted-ca.pem';
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;
/** A bundle of a root and a few intermediates; far more is not a CA certificate. */
const MAX_PEM_CHARS = 64 * 1024;

export interface TrustedCaView {
  certificates: { subject: string; issuer: string; validTo: string; fingerprint: string }[];
}

function describe(certificate: X509Certificate): TrustedCaView['certificates'][number] {
  return {
    subject: certificate.subject.replaceAll('\n', ', '),
    issuer: certificate.issuer.replaceAll('\n', ', '),
    validTo: new Date(certificate.validTo).toISOString(),
    fingerprint: certificate.fingerprint256,
  };
}

/** The PEM's certificates, each a CA's; a ServiceError that says what to fix otherwise. */
export function parseTrustedCa(pem: string): X509Certificate[] {
  if (/PRIVATE KEY/.test(pem))
    throw new ServiceError(
      'INPUT',
      'This is a private key, not a certificate: it must not leave the proxy. Paste only the CA certificate (-----BEGIN CERTIFICATE-----).',
      'pem',
    );
  if (pem.length > MAX_PEM_CHARS)
    throw new ServiceError('INPUT', 'This is far longer than a CA certificate.', 'pem');
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0)
    throw new ServiceError(
      'INPUT',
      'No certificate found: paste the CA certificate in PEM form, from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----.',
      'pem',
    );
  return blocks.map((block, index) => {
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(block);
    } catch {
      throw new ServiceError(
        'INPUT',
        `Certificate ${index + 1} cannot be read: it is damaged or not a certificate. Copy it again from the file your IT gave you.`,
        'pem',
      );
    }
    if (!certificate.ca)
      throw new ServiceError(
        'INPUT',
        `Certificate ${index + 1} (${certificate.subject.replaceAll('\n', ', ')}) is not a certificate authority's, so trusting it would not cover the proxy's certificates. Ask your IT for the proxy's root CA certificate.`,
        'pem',
      );
    return certificate;
  });
}

export class TrustedCa {
  private certificates: X509Certificate[] = [];
  private readonly file: string;

  /** Reads the saved CA; a file that no longer parses is reported through `onBadFile`. */
  constructor(dataDir: string, onBadFile: (message: string) => void = () => undefined) {
    this.file = join(dataDir, TRUSTED_CA_FILE);
    let saved: string;
    try {
      saved = readFileSync(this.file, 'utf8');
    } catch {
      return;
    }
    try {
      this.certificates = parseTrustedCa(saved);
    } catch (error) {
      onBadFile(`${this.file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  view(): TrustedCaView {
    return { certificates: this.certificates.map(describe) };
  }

  /**
   * The `ca` of a gateway connection: undefined (Node's built-in roots) without a saved CA, the
   * built-in roots plus the saved ones with it (Node's `ca` replaces the roots, not adds).
   */
  ca(): string[] | undefined {
    if (this.certificates.length === 0) return undefined;
    return [...rootCertificates, ...this.certificates.map((c) => c.toString())];
  }

  save(pem: string): TrustedCaView {
    const certificates = parseTrustedCa(pem);
    const text = `${certificates.map((c) => c.toString().trim()).join('\n')}\n`;
    const partial = `${this.file}.partial`;
    writeFileSync(partial, text, { mode: 0o644 });
    renameSync(partial, this.file);
    this.certificates = certificates;
    return this.view();
  }

  clear(): TrustedCaView {
    rmSync(this.file, { force: true });
    this.certificates = [];
    return this.view();
  }
}
