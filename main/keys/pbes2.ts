// Decrypts PKCS#8 EncryptedPrivateKeyInfo under PBES2 (RFC 8018), as the gateway's key tool and
// `openssl pkcs8 -topk8 -v2 aes-256-cbc` write it. node-forge could do this too, but its PBKDF2
// is pure JavaScript on the main thread, so a key written with today's recommended 600,000
// iterations would freeze Paydesk for seconds. The key
// derivation therefore runs in node:crypto's thread pool; forge only reads the ASN.1.

import { createDecipheriv, pbkdf2 } from 'node:crypto';
import { promisify } from 'node:util';

import forge from 'node-forge';

import { KeyError } from './errors';
import { algorithmOid, asn1FromBytes, children, damaged } from './pem';

const pbkdf2Async = promisify(pbkdf2);

const PBES2 = '1.2.840.113549.1.5.13';
const PBKDF2 = '1.2.840.113549.1.5.12';

const PRF_DIGESTS: Readonly<Record<string, string>> = {
  '1.2.840.113549.2.7': 'sha1', // the default when the PRF is absent
  '1.2.840.113549.2.8': 'sha224',
  '1.2.840.113549.2.9': 'sha256',
  '1.2.840.113549.2.10': 'sha384',
  '1.2.840.113549.2.11': 'sha512',
};

const CIPHERS: Readonly<Record<string, { name: string; keyLength: number }>> = {
  '2.16.840.1.101.3.4.1.2': { name: 'aes-128-cbc', keyLength: 16 },
  '2.16.840.1.101.3.4.1.22': { name: 'aes-192-cbc', keyLength: 24 },
  '2.16.840.1.101.3.4.1.42': { name: 'aes-256-cbc', keyLength: 32 },
  '1.2.840.113549.3.7': { name: 'des-ede3-cbc', keyLength: 24 },
};

// Generous: ten times today's recommendation. A count beyond it is a damaged or hostile file,
// and would tie up a thread-pool worker for minutes.
const MAX_ITERATIONS = 10_000_000;

function unsupported(what: string): KeyError {
  return new KeyError(
    'unsupported-encryption',
    `The key is encrypted with ${what}, which Paydesk does not read. Re-encrypt it with AES-256-CBC, for example: openssl pkcs8 -topk8 -v2 aes-256-cbc -in old.pem -out new.pem`,
  );
}

const octets = (node: forge.asn1.Asn1 | undefined): string | undefined =>
  node?.type === forge.asn1.Type.OCTETSTRING && typeof node.value === 'string'
    ? node.value
    : undefined;

const integer = (node: forge.asn1.Asn1 | undefined): number | undefined =>
  node?.type === forge.asn1.Type.INTEGER && typeof node.value === 'string'
    ? forge.asn1.derToInteger(node.value)
    : undefined;

/** Returns the PrivateKeyInfo DER (binary string) inside an `ENCRYPTED PRIVATE KEY` body. */
export async function decryptPkcs8(body: string, passphrase: string): Promise<string> {
  // EncryptedPrivateKeyInfo ::= SEQUENCE { AlgorithmIdentifier, OCTET STRING encryptedData }
  const [algorithm, data] = children(asn1FromBytes(body));
  const scheme = algorithmOid(algorithm);
  if (scheme === undefined) throw damaged();
  if (scheme !== PBES2) {
    throw unsupported(
      `an old password-based scheme (${forge.pki.oids[scheme] ?? scheme}, PBES1 or PKCS#12)`,
    );
  }
  const [kdf, encryption] = children(children(algorithm)[1]);
  const kdfOid = algorithmOid(kdf);
  if (kdfOid !== PBKDF2) {
    throw unsupported(kdfOid === '1.3.6.1.4.1.11591.4.11' ? 'scrypt' : 'an unknown key derivation');
  }
  // PBKDF2-params ::= SEQUENCE { salt OCTET STRING, iterationCount INTEGER,
  //                              keyLength INTEGER OPTIONAL, prf AlgorithmIdentifier DEFAULT sha1 }
  const params = children(children(kdf)[1]);
  const salt = octets(params[0]);
  const iterations = integer(params[1]);
  let rest = params.slice(2);
  const declaredKeyLength = integer(rest[0]);
  if (declaredKeyLength !== undefined) rest = rest.slice(1);
  const prfOid = rest[0] ? algorithmOid(rest[0]) : '1.2.840.113549.2.7';
  const digest = prfOid ? PRF_DIGESTS[prfOid] : undefined;
  if (!digest) throw unsupported(`an unknown PBKDF2 hash (${prfOid ?? 'unreadable'})`);
  const cipherOid = algorithmOid(encryption);
  const cipher = cipherOid ? CIPHERS[cipherOid] : undefined;
  if (!cipher) {
    throw unsupported(
      cipherOid ? `the cipher ${forge.pki.oids[cipherOid] ?? cipherOid}` : 'an unreadable cipher',
    );
  }
  const iv = octets(children(encryption)[1]);
  const ciphertext = octets(data);
  if (salt === undefined || iterations === undefined || iv === undefined || !ciphertext) {
    throw damaged();
  }
  if (iterations < 1 || iterations > MAX_ITERATIONS) throw damaged();
  if (declaredKeyLength !== undefined && declaredKeyLength !== cipher.keyLength) throw damaged();

  const key = await pbkdf2Async(
    Buffer.from(passphrase, 'utf8'),
    Buffer.from(salt, 'binary'),
    iterations,
    cipher.keyLength,
    digest,
  );
  let decipher;
  try {
    decipher = createDecipheriv(cipher.name, key, Buffer.from(iv, 'binary'));
  } catch {
    throw damaged(); // an IV of the wrong length
  }
  let plain: Buffer;
  try {
    plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'binary')), decipher.final()]);
  } catch {
    // A wrong passphrase almost always breaks the CBC padding; the rare one that does not is
    // caught when the result fails to parse as a key.
    throw wrongPassphrase();
  }
  return plain.toString('binary');
}

export function wrongPassphrase(): KeyError {
  return new KeyError(
    'wrong-passphrase',
    'The passphrase is not right for this key. Check it (it is case-sensitive) and try again.',
  );
}
