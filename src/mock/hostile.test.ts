import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOSTILE_REQUESTS, sendRaw } from '../fixtures/hostile-requests.js';
import { createMockServer, type MockServer } from './mock-server.js';

const TOKEN = 'hostile-test-token';
let server: MockServer;

beforeAll(async () => {
  server = await createMockServer({ tokens: [TOKEN], headersTimeoutMs: 1000, requestTimeoutMs: 1500 });
});
afterAll(() => server.close());

async function healthy(): Promise<void> {
  const res = await fetch(`${server.url}/plants`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id: Math.floor(Math.random() * 2 ** 50), name: 'still here' }),
  });
  expect(res.status).toBe(200);
  expect(await res.text()).toBe('{"name":"still here"}');
}

describe('the mock under hostile requests', () => {
  for (const hostile of HOSTILE_REQUESTS) {
    it(`survives ${hostile.name}`, async () => {
      const before = process.memoryUsage().rss;
      const answer = await sendRaw(server.port, hostile.steps(TOKEN));
      if (answer.status === 0) {
        expect(hostile.expect.closed, 'closed without an answer').toBe(true);
      } else {
        expect(hostile.expect.statuses).toContain(answer.status);
        if (answer.status >= 400)
          expect(JSON.parse(answer.body)).toMatchObject({
            error: expect.any(Number) as unknown,
            message: expect.any(String) as unknown,
          });
      }
      expect(process.memoryUsage().rss - before).toBeLessThan(64 * 1024 * 1024);
      await healthy();
    });
  }

  it('lets no __proto__ key pollute Object.prototype', async () => {
    const hostile = HOSTILE_REQUESTS.find((h) => h.name.includes('__proto__'));
    await sendRaw(server.port, hostile?.steps(TOKEN) ?? []);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});
