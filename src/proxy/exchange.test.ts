import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH, loadContract, type Contract } from '../contract/index.js';
import { judgeExchange, type ExchangeVerdict } from '../runner/judge-exchange.js';
import { PARSED_RESPONSE, type ParseKeeping } from '../runner/judge.js';
import type { Exchange } from '../runner/http/client.js';
import { handSentObject } from '../../suites/acceptance.js';
import { observedExchange, plainExchange, type ObservedResponse } from './exchange.js';
import type { IdKey } from './id-memory.js';
import { inferIntent, type IntentContext, type ObservedRequest } from './intent.js';
import { judgeObserved, proxyChecks } from './verdict.js';

let contract: Contract;
let intentContext: IntentContext;
beforeAll(async () => {
  contract = await loadContract(DEFAULT_SPEC_PATH);
  const seen = new Set<IdKey>();
  intentContext = { contract, rememberId: (id) => seen.has(id) || (seen.add(id), false) };
});

function request(body: Buffer): ObservedRequest {
  return {
    authorization: 'Bearer abc',
    contentType: 'application/json',
    body,
    bodyBytes: body.length,
    overCap: false,
    target: '/plants',
    rawHeaders: [],
  };
}

function response(
  body: Buffer,
  rawHeaders: readonly string[] = ['Content-Type', 'application/json'],
): ObservedResponse {
  return { status: 200, rawHeaders, body, truncated: false, durationMs: 1 };
}

/** The verdicts as the proxy judged before answers kept their parse: the body handed in, the answer parsed anew. */
function judgedByParsing(exchange: Exchange, sent: Readonly<Record<string, unknown>> | undefined) {
  const plain = plainExchange(exchange);
  if (sent !== undefined) handSentObject(plain.plan, sent);
  return judgeExchange(plain, proxyChecks(), { contract, targetRejectsRepeats: undefined });
}

const shown = (verdicts: readonly ExchangeVerdict[]) => verdicts.map(({ check, verdict }) => [check.id, verdict]);

/** Valid NewPlants and others, written compactly or not, some with a byte-order mark, escapes or long numbers. */
const bodies = fc
  .tuple(
    fc.record(
      {
        id: fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.constantFrom('1.0', '1e2', '"7"')),
        name: fc.oneof(fc.string(), fc.constantFrom('Fern', '\\u00e9', '\\ud800', 'a\\"b')),
        tag: fc.oneof(fc.string(), fc.constant(null)),
        extra: fc.jsonValue(),
      },
      { requiredKeys: ['name'] },
    ),
    fc.boolean(),
    fc.constantFrom('', '\ufeff', ' '),
  )
  .map(([members, compact, before]) => {
    const parts = Object.entries(members).map(([key, value]) => {
      const text =
        key === 'id' && (typeof value === 'bigint' || typeof value === 'string')
          ? String(value)
          : key === 'name' && typeof value === 'string'
            ? `"${value.replace(/"/g, '')}"`
            : JSON.stringify(value);
      return `"${key}":${compact ? '' : ' '}${text}`;
    });
    return Buffer.from(`${before}{${parts.join(',')}}`);
  });

describe('the exchange the proxy judges', () => {
  it("reads an answer whose bytes are the request's as the request was read, with the same verdicts as parsing it (property)", () => {
    fc.assert(
      fc.property(bodies, fc.boolean(), (body, echoed) => {
        const sentBytes = request(body);
        const inferred = inferIntent(sentBytes, intentContext);
        const answer = echoed ? Buffer.from(body) : Buffer.from(`${body.toString()} `);
        const exchange = observedExchange('http://upstream/plants', sentBytes, inferred, response(answer));
        const kept = (exchange as Exchange & ParseKeeping)[PARSED_RESPONSE];
        // Read as the request only when the bytes are the same and carry no byte-order mark.
        const bom = body[0] === 0xef;
        expect(kept !== null).toBe(echoed && !bom && inferred.sent !== undefined);
        const judged = judgeObserved(exchange, inferred, false, proxyChecks(), {
          contract,
          targetRejectsRepeats: undefined,
        });
        expect(shown(judged.verdicts)).toEqual(shown(judgedByParsing(exchange, inferred.sent)));
      }),
      { numRuns: 400, seed: 11 },
    );
  });

  it('a byte-order mark in front of an echoed body: the request is read without it, the answer with it, and fails as not JSON', () => {
    const body = Buffer.from('\ufeff{"id":1,"name":"Fern"}');
    const inferred = inferIntent(request(body), intentContext);
    expect(inferred.intent.kind).toBe('valid');
    const exchange = observedExchange('http://upstream/plants', request(body), inferred, response(Buffer.from(body)));
    const judged = judgeObserved(exchange, inferred, false, proxyChecks(), {
      contract,
      targetRejectsRepeats: undefined,
    });
    expect(judged.verdicts.find(({ check }) => check.id === 'response-schema')?.verdict.outcome).toBe('fail');
  });

  it('records header names lower-cased, repeated ones joined, whatever names came before in which places (property)', () => {
    const names = fc.constantFrom(
      'Content-Type',
      'content-type',
      'X-A',
      'x-a',
      'Date',
      'DATE',
      'Set-Cookie',
      'Connection',
    );
    const heads = fc.array(fc.array(fc.tuple(names, fc.constantFrom('1', 'a b', '')), { maxLength: 6 }), {
      maxLength: 6,
    });
    fc.assert(
      fc.property(heads, (answers) => {
        for (const headers of answers) {
          const raw = headers.flat();
          const body = Buffer.from('{"id":1,"name":"x"}');
          const inferred = inferIntent(request(body), intentContext);
          const exchange = observedExchange('http://upstream/plants', request(body), inferred, response(body, raw));
          const expected: Record<string, string> = {};
          for (const [name, value] of headers) {
            const lower = name.toLowerCase();
            expected[lower] = expected[lower] === undefined ? value : `${expected[lower]}, ${value}`;
          }
          expect(exchange.response.headers).toEqual(expected);
        }
      }),
      { numRuns: 500, seed: 3 },
    );
  });

  it('the checks leave the case list they share alone: judged with it frozen, each gives its verdict', () => {
    const context = { contract, targetRejectsRepeats: undefined };
    const sent = ['{"id":1,"name":"Fern"}', '{"name":1}', '{', '{"id":2,"name":"x","tag":null}'];
    const answers: [number, string][] = [
      [200, '{"name":"Fern"}'],
      [400, '{"error":1,"message":"no"}'],
      [401, ''],
      [500, 'oops'],
      [201, '{"name":"x"}'],
      [302, ''],
    ];
    for (const body of sent) {
      for (const authorization of ['Bearer abc', undefined]) {
        for (const [status, answer] of answers) {
          const observed = { ...request(Buffer.from(body)), authorization };
          const inferred = inferIntent(observed, intentContext);
          const answered = { ...response(Buffer.from(answer)), status };
          const exchange = observedExchange('http://upstream/plants', observed, inferred, answered);
          const frozen = Object.freeze([exchange]);
          for (const check of proxyChecks()) expect(() => check.judge(exchange, context, frozen)).not.toThrow();
        }
      }
    }
  });
});
