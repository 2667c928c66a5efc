// Reading PEM blocks and the ASN.1 inside them with node-forge, which is pure JavaScript: it
// reads keys the same way under Node's OpenSSL (tests) and Electron's BoringSSL (the app).
// Every refusal names what was found and what to do instead.

import forge from 'node-forge';

import { KeyError } from './errors';

export const RSA_ENCRYPTION_OID = '1.2.840.113549.1.1.1';

// Other key algorithms people paste by mistake, named so the message says what the key is.
const ALGORITHM_NAMES: Readonly<Record<string, string>> = {
  '1.2.840.10045.2.1': 'an elliptic-curve (EC)',
  '1.3.101.112': 'an Ed25519',
  '1.3.101.113': 'an Ed448',
  '1.3.101.110': 'an X25519',
  '1.3.101.111': 'an X448',
  '1.2.840.10040.4.1': 'a DSA',
  '1.2.840.10046.2.1': 'a Diffie-Hellman',
  // RSA-PSS keys are restricted to PSS signatures; the gateway verifies PKCS#1 v1.5 ones, and
  // stripping the restriction would use the key against its declared purpose.
  '1.2.840.113549.1.1.10': 'an RSA-PSS (restricted to PSS signatures)',
};

const NOT_RSA_HINT =
  'The gateway verifies RSA-SHA256 signatures, so Paydesk needs an RSA key: generate one in Keys, or import the RSA key the gateway knows.';

export function notRsa(what: string): KeyError {
  return new KeyError('not-rsa', `This is ${what} key. ${NOT_RSA_HINT}`);
}

export function decodePem(text: string): forge.pem.ObjectPEM[] {
  let blocks: forge.pem.ObjectPEM[] = [];
  try {
    blocks = forge.pem.decode(text);
  } catch {
    // forge throws on text with no PEM block at all, and on a block whose headers are broken.
  }
  if (blocks.length === 0) {
    throw new KeyError(
      'not-pem',
      'This is not a PEM key: a PEM file is text that starts with a line like "-----BEGIN PRIVATE KEY-----". If you have a binary (DER) or PuTTY file, convert it to PEM first.',
    );
  }
  return blocks;
}

export function asn1FromBytes(bytes: string): forge.asn1.Asn1 {
  try {
    return forge.asn1.fromDer(bytes, true);
  } catch {
    throw damaged();
  }
}

export function damaged(): KeyError {
  return new KeyError(
    'damaged',
    'The key could not be read: the PEM text is damaged or incomplete. Copy the whole file, including the BEGIN and END lines, and try again.',
  );
}

const isSequence = (
  node: forge.asn1.Asn1 | undefined,
): node is forge.asn1.Asn1 & { value: forge.asn1.Asn1[] } =>
  node !== undefined &&
  node.tagClass === forge.asn1.Class.UNIVERSAL &&
  node.type === forge.asn1.Type.SEQUENCE &&
  Array.isArray(node.value);

/** The algorithm OID of an AlgorithmIdentifier (`SEQUENCE { OID, params }`), if it is one. */
export function algorithmOid(node: forge.asn1.Asn1 | undefined): string | undefined {
  if (!isSequence(node)) return undefined;
  const oid = node.value[0];
  if (!oid || oid.type !== forge.asn1.Type.OID || typeof oid.value !== 'string') return undefined;
  return forge.asn1.derToOid(oid.value);
}

export function children(node: forge.asn1.Asn1 | undefined): forge.asn1.Asn1[] {
  return isSequence(node) ? node.value : [];
}

function refuseUnlessRsa(oid: string | undefined): void {
  if (oid === RSA_ENCRYPTION_OID) return;
  if (oid === undefined) throw damaged();
  throw notRsa(ALGORITHM_NAMES[oid] ?? `a non-RSA (algorithm ${oid})`);
}

/** PKCS#8 PrivateKeyInfo DER -> RSA private key; other algorithms are refused by name. */
export function rsaFromPrivateKeyInfo(der: string): forge.pki.rsa.PrivateKey {
  const info = asn1FromBytes(der);
  // PrivateKeyInfo ::= SEQUENCE { version, AlgorithmIdentifier, OCTET STRING privateKey, ... }
  refuseUnlessRsa(algorithmOid(children(info)[1]));
  return rsaPrivateFromAsn1(info);
}

/** PKCS#1 RSAPrivateKey DER -> RSA private key. */
export function rsaFromPkcs1(der: string): forge.pki.rsa.PrivateKey {
  return rsaPrivateFromAsn1(asn1FromBytes(der));
}

function rsaPrivateFromAsn1(node: forge.asn1.Asn1): forge.pki.rsa.PrivateKey {
  try {
    return forge.pki.privateKeyFromAsn1(node);
  } catch {
    throw damaged();
  }
}

/** An RSA public key from SPKI (`BEGIN PUBLIC KEY`) or PKCS#1 (`BEGIN RSA PUBLIC KEY`) PEM. */
export function readRsaPublicKey(text: string): forge.pki.rsa.PublicKey {
  const blocks = decodePem(text).filter(
    (b) => b.type === 'PUBLIC KEY' || b.type === 'RSA PUBLIC KEY',
  );
  const block = blocks[0];
  if (!block) {
    throw new KeyError(
      'not-pem',
      'This is not a public key: public_key.pem starts with "-----BEGIN PUBLIC KEY-----".',
    );
  }
  if (blocks.length > 1) {
    throw new KeyError('several-keys', 'The text holds several public keys; give one at a time.');
  }
  const node = asn1FromBytes(block.body);
  if (block.type === 'PUBLIC KEY') {
    // SubjectPublicKeyInfo ::= SEQUENCE { AlgorithmIdentifier, BIT STRING }
    refuseUnlessRsa(algorithmOid(children(node)[0]));
  }
  try {
    return forge.pki.publicKeyFromAsn1(node);
  } catch {
    throw damaged();
  }
}
