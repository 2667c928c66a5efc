// Stops `npm install` (preinstall) and `npm start` (prestart) on a Node that Paydesk does not
// support, with one sentence: which Node runs, which ones work, and the command that gets one.
// npm itself only warns (EBADENGINE), among a dozen other warnings nobody reads.
//
// It must run on any old Node a machine may have (18, 20): CommonJS, no dependencies, nothing
// newer than Node 12's syntax. The supported range is read from package.json's `engines.node`
// (only `^x.y.z` and `>=x.y.z` alternatives joined by `||`), so it cannot drift from what npm and
// .ci/run (which calls this script with --quiet) read. Exit status: 0 supported, 1 not.

'use strict';

// require(), not import: this runs as a plain CommonJS script on whatever Node is there.
/* eslint-disable @typescript-eslint/no-require-imports */
const fs = require('fs');
const path = require('path');

/** [major, minor, patch] of a version text like "v20.19.2" or "24.15". */
function parseVersion(text) {
  const parts = String(text).replace(/^v/, '').split('.').map(Number);
  return [parts[0] || 0, parts[1] || 0, parts[2] || 0];
}

function atLeast(have, want) {
  for (let i = 0; i < 3; i++) if (have[i] !== want[i]) return have[i] > want[i];
  return true;
}

/** Whether `version` satisfies `range` (`^x.y.z || >=x.y.z`, as package.json's engines say). */
function satisfies(version, range) {
  const have = parseVersion(version);
  return range.split('||').some(function (alternative) {
    const m = /^(\^|>=)\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(alternative.trim());
    if (!m) throw new Error('engines.node in package.json: cannot read "' + alternative + '"');
    const want = [Number(m[2]), Number(m[3] || 0), Number(m[4] || 0)];
    return atLeast(have, want) && (m[1] === '>=' || have[0] === want[0]);
  });
}

/** The command that installs Node 24 on this platform, for the sentence. */
function installCommand(platform) {
  if (platform === 'darwin') return 'brew install node@24 && brew link --overwrite node@24';
  if (platform === 'win32') return 'winget install OpenJS.NodeJS.LTS';
  return (
    'curl -fsSL https://deb.nodesource.com/setup_24.x | sudo bash - && sudo apt-get install -y nodejs' +
    ' (Debian/Ubuntu; or, with nvm: nvm install 24)'
  );
}

/** The sentence a person reads when their Node is not supported. */
function refusal(options) {
  return (
    'Paydesk does not run on Node ' +
    options.version +
    ' (' +
    options.execPath +
    '): it needs Node ' +
    options.range +
    ' (24 is the one we develop and test on). Get Node 24 with: ' +
    installCommand(options.platform) +
    '. Then open a new terminal, check `node --version`, and run this command again.'
  );
}

function main() {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  const range = pkg.engines.node;
  if (satisfies(process.version, range)) return 0;
  if (process.argv.indexOf('--quiet') < 0) {
    console.error(
      refusal({
        version: process.version,
        execPath: process.execPath,
        range: range,
        platform: process.platform,
      }),
    );
  }
  return 1;
}

module.exports = { satisfies: satisfies, refusal: refusal, installCommand: installCommand };

if (require.main === module) process.exitCode = main();
