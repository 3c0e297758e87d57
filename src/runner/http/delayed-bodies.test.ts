import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import { listenOnLoopback } from '../../fixtures/target-fixture.js';
import type { PlannedRequest } from '../probe.js';
import { createTargetClient } from './client.js';
import { DelayedBodies } from './delayed-bodies.js';

describe('DelayedBodies', () => {
  it('asks for a connection per request after three small bodies came long after a head that came at once', () => {
    const watch = new DelayedBodies();
    watch.observe(1, 41, 60);
    watch.observe(2, 40, 60);
    expect(watch.connectionPerRequest).toBe(false);
    watch.observe(1, 42, 60);
    expect(watch.connectionPerRequest).toBe(true);
  });

  it('takes no sign from a slow head (a distant target), a large body, or a body that came soon', () => {
    const watch = new DelayedBodies();
    for (let index = 0; index < 10; index++) {
      watch.observe(20, 41, 60);
      watch.observe(1, 41, 64 * 1024);
      watch.observe(1, 5, 60);
    }
    expect(watch.connectionPerRequest).toBe(false);
  });
});

describe('a target client in front of a server that holds each body back after its head', () => {
  it('sends later requests on a connection of their own, and every answer stays whole', async () => {
    const connectionHeaders: (string | undefined)[] = [];
    const server = createServer((request, response) => {
      connectionHeaders.push(request.headers.connection);
      request.resume();
      response.writeHead(400, { 'content-type': 'application/json', 'content-length': '28' });
      response.flushHeaders();
      setTimeout(() => response.end('{"error":400,"message":"no"}'), 150);
    });
    const target = await listenOnLoopback(server, 'delayed-token');
    const client = createTargetClient({
      baseUrl: target.url,
      token: '',
      concurrency: 2,
      timeoutMs: 5_000,
      maxBodyBytes: 4096,
    });
    const plan = {
      method: 'POST',
      path: '/plants',
      auth: { kind: 'none' },
      contentType: 'application/json',
      body: '{}',
      intent: { kind: 'invalid-body' },
    } as unknown as PlannedRequest;
    try {
      const bodies: (string | null)[] = [];
      for (let index = 0; index < 8; index++) bodies.push((await client.send(plan)).response.body);
      expect(bodies).toEqual(Array.from({ length: 8 }, () => '{"error":400,"message":"no"}'));
      // Three signs first (a head that a loaded machine made slow is no sign, and puts the switch off), then one each.
      const switched = connectionHeaders.indexOf('close');
      expect(switched).toBeGreaterThanOrEqual(3);
      expect(connectionHeaders.slice(0, switched).every((value) => value === 'keep-alive')).toBe(true);
      expect(connectionHeaders.slice(switched).every((value) => value === 'close')).toBe(true);
      expect(client.delaysBodies?.()).toBe(true);
    } finally {
      await client.close();
      await target.close();
    }
  });
});
