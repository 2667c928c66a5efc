// Sending a prepared request over and over: one at a time with node:http (row 5's reference),
// or as load on many kept-alive connections (row 1). Bounded by time and by count.

import http from 'node:http';
import net from 'node:net';

export interface Shot {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  perSecond: number;
}

/**
 * One request on `agent`; resolves with the HTTP status once the body has been read. The body
 * goes to node:http as text, as the client's transport gives it: headers and body then leave
 * in one write (a Buffer body leaves as a second chunk, a slower reference).
 */
export function send(shot: Shot, agent: http.Agent): Promise<number> {
  const length = Buffer.byteLength(shot.body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = http.request(
      shot.url,
      {
        method: 'POST',
        agent,
        headers: { ...shot.headers, 'Content-Length': String(length) },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(shot.body, 'utf8');
  });
}

/**
 * The load of row 1: `connections` kept-alive sockets, each sending the same prebuilt request
 * and the next one as soon as the whole answer is in. Raw node:net, not node:http's client:
 * on this machine node:http's client tops out near a third of what the bare server answers, so
 * it measured itself instead of the server. Answers must carry Content-Length (both servers'
 * do); anything else counts as an error and ends that connection.
 */
export async function runLoad(
  shot: Shot,
  options: { connections: number; durationMs: number; maxRequests: number },
): Promise<LoadResult> {
  const url = new URL(shot.url);
  const body = Buffer.from(shot.body, 'utf8');
  const head = [
    `POST ${url.pathname}${url.search} HTTP/1.1`,
    `Host: ${url.host}`,
    ...Object.entries(shot.headers).map(([name, value]) => `${name}: ${value}`),
    `Content-Length: ${body.length}`,
    'Connection: keep-alive',
  ].join('\r\n');
  const request = Buffer.concat([Buffer.from(`${head}\r\n\r\n`, 'latin1'), body]);
  let requests = 0;
  let errors = 0;
  const start = performance.now();
  const end = start + options.durationMs;
  const more = () => performance.now() < end && requests + errors < options.maxRequests;

  const connection = () =>
    new Promise<void>((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname);
      let buffered: Buffer = Buffer.alloc(0);
      const finish = () => {
        socket.destroy();
        resolve();
      };
      socket.setNoDelay(true);
      socket.on('connect', () => socket.write(request));
      socket.on('error', () => {
        errors++;
        finish();
      });
      socket.on('close', finish);
      socket.on('data', (chunk: Buffer) => {
        buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
        for (;;) {
          const headEnd = buffered.indexOf('\r\n\r\n');
          if (headEnd < 0) return;
          const headText = buffered.subarray(0, headEnd).toString('latin1');
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(headText)?.[1];
          if (length === undefined) {
            errors++;
            finish();
            return;
          }
          const total = headEnd + 4 + Number(length);
          if (buffered.length < total) return;
          buffered = buffered.subarray(total);
          if (headText.startsWith('HTTP/1.1 200')) requests++;
          else errors++;
          if (!more()) {
            finish();
            return;
          }
          socket.write(request);
        }
      });
    });
  await Promise.all(Array.from({ length: options.connections }, connection));
  const seconds = (performance.now() - start) / 1000;
  return { requests, errors, seconds, perSecond: requests / seconds };
}
