import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

import { protocol } from './fake-electron';
import {
  CONTENT_SECURITY_POLICY,
  createAppRequestHandler,
  metaContentSecurityPolicy,
  registerAppProtocol,
  registerAppSchemeAsPrivileged,
  resolveAppPath,
} from '../../../main/protocol';

vi.mock('electron', () => import('./fake-electron'));

const REPO = path.resolve(import.meta.dirname, '../../..');

// A renderer folder with neighbours that must stay out of reach: a secret one level up, and a
// sibling whose name starts like the root's (a naive startsWith check lets it through).
let base: string;
let root: string;
beforeAll(() => {
  base = mkdtempSync(path.join(os.tmpdir(), 'paydesk-protocol-'));
  root = path.join(base, 'renderer');
  mkdirSync(path.join(root, 'assets'), { recursive: true });
  mkdirSync(path.join(base, 'renderer-secret'));
  writeFileSync(path.join(root, 'index.html'), '<!doctype html><title>Paydesk</title>');
  writeFileSync(path.join(root, 'assets', 'index-abc.js'), 'console.log(1);');
  writeFileSync(path.join(root, 'assets', 'index-abc.css'), 'body{}');
  writeFileSync(path.join(base, 'secret.txt'), 'TOP SECRET');
  writeFileSync(path.join(base, 'renderer-secret', 'key.pem'), 'PRIVATE KEY');
});
afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});
beforeEach(() => {
  vi.clearAllMocks();
});

const TRAVERSALS = [
  'app://paydesk/..%2fsecret.txt',
  'app://paydesk/assets/..%2f..%2fsecret.txt',
  'app://paydesk/%2e%2e%2fsecret.txt',
  'app://paydesk/..%2frenderer-secret%2fkey.pem',
  'app://paydesk/..%5csecret.txt',
  'app://paydesk/assets%5c..%5c..%5csecret.txt',
  'app://paydesk/index.html%00.js',
  'app://paydesk/%E0%A4%A',
];

describe('resolveAppPath', () => {
  it.each([
    ['app://paydesk/', 'index.html'],
    ['app://paydesk', 'index.html'],
    ['app://paydesk/index.html', 'index.html'],
    ['app://paydesk/assets/index-abc.js', 'assets/index-abc.js'],
    ['app://paydesk/assets/index-abc.js?v=1#x', 'assets/index-abc.js'],
    ['app://paydesk/assets/a%20b.js', 'assets/a b.js'],
    // The URL parser already folds these dots, so they stay inside the root.
    ['app://paydesk/../../etc/passwd', 'etc/passwd'],
    ['app://paydesk/%2e%2e/%2e%2e/secret.txt', 'secret.txt'],
  ])('maps %s to <root>/%s', (url, file) => {
    expect(resolveAppPath(root, url)).toBe(path.join(root, file));
  });

  it.each(TRAVERSALS)('refuses %s', (url) => {
    expect(resolveAppPath(root, url)).toBeNull();
  });

  it.each([
    'https://paydesk/index.html',
    'file:///index.html',
    'app://elsewhere/index.html',
    'app://user:pass@paydesk/index.html',
    'not a url',
  ])('refuses %s, which is not the app origin', (url) => {
    expect(resolveAppPath(root, url)).toBeNull();
  });
});

describe('the app protocol handler', () => {
  const get = (url: string, init?: RequestInit) =>
    createAppRequestHandler(root)(new Request(url, init));

  it('serves the UI with the CSP and nosniff headers', async () => {
    const response = await get('app://paydesk/');
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>Paydesk</title>');
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves scripts and styles with the types module scripts need', async () => {
    const script = await get('app://paydesk/assets/index-abc.js');
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(script.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    const style = await get('app://paydesk/assets/index-abc.css');
    expect(style.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it.each(TRAVERSALS)('answers 403 to %s and reveals nothing', async (url) => {
    const response = await get(url);
    expect(response.status).toBe(403);
    const body = await response.text();
    expect(body).not.toContain('SECRET');
    expect(body).not.toContain('PRIVATE');
  });

  it('answers 404, with the CSP, for a missing file or a folder', async () => {
    for (const url of ['app://paydesk/missing.js', 'app://paydesk/assets']) {
      const response = await get(url);
      expect(response.status).toBe(404);
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    }
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get('app://paydesk/index.html', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const post = await get('app://paydesk/index.html', { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
  });
});

describe('the content security policy', () => {
  it('is the policy design.md asks for', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
        "connect-src 'none'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; " +
        "form-action 'none'",
    );
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-(inline|eval)/);
  });

  it('is repeated in renderer/index.html, less what a meta tag cannot carry', () => {
    const html = readFileSync(path.join(REPO, 'renderer', 'index.html'), 'utf8');
    const meta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html);
    expect(meta?.[1]).toBe(metaContentSecurityPolicy());
    expect(metaContentSecurityPolicy()).not.toContain('frame-ancestors');
    expect(metaContentSecurityPolicy()).toContain("script-src 'self'");
  });

  it('leaves renderer/index.html without inline script or style', () => {
    const html = readFileSync(path.join(REPO, 'renderer', 'index.html'), 'utf8');
    const scripts = html.match(/<script\b[^>]*>/gi) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toMatch(/\ssrc=/);
    expect(html).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=/i);
  });
});

describe('registering the scheme with Electron', () => {
  it('makes app:// standard and secure, without bypassing the CSP', () => {
    registerAppSchemeAsPrivileged(protocol);
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledOnce();
    const [schemes] = protocol.registerSchemesAsPrivileged.mock.calls[0] as [
      { scheme: string; privileges: Record<string, boolean> }[],
    ];
    expect(schemes).toHaveLength(1);
    expect(schemes[0]?.scheme).toBe('app');
    expect(schemes[0]?.privileges).toMatchObject({ standard: true, secure: true });
    expect(schemes[0]?.privileges.bypassCSP ?? false).toBe(false);
    expect(schemes[0]?.privileges.allowServiceWorkers ?? false).toBe(false);
  });

  it('serves the given folder through protocol.handle', async () => {
    registerAppProtocol(protocol, root);
    expect(protocol.handle).toHaveBeenCalledWith('app', expect.any(Function));
    const handler = protocol.handle.mock.calls[0]?.[1] as (request: Request) => Promise<Response>;
    const response = await handler(new Request('app://paydesk/assets/index-abc.js'));
    expect(await response.text()).toBe('console.log(1);');
  });
});
