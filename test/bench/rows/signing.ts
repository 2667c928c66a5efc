// Row 4: one RSA-SHA256 OAuth request built by `buildRequest` (fields, base string, key,
// signature), 2048- and 4096-bit keys, against `openssl speed`'s RSA signing time on the same
// machine in the same run (one process: -multi 1). Both are wall time: openssl's `-elapsed`
// (without it, openssl reports CPU time, which a loaded machine does not stretch as it
// stretches the project's wall time). An extra line per key times node:crypto's sign alone,
// interleaved with both, so the table shows which part of the ratio is the request's own work
// and which is node's OpenSSL against the system's.

import { execFile } from 'node:child_process';
import { createPrivateKey, sign } from 'node:crypto';
import { promisify } from 'node:util';

import { buildRequest, type Credentials } from '../../../main/gateway/request';
import { rsaPrivateKeyPem } from '../lib/keys';
import type { BenchLine, BenchRow } from '../lib/report';
import { interleave, median, ms, now, num, ratio, timeLoop } from '../lib/stats';
import { CONTROL_KEY } from '../../support/samples';

const REPS = 5;
const PROJECT_MS = 1_000;
const SIGN_MS = 1_000;
const OPENSSL_SECONDS = 2;
const run = promisify(execFile);

/** Milliseconds per RSA sign as `openssl speed` reports it, or an Error saying why not. */
async function opensslSignMs(bits: number): Promise<number> {
  const { stdout } = await run(
    'openssl',
    ['speed', '-elapsed', '-seconds', String(OPENSSL_SECONDS), '-multi', '1', `rsa${bits}`],
    { timeout: 60_000 },
  );
  // "rsa 2048 bits 0.000704s 0.000028s   1420.0  35411.0": sign s, verify s, sign/s, verify/s
  const match = new RegExp(`^rsa\\s+${bits} bits\\s+\\S+s\\s+\\S+s\\s+([\\d.]+)`, 'm').exec(stdout);
  if (!match?.[1]) throw new Error(`could not read openssl speed's output:\n${stdout}`);
  return 1000 / Number(match[1]);
}

function credentialsWithKey(bits: number): Credentials {
  return {
    baseUrl: 'https://gate.example.com/paynet',
    endpointId: '1111',
    login: 'merchantlogin',
    controlKey: CONTROL_KEY,
    privateKeyPem: rsaPrivateKeyPem(bits),
  };
}

export const signingRow: BenchRow = {
  id: '4',
  title: 'RSA-SHA256 OAuth signing via buildRequest',
  async run(context) {
    try {
      await run('openssl', ['version']);
    } catch {
      return [2048, 4096].map((bits) => ({
        figure: `RSA-${bits} OAuth signing via \`buildRequest\``,
        project: 'not measured',
        reference: 'openssl is not installed',
        ratio: '',
        target: '<= 1.15x time',
      }));
    }
    const lines: BenchLine[] = [];
    for (const bits of [2048, 4096]) {
      const credentials = credentialsWithKey(bits);
      let serial = 0;
      const build = () =>
        buildRequest(
          'CARDREF_V4',
          { client_orderid: `bench-${++serial}`, orderid: '9011' },
          credentials,
        );
      // The same signature of a base string buildRequest made, by node:crypto alone.
      const key = createPrivateKey(credentials.privateKeyPem ?? '');
      const base = Buffer.from(
        `POST&https%3A%2F%2Fgate.example.com%2Fpaynet%2Fapi%2Fv4%2Fcreate-card-ref%2F1111&client_orderid%3Dbench-1%26oauth_consumer_key%3Dmerchantlogin%26oauth_nonce%3D${'0'.repeat(32)}%26oauth_signature_method%3DRSA-SHA256%26oauth_timestamp%3D1764265000%26oauth_version%3D1.0%26orderid%3D9011`,
        'utf8',
      );
      const signAlone = () => sign('sha256', base, key);
      build();
      signAlone();
      // Each sign alone right after a buildRequest, call by call, so both meet the same load: the
      // medians' difference is what the request adds.
      const signs: number[] = [];
      const adds: number[] = [];
      const alternately = () => {
        const builds: number[] = [];
        const alone: number[] = [];
        const start = now();
        while (now() - start < SIGN_MS && alone.length < 20_000) {
          const t0 = now();
          build();
          const t1 = now();
          signAlone();
          const t2 = now();
          builds.push(t1 - t0);
          alone.push(t2 - t1);
        }
        signs.push(median(alone));
        adds.push(median(builds) - median(alone));
      };
      const runs = await interleave(
        REPS,
        async () => {
          const perCall = (await timeLoop(build, PROJECT_MS, 20_000)).perCallMs;
          alternately();
          return perCall;
        },
        () => opensslSignMs(bits),
      );
      const a = median(runs.project);
      const b = median(runs.reference);
      const s = median(signs);
      const added = median(adds);
      context.log(
        `row 4: RSA-${bits} buildRequest ${ms(a)}, node:crypto sign alone ${ms(s)}, openssl ${ms(b)}`,
      );
      lines.push({
        figure: `RSA-${bits} OAuth signing via \`buildRequest\``,
        project: `${ms(a)} per request (${num(1000 / a)}/s)`,
        reference: `openssl speed rsa${bits}: ${ms(b)} per sign (${num(1000 / b)}/s)`,
        ratio: ratio(a, b),
        target: '<= 1.15x time',
        met: a / b <= 1.15,
        note: `${REPS} x (${PROJECT_MS / 1000} s of buildRequest, ${SIGN_MS / 1000} s of buildRequest and node:crypto's sign alone by turns, then \`openssl speed -elapsed -seconds ${OPENSSL_SECONDS} -multi 1 rsa${bits}\`), medians, both wall time; the request is CARDREF_V4 (OAuth RSA-SHA256)`,
      });
      lines.push({
        figure: `(extra) RSA-${bits}: node:crypto's sign alone`,
        project: `${ms(s)} per sign; buildRequest adds ${ms(added)} (${((added / s) * 100).toFixed(1)}%)`,
        reference: `openssl speed rsa${bits}: ${ms(b)} per sign`,
        ratio: ratio(s, b),
        target: '',
        note: `\`crypto.sign('sha256', base string, KeyObject)\` of a CARDREF_V4 base string, in the same repetitions as the line above: ${SIGN_MS / 1000} s of a buildRequest then a sign alone, each call timed; medians of the calls, then of the repetitions. What buildRequest adds is the difference of the two medians in each repetition`,
      });
    }
    return lines;
  },
};
