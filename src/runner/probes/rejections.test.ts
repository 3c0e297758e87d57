import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../contract/index.js';
import { startHeaderCachingServer } from '../../fixtures/header-cache-target.js';
import { sendSequence } from '../execute.js';
import { AUTH_PROBE_KINDS } from '../generate/auth-probe.js';
import { createFreshIds } from '../generate/fresh-ids.js';
import { createTargetClient } from '../http/client.js';
import { authProbes, wrongMediaTypes } from './rejections.js';

const contract = await loadContract();
const TOKEN = 'Header-Cache-Token';
const CASE_FLIPPED = AUTH_PROBE_KINDS.length - 1;

function plansOf(kind: number) {
  const [value] = fc.sample(authProbes.arbitrary(contract, kind), { numRuns: 1, seed: 5 });
  if (value === undefined) throw new Error('a sample');
  return authProbes.plan(value, { contract, fresh: createFreshIds(), salt: 'auth' });
}

/** The status of the case-flipped token's request, sent as its case plans it. */
async function flippedTokenStatus(cachesHeaders: boolean): Promise<number> {
  const server = await startHeaderCachingServer(TOKEN, cachesHeaders);
  const client = createTargetClient({
    baseUrl: server.url,
    token: TOKEN,
    concurrency: 4,
    timeoutMs: 3_000,
    maxBodyBytes: 4096,
  });
  try {
    const exchanges = await sendSequence(client, plansOf(CASE_FLIPPED));
    const flipped = exchanges.find((exchange) => exchange.plan.intent.kind === 'auth');
    return flipped?.response.status ?? 0;
  } finally {
    await client.close();
    await server.close();
  }
}

describe('auth cases', () => {
  it('send the right token in the other letter case on one keep-alive connection, right after the right token', () => {
    const plans = plansOf(CASE_FLIPPED);
    expect(plans.map((plan) => plan.intent.kind)).toEqual(['valid', 'auth']);
    expect(plans.every((plan) => plan.sameConnection === true)).toBe(true);
    expect(plans[1]?.intent).toMatchObject({ what: 'the right token with every letter in the other case' });
  });

  it('send every other bad credential alone', () => {
    for (let kind = 0; kind < CASE_FLIPPED; kind++)
      expect(plansOf(kind).map((plan) => plan.intent.kind)).toEqual(['auth']);
  });

  it("meet a parser that reads a header from its connection's cache ignoring case (Jetty 9.4's default)", async () => {
    expect(await flippedTokenStatus(true)).toBe(200);
    expect(await flippedTokenStatus(false)).toBe(401);
  });
});

describe('wrong media types', () => {
  it('send a NewPlant as a browser form writes it under the form types too, so a server binding by label reads a plant', () => {
    const variants = wrongMediaTypes.variants?.(contract) ?? 0;
    const bodies = new Map<string, string>();
    for (let variant = 0; variant < variants; variant++) {
      const [value] = fc.sample(wrongMediaTypes.arbitrary(contract, variant), { numRuns: 1, seed: 3 });
      if (value === undefined) throw new Error('a sample');
      const [plan] = wrongMediaTypes.plan(value, { contract, fresh: createFreshIds('0f'), salt: `type-${variant}` });
      bodies.set(`${plan?.contentType ?? 'none'}${value.form === true ? ' (form)' : ''}`, plan?.body ?? '');
    }
    const form = new URLSearchParams(bodies.get('application/x-www-form-urlencoded (form)'));
    expect(form.get('id')).toMatch(/^-?\d+$/);
    expect(form.has('name')).toBe(true);
    const multipart = bodies.get('multipart/form-data; boundary=plantstore (form)') ?? '';
    expect(multipart).toMatch(/^--plantstore\r\n/);
    expect(multipart).toMatch(/\r\nContent-Disposition: form-data; name="id"\r\n\r\n-?\d+\r\n--plantstore/);
    expect(multipart.endsWith('--plantstore--\r\n')).toBe(true);
    // The JSON text goes under every wrong label too, the form types included (a server reading any body as JSON).
    for (const type of ['text/plain', 'application/x-www-form-urlencoded'])
      expect(JSON.parse(bodies.get(type) ?? '')).toHaveProperty('name');
  });
});
