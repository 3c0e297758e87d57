import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  CORRECT_STEPS,
  refuse,
  startService,
  type Refusal,
  type ServiceSteps,
} from '../../fixtures/base/plant-service.js';
import { runConformance, type Finding } from '../../index.js';

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
  return (await reportOf(steps, seed)).map((finding) => finding.title);
}

async function reportOf(steps: Partial<ServiceSteps>, seed: number): Promise<Finding[]> {
  const target = await startService({ ...CORRECT_STEPS, ...steps });
  try {
    const report = await runConformance({ baseUrl: target.url, token: target.token, seed, runs: 40 });
    return [...(report.findings ?? [])];
  } finally {
    await target.close();
  }
}

/** The correct service, but a request carrying a query string is answered `answer` instead. */
function onQuery(answer: Refusal | ((req: IncomingMessage) => Refusal)): Partial<ServiceSteps> {
  return {
    decode: (body, req) => {
      if (req.url === '/plants') return CORRECT_STEPS.decode(body, req);
      return typeof answer === 'function' ? answer(req) : answer;
    },
  };
}

/** A redirect to `location`, as nginx's `if ($args) { return 301 $uri; }` strips a query string. */
const redirect = (status: number, location: string): Refusal => ({
  ...refuse(status, 'Moved.', status),
  headers: { location },
});

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

  it('passes a 307 or 308 to the same path without the query string (the POST and its body go there again)', async () => {
    expect(await findingsOf(onQuery(redirect(308, '/plants')), 1)).toEqual([]);
    const absolute = (req: IncomingMessage) => redirect(307, `http://${req.headers.host ?? ''}/plants`);
    expect(await findingsOf(onQuery(absolute), 1)).toEqual([]);
    // A 308 elsewhere is no answer of the request: the same finding as any redirect.
    expect(await findingsOf(onQuery(redirect(308, '/login')), 1)).toEqual(['status 308, a redirect (not followed)']);
  }, 90_000);

  it('fails a 301 that strips the query string, once, and says the request carried one', async () => {
    const findings = await reportOf(onQuery(redirect(301, '/plants')), 1);
    expect(findings.map((finding) => finding.title)).toEqual(['status 301, a redirect (not followed)']);
    const [finding] = findings;
    expect(finding?.counterexample.reason).toContain('query string');
    expect(finding?.counterexample.reason).toContain('a GET');
  }, 90_000);

  it('fails a 500 to the query string as a crash, and says the same body without it was refused', async () => {
    const findings = await reportOf(onQuery(refuse(500, 'Internal Server Error', 500)), 1);
    expect(findings.map((finding) => finding.title)).toEqual(['status 500 for a request with a query string']);
    expect(findings[0]?.counterexample.reason).toContain('the same body without it was answered 400');
  }, 90_000);

  it('folds a 500 to the query string into the crash of the same body without it', async () => {
    const crashes: Partial<ServiceSteps> = {
      readName: (value) => {
        if (typeof value !== 'string') throw new TypeError("Cannot read properties of undefined (reading 'trim')");
        return value;
      },
    };
    const titles = await findingsOf(crashes, 1);
    expect(titles).toContain('status 500 for an invalid body ("name": name missing (required) (keyword required))');
    expect(titles.filter((title) => title.includes('query string'))).toEqual([]);
  }, 90_000);
});
