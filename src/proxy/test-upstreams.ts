import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, type StartedTarget } from '../fixtures/target-fixture.js';

/** One request as an upstream received it: raw headers and body bytes. */
export interface Received {
  readonly method: string;
  readonly url: string;
  readonly rawHeaders: readonly string[];
  readonly body: Buffer;
}

/** A test upstream that keeps every request it receives, byte for byte. */
export interface RecordingUpstream extends StartedTarget {
  readonly received: Received[];
  /** TCP connections accepted so far. */
  connections(): number;
}

/**
 * Starts an upstream on 127.0.0.1 that records each request and answers it with `answer` (by
 * default a 200 Plant naming the request's body length).
 */
export async function recordingUpstream(
  answer: (req: Received, res: ServerResponse) => void = (req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"name":"${req.body.length} bytes"}`);
  },
): Promise<RecordingUpstream> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        rawHeaders: req.rawHeaders,
        body: Buffer.concat(chunks),
      };
      received.push(entry);
      answer(entry, res);
    });
  });
  let connections = 0;
  server.on('connection', () => connections++);
  const started = await listenOnLoopback(server, 'unused');
  return { ...started, received, connections: () => connections };
}

/** The value of a raw header, by name in any letter case. */
export function rawHeader(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]?.toLowerCase() === name) return raw[i + 1];
  return undefined;
}
