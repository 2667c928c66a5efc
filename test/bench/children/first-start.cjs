// Row 9: the app's first start in a fresh process, from the main bundle the app ships
// (out/main/headless.cjs: the same chunks as out/main/index.cjs, without Electron), in plain
// node: PaydeskServices.start on an empty data folder with the in-memory secret store (the
// Sandbox profile, the embedded sandbox listening, its state and demo orders made at its first
// use; the profile's RSA key is made after start returns, and close waits for it). Says ready once start() has resolved, then closes. Also reports where the time went: performance.now()
// counts from the process's start.
//
//   node first-start.cjs <compile cache folder> [--contract]
//
// --contract: then loads the bridge's contract and says how long it took, and how long after
// ready the Sandbox profile had its key (a profile list waits for it), before saying ready.

/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS, as Electron loads the main bundle */

const { existsSync, mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const entered = performance.now();
const { loadBridgeContract, loadServices } = require('../../../out/main/headless.cjs');

async function main() {
  const { PaydeskServices, MemorySecretStore } = await loadServices({
    compileCacheDir: process.argv[2],
  });
  const imported = performance.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'paydesk-bench-start-'));
  // When each step of start began (the window says them): where start's time goes.
  const steps = [];
  const services = await PaydeskServices.start({
    dataDir,
    secrets: new MemorySecretStore(),
    operator: 'bench',
    onStep: (step) => steps.push({ step, at: performance.now() }),
  });
  const ready = performance.now();
  // Whether the built-in sandbox's state (its database, made with its demo seed) was made on
  // the way to ready: it should not be.
  const sandboxStateAtReady = existsSync(join(dataDir, 'sandbox.sqlite'));
  const stepMs = {};
  steps.forEach(({ step, at }, i) => {
    stepMs[step] = (steps[i + 1]?.at ?? ready) - at;
  });
  const cpu = process.cpuUsage();
  // Only in untimed runs: it would delay the ready line.
  let contractMs;
  let keyMs;
  let lookupMs;
  if (process.argv[3] === '--contract') {
    // The sandbox's state (database, migrations, demo seed) is made at its first use: the first
    // lookup pays for it (unless the key's attaching came first), the second does not.
    const lookup = async () => {
      const at = performance.now();
      const profileId = services.report.sandbox.profileId;
      await services.orders.lookup(profileId, { orderid: '1' }).catch(() => undefined);
      return performance.now() - at;
    };
    lookupMs = [await lookup(), await lookup()];
    const contractAt = performance.now();
    await loadBridgeContract();
    contractMs = performance.now() - contractAt;
    const [profile] = await services.profiles.list();
    if (!profile?.hasPrivateKey) throw new Error('the Sandbox profile has no key');
    keyMs = performance.now() - ready;
  }
  console.log(
    JSON.stringify({
      ready: services.report.sandbox.running,
      enteredMs: entered,
      importMs: imported - entered,
      startMs: ready - imported,
      cpuMs: (cpu.user + cpu.system) / 1000,
      contractMs,
      keyMs,
      lookupMs,
      stepMs,
      sandboxStateAtReady,
    }),
  );
  await services.close();
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
