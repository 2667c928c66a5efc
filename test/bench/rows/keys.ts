// Extra row (no target): RSA-SHA256 signing of an OAuth base string
// with a 4096-bit key, node:crypto (what main/gateway uses) against node-forge's pure
// JavaScript. design.md says forge is ~40x slower.

import { createPrivateKey, sign } from 'node:crypto';

import forge from 'node-forge';

import { rsaPrivateKeyPem } from '../lib/keys';
import type { BenchRow } from '../lib/report';
import { interleave, median, ms, ratio, timeLoop } from '../lib/stats';

const REPS = 3;
const BASE_STRING =
  'POST&https%3A%2F%2Fsandbox.payneteasy.com%2Fpaynet%2Fapi%2Fv4%2Ftransfer-by-ref%2F1&client-order-id%3D1234567890%26oauth_consumer_key%3Dmerchantlogin%26oauth_nonce%3Dy3qlvMPky7g%26oauth_signature_method%3DRSA-SHA256%26oauth_timestamp%3D1669966913%26oauth_version%3D1.0%26sending-card-ref-id%3D7654321';

export const keysRow: BenchRow = {
  id: 'x',
  title: 'RSA-4096 signing: node:crypto vs node-forge',
  async run(context) {
    const pem = rsaPrivateKeyPem(4096);
    const nodeKey = createPrivateKey(pem);
    const forgeKey = forge.pki.privateKeyFromPem(pem);
    const data = Buffer.from(BASE_STRING, 'utf8');
    const nodeSign = () => sign('sha256', data, nodeKey);
    const forgeSign = () => {
      const md = forge.md.sha256.create();
      md.update(BASE_STRING, 'utf8');
      forgeKey.sign(md);
    };
    const runs = await interleave(
      REPS,
      async () => (await timeLoop(nodeSign, 500, 5_000)).perCallMs,
      async () => (await timeLoop(forgeSign, 1_000, 200)).perCallMs,
    );
    const a = median(runs.project);
    const b = median(runs.reference);
    context.log(`extra: node:crypto ${ms(a)}, node-forge ${ms(b)}`);
    return [
      {
        figure: '(extra) RSA-4096 sign, node:crypto (used by main/gateway)',
        project: ms(a),
        reference: `node-forge (pure JavaScript): ${ms(b)}`,
        ratio: ratio(a, b),
        target: '',
        note: `${REPS} x (0.5 s node:crypto, 1 s node-forge), interleaved, medians; design.md expects forge ~40x slower`,
      },
    ];
  },
};
