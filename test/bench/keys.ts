// RSA-SHA256 signing of an OAuth base string with a 4096-bit key: node:crypto (what
// main/gateway uses) against node-forge's pure JavaScript. design.md says forge is ~40x slower;
// `npm run bench` measures it (tinybench; timings never go in tests). Also: reading a stored key.

import { createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';

import forge from 'node-forge';
import { Bench } from 'tinybench';

import { importPrivateKey } from '../../main/keys';

// Synchronous generation is fine here: a benchmark's setup, not the app.
const { privateKey: pem } = generateKeyPairSync('rsa', {
  modulusLength: 4096,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const baseString =
  'POST&https%3A%2F%2Fsandbox.payneteasy.com%2Fpaynet%2Fapi%2Fv4%2Ftransfer-by-ref%2F1&client-order-id%3D1234567890%26oauth_consumer_key%3Dmerchantlogin%26oauth_nonce%3Dy3qlvMPky7g%26oauth_signature_method%3DRSA-SHA256%26oauth_timestamp%3D1669966913%26oauth_version%3D1.0%26sending-card-ref-id%3D7654321';
const nodeKey = createPrivateKey(pem);
const forgeKey = forge.pki.privateKeyFromPem(pem);

const signing = new Bench({ name: 'RSA-SHA256 signature, 4096-bit key', time: 2000 });
signing.add('node:crypto sign', () => {
  sign('sha256', Buffer.from(baseString, 'utf8'), nodeKey);
});
signing.add('node-forge sign (pure JavaScript)', () => {
  const md = forge.md.sha256.create();
  md.update(baseString, 'utf8');
  forgeKey.sign(md);
});

const reading = new Bench({ name: 'reading a stored 4096-bit PKCS#8 key', time: 2000 });
reading.add('importPrivateKey (forge parse + consistency check + exports)', async () => {
  await importPrivateKey(pem);
});

for (const bench of [signing, reading]) {
  await bench.run();
  console.log(bench.name);
  console.table(bench.table());
}
