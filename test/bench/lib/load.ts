// A keep-alive load generator on node:http: `connections` loops, each sending the same request
// on its own kept-alive socket and reading the whole answer before the next. Bounded by time
// and by count.

import http from 'node:http';

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

/** One request on `agent`; resolves with the HTTP status once the body has been read. */
export function send(shot: Shot, agent: http.Agent): Promise<number> {
  const body = Buffer.from(shot.body, 'utf8');
  return new Promise((resolve, reject) => {
    const req = http.request(
      shot.url,
      {
        method: 'POST',
        agent,
        headers: { ...shot.headers, 'Content-Length': String(body.length) },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export async function runLoad(
  shot: Shot,
  options: { connections: number; durationMs: number; maxRequests: number },
): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  let requests = 0;
  let errors = 0;
  const start = performance.now();
  const end = start + options.durationMs;
  const loop = async () => {
    while (performance.now() < end && requests + errors < options.maxRequests) {
      try {
        const status = await send(shot, agent);
        if (status === 200) requests++;
        else errors++;
      } catch {
        errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  const seconds = (performance.now() - start) / 1000;
  agent.destroy();
  return { requests, errors, seconds, perSecond: requests / seconds };
}
