// An update feed on 127.0.0.1, laid out as electron-builder publishes one for a generic server:
// latest-linux.yml naming the version, the package's file, its size and its sha512, and the file
// beside it. `tamper` serves other bytes than the ones the yml's checksum was made of (what a
// compromised or broken mirror would serve). The updater side is electron-updater's own Linux
// (.deb) updater, given an app adapter for a temporary folder and a Node HTTP executor in place of
// Electron's `net`, the two parts it takes from Electron: its feed reading, version check,
// download and checksum check are electron-updater's, unchanged.

import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type RequestOptions, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import {
  configureRequestOptions,
  configureRequestUrl,
  HttpExecutor,
  type DownloadOptions,
} from 'builder-util-runtime';
import type { AppAdapter } from 'electron-updater/out/AppAdapter';
import { DebUpdater } from 'electron-updater';

export interface FeedServer {
  url: string;
  /** Requests served, by path: what the updater asked for. */
  served: string[];
  close(): Promise<void>;
}

export interface FeedRelease {
  version: string;
  /** The package's bytes as published; its sha512 goes into latest-linux.yml. */
  bytes: Buffer;
  /** Bytes served instead of `bytes` (their sha512 no longer matches the yml's). */
  tamper?: Buffer;
  /** This port (the screenshots show the feed's address); a free one otherwise. */
  port?: number;
}

export async function startFeed(release: FeedRelease): Promise<FeedServer> {
  const file = `paydesk_${release.version}_amd64.deb`;
  const sha512 = createHash('sha512').update(release.bytes).digest('base64');
  const yml = [
    `version: ${release.version}`,
    'files:',
    `  - url: ${file}`,
    `    sha512: ${sha512}`,
    `    size: ${release.bytes.length}`,
    `path: ${file}`,
    `sha512: ${sha512}`,
    `releaseDate: '2026-11-01T10:00:00.000Z'`,
    '',
  ].join('\n');
  const served: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    served.push(path);
    if (path === '/latest-linux.yml') {
      res.writeHead(200, { 'content-type': 'text/yaml' }).end(yml);
    } else if (path === `/${file}`) {
      const body = release.tamper ?? release.bytes;
      res
        .writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': body.length,
        })
        .end(body);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(release.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    served,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Electron's `net` replaced by node:http. download() is ElectronHttpExecutor's, line for line: the
 * request goes through builder-util-runtime's doDownload, which checks the sha512 as the bytes
 * arrive and refuses a mismatch, in Electron as here.
 */
class NodeHttpExecutor extends HttpExecutor<ReturnType<typeof httpRequest>> {
  download(url: URL, destination: string, options: DownloadOptions): Promise<string> {
    return options.cancellationToken.createPromise((resolve, reject, onCancel) => {
      const requestOptions: RequestOptions = { headers: options.headers ?? undefined };
      configureRequestUrl(url, requestOptions);
      configureRequestOptions(requestOptions);
      this.doDownload(
        requestOptions,
        {
          destination,
          options,
          onCancel,
          callback: (error) => (error ? reject(error) : resolve(destination)),
          responseHandler: null,
        },
        0,
      );
    });
  }

  createRequest(
    options: RequestOptions,
    callback: (response: unknown) => void,
  ): ReturnType<typeof httpRequest> {
    return httpRequest(options, callback);
  }
}

/** What the updater asked of the app: quitting is Electron's, recorded here. */
export interface TestApp extends AppAdapter {
  quits: number;
}

/**
 * electron-updater's Linux updater for an app of version `running`, its package feed (what
 * app-update.yml says in a packaged build) the local one, its cache and user data in `dir`.
 */
export function debUpdater(dir: string, running: string, feedUrl: string) {
  const appUpdateConfigPath = join(dir, 'app-update.yml');
  writeFileSync(
    appUpdateConfigPath,
    `provider: generic\nurl: ${feedUrl}\nupdaterCacheDirName: paydesk-updater\n`,
  );
  const app: TestApp = {
    version: running,
    name: 'Paydesk',
    isPackaged: true,
    appUpdateConfigPath,
    userDataPath: dir,
    baseCachePath: join(dir, 'cache'),
    quits: 0,
    whenReady: () => Promise.resolve(),
    relaunch: () => undefined,
    quit() {
      this.quits += 1;
    },
    onQuit: () => undefined,
  };
  const updater = new DebUpdater(null, app);
  (updater as unknown as { httpExecutor: HttpExecutor<never> }).httpExecutor =
    new NodeHttpExecutor() as unknown as HttpExecutor<never>;
  updater.logger = null;
  return { updater, app };
}
