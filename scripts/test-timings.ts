// `npm run test:timings`: where the suite's minutes go. Reads Vitest's JSON report
// (test-results/vitest.json, out of git) and prints the slowest files, each folder's share and
// the sum of the files' own durations; the report is for looking at, never asserted on.

import { readFileSync } from 'node:fs';

interface FileResult {
  name: string;
  startTime: number;
  endTime: number;
  assertionResults: unknown[];
}

const file = process.argv[2] ?? 'test-results/vitest.json';
const report = JSON.parse(readFileSync(file, 'utf8')) as {
  testResults: FileResult[];
  startTime: number;
};
const files = report.testResults
  .map((r) => ({
    // From the tests' folder on, wherever the report was made.
    name: r.name.includes('/test/') ? r.name.slice(r.name.lastIndexOf('/test/') + 1) : r.name,
    seconds: (r.endTime - r.startTime) / 1000,
    tests: r.assertionResults.length,
  }))
  .sort((a, b) => b.seconds - a.seconds);

const total = files.reduce((sum, f) => sum + f.seconds, 0);
const byFolder = new Map<string, number>();
for (const f of files) {
  const folder = f.name.split('/').slice(0, 2).join('/');
  byFolder.set(folder, (byFolder.get(folder) ?? 0) + f.seconds);
}

const line = (seconds: number, text: string) =>
  console.log(`${seconds.toFixed(1).padStart(7)} s  ${text}`);
console.log(`${files.length} files; their own durations add up to ${total.toFixed(0)} s`);
console.log('\nSlowest files:');
for (const f of files.slice(0, 15)) line(f.seconds, `${f.name} (${f.tests} tests)`);
console.log('\nBy folder:');
for (const [folder, seconds] of [...byFolder].sort((a, b) => b[1] - a[1])) line(seconds, folder);
