import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH, loadContract, type Contract } from '../contract/index.js';
import { observedExchange } from './exchange.js';
import type { IdKey } from './id-memory.js';
import { inferIntent, type ObservedRequest } from './intent.js';
import { judgeObserved, proxyChecks } from './verdict.js';

const CREATED_DOCUMENT = 'src/fixtures/documents/reduced/created-location-3.0.yaml';

let contract: Contract;
let created: Contract;
beforeAll(async () => {
  contract = await loadContract(DEFAULT_SPEC_PATH);
  created = await loadContract(CREATED_DOCUMENT);
});

function judged(on: Contract, body: string, status: number, contentType = 'application/json') {
  const bytes = Buffer.from(body);
  const request: ObservedRequest = {
    authorization: 'Bearer abc',
    contentType,
    body: bytes,
    bodyBytes: bytes.length,
    overCap: false,
    target: on === created ? '/api/plants' : '/plants',
    rawHeaders: [],
  };
  const seen = new Set<IdKey>();
  const inferred = inferIntent(request, { contract: on, rememberId: (id) => seen.has(id) || (seen.add(id), false) });
  const answer = { status, rawHeaders: ['Content-Type', contentType], body: bytes, truncated: false, durationMs: 1 };
  const exchange = observedExchange('http://upstream/plants', request, inferred, answer);
  const { verdicts } = judgeObserved(exchange, inferred, false, proxyChecks(), {
    contract: on,
    targetRejectsRepeats: undefined,
  });
  return (id: string) => verdicts.find(({ check }) => check.id === id)?.verdict;
}

describe('positive-acceptance as one exchange shows it', () => {
  it('fails a valid NewPlant accepted with a success status the document does not give (201 for its 200)', () => {
    const verdictOf = judged(contract, '{"id": 5, "name": "Fern"}', 201);
    expect(verdictOf('positive-acceptance')?.outcome).toBe('fail');
    expect(verdictOf('positive-acceptance')?.defect).toBe('status 201 for a valid NewPlant');
    expect(verdictOf('documented-status')?.outcome).toBe('fail');
  });

  it("fails a valid NewPlant answered 200 where the document's success is 201", () => {
    const verdictOf = judged(created, '{"id": "5", "name": "Fern"}', 200);
    expect(verdictOf('positive-acceptance')?.outcome).toBe('fail');
    expect(verdictOf('positive-acceptance')?.reason).toContain("the document's success response is 201");
  });

  it("reads a NewPlant sent with the document's own media type, as written there, as a plain valid one", () => {
    const documented = 'application/json; charset=utf-8';
    const verdictOf = judged(created, '{"id": "5", "name": "Fern"}', 200, documented);
    expect(verdictOf('positive-acceptance')?.outcome).toBe('fail');
  });

  it('passes the documented success, and leaves a refusal or a server error unjudged (an id held before, a token)', () => {
    expect(judged(contract, '{"id": 6, "name": "Fern"}', 200)('positive-acceptance')?.outcome).toBe('pass');
    expect(judged(contract, '{"id": 7, "name": "Fern"}', 400)('positive-acceptance')).toBeUndefined();
    expect(judged(contract, '{"id": 8, "name": "Fern"}', 403)('positive-acceptance')).toBeUndefined();
    expect(judged(contract, '{"id": 9, "name": "Fern"}', 500)('positive-acceptance')).toBeUndefined();
  });

  it('leaves an invalid NewPlant accepted to negative-rejection', () => {
    const verdictOf = judged(contract, '{"id": "x", "name": "Fern"}', 201);
    expect(verdictOf('positive-acceptance')).toBeUndefined();
    expect(verdictOf('negative-rejection')?.outcome).toBe('fail');
  });
});
