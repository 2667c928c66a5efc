// Importing an RSA private key the merchant already has: PKCS#1 or PKCS#8 PEM, plain or
// encrypted. The result is normalised to unencrypted PKCS#8 for the SecretStore, so the signer
// never meets an encrypted key or a passphrase.

import forge from 'node-forge';

import { KeyError } from './errors';
import { type KeyMaterial, keyMaterial } from './material';
import { decryptPkcs8, wrongPassphrase } from './pbes2';
import { decodePem, notRsa, rsaFromPkcs1, rsaFromPrivateKeyInfo } from './pem';

const PRIVATE_KEY_TYPES = new Set([
  'PRIVATE KEY',
  'RSA PRIVATE KEY',
  'ENCRYPTED PRIVATE KEY',
  'EC PRIVATE KEY',
  'DSA PRIVATE KEY',
  'OPENSSH PRIVATE KEY',
]);

function needPassphrase(passphrase: string | undefined): string {
  if (passphrase === undefined || passphrase === '') {
    throw new KeyError(
      'passphrase-required',
      'This key is encrypted. Enter the passphrase it was saved with.',
    );
  }
  return passphrase;
}

function pickPrivateKeyBlock(text: string): forge.pem.ObjectPEM {
  const blocks = decodePem(text);
  const keys = blocks.filter((b) => PRIVATE_KEY_TYPES.has(b.type));
  const [key] = keys;
  if (!key) {
    const found = blocks.map((b) => b.type).join(', ');
    const publicOnly = blocks.some((b) => /PUBLIC KEY|CERTIFICATE/.test(b.type));
    throw new KeyError(
      'not-a-private-key',
      publicOnly
        ? `This is a public key or certificate (${found}), not the private key. Import the private key file; Paydesk makes the public key from it.`
        : `This PEM holds ${found}, not a private key. Import a file that starts with "-----BEGIN PRIVATE KEY-----" or "-----BEGIN RSA PRIVATE KEY-----".`,
    );
  }
  if (keys.length > 1) {
    throw new KeyError(
      'several-keys',
      `This text holds ${keys.length} private keys; import one key at a time.`,
    );
  }
  return key;
}

async function readPrivateKey(
  block: forge.pem.ObjectPEM,
  passphrase: string | undefined,
): Promise<forge.pki.rsa.PrivateKey> {
  switch (block.type) {
    case 'PRIVATE KEY':
      return rsaFromPrivateKeyInfo(block.body);
    case 'ENCRYPTED PRIVATE KEY': {
      const der = await decryptPkcs8(block.body, needPassphrase(passphrase));
      try {
        return rsaFromPrivateKeyInfo(der);
      } catch (error) {
        // The passphrase opened the padding but not the key: it was wrong after all.
        if (error instanceof KeyError && error.code === 'damaged') throw wrongPassphrase();
        throw error;
      }
    }
    case 'RSA PRIVATE KEY': {
      const encrypted = (block.procType as { type?: string } | undefined)?.type === 'ENCRYPTED';
      if (!encrypted) return rsaFromPkcs1(block.body);
      return decryptLegacy(block, needPassphrase(passphrase));
    }
    case 'EC PRIVATE KEY':
      throw notRsa('an elliptic-curve (EC)');
    case 'DSA PRIVATE KEY':
      throw notRsa('a DSA');
    default:
      throw new KeyError(
        'not-a-private-key',
        'This is an OpenSSH key file. Convert it to PEM first: ssh-keygen -p -m PKCS8 -f <file> (this rewrites the file in place; work on a copy).',
      );
  }
}

/**
 * Legacy OpenSSL encryption of PKCS#1 (`Proc-Type: 4,ENCRYPTED`, `DEK-Info: AES-256-CBC,...`).
 * Its key derivation is a single MD5 round, so forge's pure-JS version costs nothing.
 */
function decryptLegacy(block: forge.pem.ObjectPEM, passphrase: string): forge.pki.rsa.PrivateKey {
  const algorithm = (block.dekInfo as { algorithm?: string } | undefined)?.algorithm ?? '';
  if (!/^(AES-(128|192|256)-CBC|DES-EDE3-CBC)$/.test(algorithm)) {
    throw new KeyError(
      'unsupported-encryption',
      `The key is encrypted with ${algorithm || 'an unnamed cipher'}, which Paydesk does not read. Re-encrypt it with AES-256-CBC, for example: openssl pkcs8 -topk8 -v2 aes-256-cbc -in old.pem -out new.pem`,
    );
  }
  let key: forge.pki.rsa.PrivateKey | null;
  try {
    // OpenSSL derives the key from the passphrase's UTF-8 bytes; forge wants them as a byte string.
    key = forge.pki.decryptRsaPrivateKey(
      forge.pem.encode(block),
      forge.util.encodeUtf8(passphrase),
    );
  } catch {
    key = null; // garbage that got past the padding check and failed to parse
  }
  if (!key) throw wrongPassphrase();
  return key;
}

/**
 * Reads an RSA private key from PEM: PKCS#8 (`BEGIN PRIVATE KEY`), encrypted PKCS#8
 * (`BEGIN ENCRYPTED PRIVATE KEY`, PBES2), PKCS#1 (`BEGIN RSA PRIVATE KEY`), or legacy encrypted
 * PKCS#1 (`Proc-Type: 4,ENCRYPTED`). Refuses other algorithms, keys under 2048 bits and damaged
 * keys with a KeyError whose message says what to do. The passphrase is ignored for a plain key.
 */
export async function importPrivateKey(pem: string, passphrase?: string): Promise<KeyMaterial> {
  return keyMaterial(await readPrivateKey(pickPrivateKeyBlock(pem), passphrase));
}
