import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/index.js';
import { listenOnLoopback, type StartedTarget } from '../../fixtures/target-fixture.js';
import { createReferenceHandler } from '../../reference/server.js';
import { reportExitCode } from '../../reports/outcome.js';
import { runConformance } from '../../index.js';
import type { PlannedRequest } from '../probe.js';
import type { RecordedResponse } from '../report.js';
import { createTargetClient } from './client.js';
import { honouringRetryAfter, RETRY_AFTER_ATTEMPTS, retryAfterMs } from './retry-after.js';

const TOKEN = 'retry-after-token-7c2a';
const contract = await loadContract();

const started: StartedTarget[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((target) => target.close()));
});

async function start(listener: (request: IncomingMessage, response: ServerResponse) => void): Promise<StartedTarget> {
  const target = await listenOnLoopback(createServer(listener), TOKEN);
  started.push(target);
  return target;
}

function answer(status: number, headers: Record<string, string> = {}): RecordedResponse {
  return { status, headers, body: null, durationMs: 1 };
}

describe('retryAfterMs', () => {
  it('reads delay-seconds and an HTTP date of a 429 or 503, and nothing else', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    expect(retryAfterMs(answer(429, { 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(answer(503, { 'retry-after': ' 0 ' }), now)).toBe(0);
    expect(retryAfterMs(answer(429, { 'retry-after': 'Sat, 28 Nov 2026 10:00:03 GMT' }), now)).toBe(3000);
    expect(retryAfterMs(answer(429, { 'retry-after': 'Sat, 28 Nov 2026 09:00:00 GMT' }), now)).toBe(0);
    expect(retryAfterMs(answer(429), now)).toBeUndefined();
    expect(retryAfterMs(answer(429, { 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(answer(429, { 'retry-after': '-1' }), now)).toBeUndefined();
    expect(retryAfterMs(answer(400, { 'retry-after': '1' }), now)).toBeUndefined();
    expect(retryAfterMs(answer(301, { 'retry-after': '1' }), now)).toBeUndefined();
  });
});

const plan = {
  method: 'POST',
  path: '/plants',
  auth: { kind: 'none' },
  contentType: 'application/json',
  body: '{}',
  intent: { kind: 'invalid-body' },
} as unknown as PlannedRequest;

/** A target answering `status` (429) with the given headers `throttled` times, then 400; it counts what it got. */
async function throttling(
  throttled: number,
  headers: Record<string, string>,
  status = 429,
): Promise<{ url: string; got(): number; times: number[] }> {
  let got = 0;
  const times: number[] = [];
  const target = await start((request, response) => {
    request.resume();
    got++;
    times.push(Date.now());
    if (got <= throttled) response.writeHead(status, headers).end();
    else response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":400,"message":"no"}');
  });
  return { url: target.url, got: () => got, times };
}

function clientOf(url: string, deadline = Date.now() + 60_000, unannouncedWaitMs = 5_000) {
  const client = createTargetClient({ baseUrl: url, token: '', concurrency: 2, timeoutMs: 5_000, maxBodyBytes: 4096 });
  return { client: honouringRetryAfter(client, { deadline, unannouncedWaitMs }), close: () => client.close() };
}

describe('honouringRetryAfter', () => {
  it('sends a sequence on one connection again, whole, only when every answer of it asked to wait', async () => {
    for (const [throttled, got, statuses] of [
      [2, 4, [400, 400]],
      [1, 2, [429, 400]],
    ] as const) {
      const target = await throttling(throttled, { 'retry-after': '0' });
      const { client, close } = clientOf(target.url);
      try {
        const exchanges = await client.sendOnOneConnection!([plan, plan]);
        expect(exchanges.map((exchange) => exchange.response.status)).toEqual(statuses);
        expect(target.got()).toBe(got);
      } finally {
        await close();
      }
    }
  });

  it("sends the request again after a 429 that says Retry-After, and returns the service's answer", async () => {
    const target = await throttling(2, { 'retry-after': '0' });
    const { client, close } = clientOf(target.url);
    try {
      expect((await client.send(plan)).response.status).toBe(400);
      expect(target.got()).toBe(3);
    } finally {
      await close();
    }
  });

  it(`stops after ${RETRY_AFTER_ATTEMPTS} more sends, and returns the last throttled answer`, async () => {
    const target = await throttling(100, { 'retry-after': '0' });
    const { client, close } = clientOf(target.url);
    try {
      expect((await client.send(plan)).response.status).toBe(429);
      expect(target.got()).toBe(1 + RETRY_AFTER_ATTEMPTS);
    } finally {
      await close();
    }
  });

  it('sends a 429 without Retry-After again after a wait that doubles, and returns the answer that follows', async () => {
    const target = await throttling(2, {});
    const { client, close } = clientOf(target.url, Date.now() + 60_000, 40);
    try {
      expect((await client.send(plan)).response.status).toBe(400);
      expect(target.got()).toBe(3);
      const [first = 0, second = 0, third = 0] = target.times;
      expect(second - first).toBeGreaterThanOrEqual(35);
      expect(third - second).toBeGreaterThanOrEqual(75);
    } finally {
      await close();
    }
  });

  it('returns a throttled answer as it came: a 503 without Retry-After, one too long, past the deadline', async () => {
    for (const [headers, deadline, status] of [
      [{}, Date.now() + 60_000, 503],
      [{ 'retry-after': '3600' }, Date.now() + 60_000, 429],
      [{ 'retry-after': '1' }, Date.now(), 429],
      [{}, Date.now(), 429],
    ] as const) {
      const target = await throttling(1, headers, status);
      const { client, close } = clientOf(target.url, deadline);
      try {
        expect((await client.send(plan)).response.status).toBe(status);
        expect(target.got()).toBe(1);
      } finally {
        await close();
      }
    }
  });
});

/**
 * The reference behind a gate that answers a request 429 (JSON, with the headers `throttle` gives) when `throttle`
 * gives any, and forwards it otherwise.
 */
async function behindGate(
  reference: StartedTarget,
  throttle: (request: IncomingMessage, body: Buffer) => Record<string, string> | undefined,
): Promise<StartedTarget> {
  return start((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers = throttle(request, body);
      if (headers !== undefined) {
        response.writeHead(429, { ...headers, 'content-type': 'application/json' }).end('{"message":"slow down"}');
        return;
      }
      const forwarded = httpRequest(`${reference.url}${request.url}`, {
        method: request.method,
        headers: request.headers,
      });
      forwarded.on('response', (upstream) => {
        response.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(response);
      });
      forwarded.on('error', () => response.writeHead(502).end());
      forwarded.end(body);
    });
  });
}

/**
 * The reference behind a rate limiter that answers each request 429 with `Retry-After: 0` the first time it sees
 * it (method, path, credential and body) and forwards it the next: a deterministic nginx `limit_req`.
 */
async function behindLimiter(reference: StartedTarget): Promise<StartedTarget> {
  const seen = new Set<string>();
  return behindGate(reference, (request, body) => {
    const key = `${request.method} ${request.url} ${request.headers.authorization} ${body.toString('base64')}`;
    if (seen.delete(key)) return undefined;
    seen.add(key);
    return { 'retry-after': '0' };
  });
}

describe('runConformance against the reference behind a rate limiter that asks for each request again', () => {
  it('judges the service: conformant, with the plants an earlier run stored excused as such', async () => {
    const reference = await start(createReferenceHandler(contract, { tokens: [TOKEN] }));
    // An earlier pipeline run stored its fixed ids (2^63-1, 0, ...) and its canary.
    await runConformance({ baseUrl: reference.url, token: TOKEN, seed: 3, runs: 20, concurrency: 4 });
    const limited = await behindLimiter(reference);
    const report = await runConformance({ baseUrl: limited.url, token: TOKEN, seed: 3, runs: 20, concurrency: 4 });
    expect(report.findings ?? []).toEqual([]);
    expect(report.checks.filter((check) => check.status === 'skip').map((check) => check.id)).toEqual([]);
    expect(report.noteDetails?.map((note) => note.code)).not.toContain('throttled');
    expect(reportExitCode(report)).toBe(0);
  }, 60_000);
});

/** The reference behind a quota: every third request answered 429 asking for an hour (so the run does not wait). */
async function behindQuota(reference: StartedTarget): Promise<StartedTarget> {
  let count = 0;
  return behindGate(reference, () => (++count % 3 === 0 ? { 'retry-after': '3600' } : undefined));
}

describe('runConformance against a target that leaves many answers throttled', () => {
  it('has no verdict (exit 2) when more than a tenth of the answers stay 429: a broken server would pass', async () => {
    const reference = await start(createReferenceHandler(contract, { tokens: [TOKEN] }));
    const limited = await behindQuota(reference);
    const report = await runConformance({ baseUrl: limited.url, token: TOKEN, seed: 5, runs: 20, concurrency: 4 });
    expect(report.findings ?? []).toEqual([]);
    expect(report.summary.throttled).toBeGreaterThan(report.summary.cases / 10);
    expect(report.verdict).toBe('incomplete');
    expect(reportExitCode(report)).toBe(2);
    expect(report.noteDetails?.find((note) => note.code === 'throttled')?.message).toContain('no verdict rests');
  }, 60_000);
});
