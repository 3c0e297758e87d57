import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { numberText, parseExactJson } from '../src/contract/exact-json.js';
import { listenOnLoopback } from '../src/fixtures/target-fixture.js';
import { runConformance } from '../src/index.js';
import { DOUBLES_DEFECT } from '../src/runner/defects.js';
import { jsonRequests } from '../src/fixtures/json-requests.js';

const TOKEN = 'edge-neighbour-token';
const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);

/** The integer a JSON number's text writes (`5.0`, `-9.007635405092462e15`, as Math::BigFloat's is_int reads it). */
function integerOf(text: string): bigint | undefined {
  const parts = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!parts) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = parts;
  const shift = Number(exponent) - fraction.length;
  if (Math.abs(shift) > 40) return undefined;
  const digits = BigInt(`${sign}${whole}${fraction}`);
  if (shift >= 0) return digits * 10n ** BigInt(shift);
  const unit = 10n ** BigInt(-shift);
  return digits % unit === 0n ? digits / unit : undefined;
}

/**
 * A Plant Store as hy11's Perl server on JSON::PP writes it: an integer literal past Perl's IV range comes back a
 * double (`0+$v`), so `rounding` reads -2^63-1 as -2^63, in range; one `error` value for every refusal, a repeat told
 * only by its message. Without `rounding` the id is read exactly and -2^63-1 is refused for its range.
 */
async function startPerlLikeStore(rounding: boolean): Promise<{ url: string; close(): Promise<void> }> {
  const stored = new Set<bigint>();
  const server: Server = createServer(
    jsonRequests((req, received, answer) => {
      const refuse = (message: string): void => answer(400, { error: 400, message });
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return answer(401, { error: 401, message: 'unauthorized' });
      if (req.headers['content-type'] !== 'application/json') return refuse('the body must be application/json');
      let body: unknown;
      try {
        body = parseExactJson(received);
      } catch {
        return refuse('malformed JSON');
      }
      if (body === null || typeof body !== 'object' || Array.isArray(body)) return refuse('the body must be an object');
      const { name, tag } = body as Record<string, unknown>;
      const written = numberText(body, 'id');
      let exact = written === undefined ? undefined : integerOf(written);
      if (exact === undefined) return refuse('id must be an integer');
      // JSON::PP reads an integer literal of up to 20 characters past the IV range with 0+$v: a double.
      if (rounding && /^-?\d{1,19}$/.test(written ?? '') && (exact > INT64_MAX || exact < INT64_MIN))
        exact = BigInt(Number(exact));
      if (exact > INT64_MAX || exact < INT64_MIN) return refuse('id must be an integer in the int64 range');
      if (typeof name !== 'string') return refuse('name must be a string');
      if (tag !== undefined && typeof tag !== 'string') return refuse('tag must be a string');
      if (stored.has(exact)) return refuse(`a plant with id ${exact} already exists`);
      stored.add(exact);
      answer(200, tag === undefined ? { name } : { name, tag });
    }),
  );
  return listenOnLoopback(server, TOKEN);
}

describe('an integer one past int64 read as a double, refused as a repeat of the edge the run stored', () => {
  it.each([undefined, 42])(
    'is the finding of integers read as doubles at seed %s (the run sends -2^63 first), and a store reading it exactly passes',
    async (seed) => {
      for (const rounding of [true, false]) {
        const target = await startPerlLikeStore(rounding);
        try {
          const report = await runConformance({ baseUrl: target.url, token: TOKEN, seed, runs: 60, concurrency: 4 });
          const findings = (report.findings ?? []).map((finding) => [
            finding.title,
            finding.counterexample.request.body,
          ]);
          const below = [DOUBLES_DEFECT, `{"name":"","id":${INT64_MIN - 1n}}`];
          expect(findings).toEqual(rounding ? [below] : []);
        } finally {
          await target.close();
        }
      }
    },
    120_000,
  );
});
