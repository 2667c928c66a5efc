// A self-signed certificate for 127.0.0.1, made with node-forge for the TLS tests.

import forge from 'node-forge';

export function selfSignedCertificate(): { key: string; cert: string } {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  const attrs = [{ name: 'commonName', value: '127.0.0.1' }];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true },
    { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
  ]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return {
    key: forge.pki.privateKeyToPem(keys.privateKey),
    cert: forge.pki.certificateToPem(cert),
  };
}

function keyPairOf(pem: string): forge.pki.rsa.KeyPair {
  const privateKey = forge.pki.privateKeyFromPem(pem);
  return { privateKey, publicKey: forge.pki.setRsaPublicKey(privateKey.n, privateKey.e) };
}

/**
 * A private certificate authority and a server certificate for 127.0.0.1 it signed: what a
 * company's TLS-inspecting proxy presents. Only `caCert` is what a person would paste.
 */
export function privateCaChain(
  /** The authority's own key (PEM): the screenshots pass a test-only one, so it looks the same. */
  caKeyPem?: string,
): { caCert: string; key: string; cert: string } {
  const caKeys = caKeyPem ? keyPairOf(caKeyPem) : forge.pki.rsa.generateKeyPair(2048);
  const ca = forge.pki.createCertificate();
  ca.publicKey = caKeys.publicKey;
  ca.serialNumber = '01';
  ca.validity.notBefore = new Date(Date.now() - 60_000);
  ca.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  const caName = [
    { name: 'commonName', value: 'Example Corp TLS Inspection CA' },
    { name: 'organizationName', value: 'Example Corp' },
  ];
  ca.setSubject(caName);
  ca.setIssuer(caName);
  ca.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
  ]);
  ca.sign(caKeys.privateKey, forge.md.sha256.create());

  const keys = forge.pki.rsa.generateKeyPair(2048);
  const leaf = forge.pki.createCertificate();
  leaf.publicKey = keys.publicKey;
  leaf.serialNumber = '02';
  leaf.validity.notBefore = new Date(Date.now() - 60_000);
  leaf.validity.notAfter = new Date(Date.now() + 24 * 3600_000);
  leaf.setSubject([{ name: 'commonName', value: '127.0.0.1' }]);
  leaf.setIssuer(caName);
  leaf.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
  ]);
  leaf.sign(caKeys.privateKey, forge.md.sha256.create());
  return {
    caCert: forge.pki.certificateToPem(ca),
    key: forge.pki.privateKeyToPem(keys.privateKey),
    cert: forge.pki.certificateToPem(leaf),
  };
}
