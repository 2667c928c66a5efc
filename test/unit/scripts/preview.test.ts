// `npm run preview` on a machine without a display refuses, and says what to do instead: a
// display forwarded over SSH, the screenshots, or a virtual display (xvfb-run).

import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');

it.runIf(process.platform === 'linux')(
  'refuses without a display, naming what works instead',
  () => {
    const env: Record<string, string | undefined> = { ...process.env };
    delete env.DISPLAY;
    delete env.WAYLAND_DISPLAY;
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/preview.ts'], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('this session has no display');
    expect(run.stderr).toContain('ssh -X');
    expect(run.stderr).toContain('npm run screenshots');
    expect(run.stderr).toContain('xvfb-run -a npm run preview');
  },
);
