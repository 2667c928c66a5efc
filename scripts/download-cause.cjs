// Loaded into Electron's installer (`node --require download-cause.cjs install.js`) by
// scripts/electron-binary.mjs. @electron/get downloads with the global fetch, whose failure is a
// bare "TypeError: fetch failed": the reason (ENOTFOUND and the host, ECONNREFUSED, a time-out)
// is only in error.cause, which the installer does not print. This wraps fetch so the error's
// first line carries the cause, and writes it to PAYDESK_DOWNLOAD_CAUSE_FILE for `npm start`'s
// own explanation.

'use strict';

/* eslint-disable @typescript-eslint/no-require-imports */
const fs = require('fs');

/** The innermost useful error: fetch's cause, or the first of an AggregateError's attempts. */
function rootCause(error) {
  let cause = error && error.cause ? error.cause : error;
  if (cause && Array.isArray(cause.errors) && cause.errors.length > 0) cause = cause.errors[0];
  return cause;
}

/** "ENOTFOUND github.com", "ECONNREFUSED 127.0.0.1:9", "UND_ERR_CONNECT_TIMEOUT host (time-out)". */
function describeCause(error, url) {
  const cause = rootCause(error);
  let host;
  try {
    host = new URL(String(url)).host;
  } catch {
    host = '';
  }
  const code = (cause && cause.code) || (cause && cause.name) || 'unknown error';
  const where =
    (cause && cause.hostname) ||
    (cause && cause.address ? cause.address + (cause.port ? ':' + cause.port : '') : '') ||
    host;
  const timedOut =
    /TIMEOUT|ETIMEDOUT/i.test(String(code)) || (cause && cause.name === 'TimeoutError');
  return code + (where ? ' ' + where : '') + (timedOut ? ' (time-out)' : '');
}

module.exports = { describeCause: describeCause };

if (typeof globalThis.fetch === 'function') {
  const realFetch = globalThis.fetch;
  globalThis.fetch = function fetchWithCause(input, init) {
    return realFetch(input, init).catch(function (error) {
      const url = input && input.url ? input.url : input;
      const cause = describeCause(error, url);
      if (error && error.cause) {
        try {
          error.stack = error.name + ': ' + error.message + ': ' + cause;
        } catch {
          // A frozen error keeps its own stack; the file below still says why.
        }
      }
      if (process.env.PAYDESK_DOWNLOAD_CAUSE_FILE) {
        try {
          fs.writeFileSync(process.env.PAYDESK_DOWNLOAD_CAUSE_FILE, cause);
        } catch {
          // The explanation then lacks the cause; the installer's own line still has it.
        }
      }
      throw error;
    });
  };
}
