// The app:// protocol that serves the built renderer. A custom scheme instead of file:// gives
// the UI a real origin of its own (so the bridge can check who is calling, and 'self' in the CSP
// means exactly our files), and every response carries the CSP as a header.

import { readFile } from 'node:fs/promises';
import path from 'node:path';

// Electron's `protocol` is passed in, so this file loads in plain Node (the browser test harness
// serves the renderer with the very same handler).
import type { Protocol } from 'electron';

export const APP_SCHEME = 'app';
export const APP_HOST = 'paydesk';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * The renderer fetches nothing (all HTTP happens in main) and runs only our own bundled scripts,
 * so everything is 'self' or 'none'. No 'unsafe-inline' and no 'unsafe-eval'.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'none'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/**
 * The policy for renderer/index.html's meta tag: the same, less `frame-ancestors`, which browsers
 * ignore (with a console warning) when it arrives in a meta tag instead of a header.
 */
export function metaContentSecurityPolicy(): string {
  return CONTENT_SECURITY_POLICY.split('; ')
    .filter((directive) => !directive.startsWith('frame-ancestors'))
    .join('; ');
}

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
};

// Module scripts are refused without a JavaScript MIME type, so the type must be right.
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Maps an app:// URL to a file under `rootDir`, or null when it must be refused: another scheme
 * or host, an undecodable path, a NUL or backslash, or anything that would land outside the root
 * once percent-decoded (`%2e%2e%2f` is only `../` after decoding, so the check runs after it).
 */
export function resolveAppPath(rootDir: string, requestUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host.toLowerCase() !== APP_HOST) return null;
  if (url.username !== '' || url.password !== '') return null;

  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return null;
  if (pathname === '' || pathname === '/') pathname = '/index.html';

  const root = path.resolve(rootDir);
  const resolved = path.resolve(root, `.${pathname}`);
  const relative = path.relative(root, resolved);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return null;
  return resolved;
}

export function contentTypeFor(filePath: string): string {
  return CONTENT_TYPES[path.extname(filePath).toLowerCase()] ?? 'application/octet-stream';
}

function plainResponse(status: number, text: string): Response {
  return new Response(text, {
    status,
    headers: { ...SECURITY_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' },
  });
}

/**
 * The protocol handler itself, free of Electron so it can be tested with plain Requests. Reads
 * with node:fs, which Electron patches to read inside app.asar in a packaged build.
 */
export function createAppRequestHandler(rootDir: string): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return plainResponse(405, 'Method not allowed');
    }
    const filePath = resolveAppPath(rootDir, request.url);
    if (filePath === null) return plainResponse(403, 'Forbidden');

    let body: Buffer;
    try {
      body = await readFile(filePath);
    } catch {
      // Missing file or a directory: the same answer, without saying which.
      return plainResponse(404, 'Not found');
    }
    return new Response(request.method === 'HEAD' ? null : new Uint8Array(body), {
      status: 200,
      headers: { ...SECURITY_HEADERS, 'Content-Type': contentTypeFor(filePath) },
    });
  };
}

/**
 * Must run before the app is ready. `standard` gives app:// real origins and relative URLs;
 * `secure` makes it a secure context like https; `corsEnabled` lets Chromium load the bundle's
 * `<script type="module" crossorigin>` from it. No fetch API, no service workers, no CSP bypass.
 */
export function registerAppSchemeAsPrivileged(
  protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>,
): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, corsEnabled: true, codeCache: true },
    },
  ]);
}

/** Call once the app is ready: serves `rootDir` (out/renderer) at app://paydesk/. */
export function registerAppProtocol(protocol: Pick<Protocol, 'handle'>, rootDir: string): void {
  protocol.handle(APP_SCHEME, createAppRequestHandler(rootDir));
}
