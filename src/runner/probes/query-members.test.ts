import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { CORRECT_STEPS, refuse, startService, type ServiceSteps } from '../../fixtures/base/plant-service.js';
import { runConformance } from '../../index.js';

const QUERY_MEMBER = 'an invalid body (required "name" left out, given in the query string instead) accepted';

function queryOf(req: IncomingMessage): URLSearchParams {
  return new URL(req.url ?? '/', 'http://target').searchParams;
}

/** Sinatra's `params.merge(JSON.parse(body))`: the query's members first, the body's over them. */
const mergingQuery: Partial<ServiceSteps> = {
  decode(body, req) {
    const text = CORRECT_STEPS.decode(body, req);
    if (typeof text !== 'string') return text;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return text;
      const query = Object.fromEntries(queryOf(req));
      // The body's own text after the query's members, so its exact integers stay as written.
      return Object.keys(query).length === 0 ? text : `${JSON.stringify(query).slice(0, -1)},${text.trim().slice(1)}`;
    } catch {
      return text;
    }
  },
};

/** A server that refuses any query parameter it does not declare (400), which the contract allows. */
const strictQuery: Partial<ServiceSteps> = {
  decode: (body, req) =>
    [...queryOf(req).keys()].length > 0 ? refuse(1, 'unknown query parameter') : CORRECT_STEPS.decode(body, req),
};

async function findingsOf(steps: Partial<ServiceSteps>, seed: number): Promise<string[]> {
  const target = await startService({ ...CORRECT_STEPS, ...steps });
  try {
    const report = await runConformance({ baseUrl: target.url, token: target.token, seed, runs: 40 });
    return (report.findings ?? []).map((finding) => finding.title);
  } finally {
    await target.close();
  }
}

describe('a NewPlant missing a required member that the query string gives', () => {
  it.each([1, 42])(
    'shows a server filling body members from the query string (seed %s)',
    async (seed) => {
      expect(await findingsOf(mergingQuery, seed)).toEqual([QUERY_MEMBER]);
    },
    90_000,
  );

  it('is no finding of its own where the same body without the query is accepted (the member never checked)', async () => {
    const unchecked: Partial<ServiceSteps> = {
      ...mergingQuery,
      readName: (value) => (typeof value === 'string' ? value : ''),
    };
    const titles = await findingsOf(unchecked, 1);
    expect(titles).toHaveLength(1);
    expect(titles[0]).toContain('"name": name missing (required)');
  }, 90_000);

  it('passes a server that refuses unknown query parameters, one routing req.url exactly (404), and one ignoring them', async () => {
    expect(await findingsOf(strictQuery, 1)).toEqual([]);
    const exactRoute: Partial<ServiceSteps> = {
      decode: (body, req) => (req.url === '/plants' ? CORRECT_STEPS.decode(body, req) : refuse(404, 'Not found.', 404)),
    };
    expect(await findingsOf(exactRoute, 1)).toEqual([]);
    expect(await findingsOf({}, 1)).toEqual([]);
  }, 90_000);
});
