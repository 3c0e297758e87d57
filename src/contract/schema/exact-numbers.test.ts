import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExactJson } from '../exact-json.js';
import { INT32, INT64, integerProblem } from '../integers.js';
import { exactNumberKeyword } from './exact-numbers.js';

type Validate = ((limits: object, data: number) => boolean) & { errors?: { message?: string }[] };

/** What the keyword says of a number text under an integer format: `undefined` or its complaint. */
function complaint(format: 'int32' | 'int64', text: string): string | undefined {
  const validate = (exactNumberKeyword() as { validate?: unknown }).validate as Validate;
  // Parsed, so the keyword reads the number's own text, as it does in every check.
  const parent = parseExactJson(`{"id": ${text}}`) as Record<string, number>;
  const valid = (validate as unknown as (...args: unknown[]) => boolean)(
    { format },
    parent.id,
    { type: 'integer' },
    {
      parentData: parent,
      parentDataProperty: 'id',
    },
  );
  return valid ? undefined : validate.errors?.[0]?.message;
}

/** Integer texts of every length up to 25 digits, edges of both formats, and texts that are not plain integers. */
const numberTexts = fc.oneof(
  fc
    .tuple(
      fc.boolean(),
      fc.integer({ min: 1, max: 9 }),
      fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 24 }),
    )
    .map(([negative, first, rest]) => `${negative ? '-' : ''}${first}${rest}`),
  fc.constantFrom(
    ...[INT32, INT64].flatMap(({ min, max }) => [min - 1n, min, max, max + 1n].map(String)),
    '0',
    '-0',
    '1.0',
    '1e2',
    '1.5',
    '999999999',
    '-999999999',
    '1000000000',
    '999999999999999999',
    '1000000000000000000',
  ),
);

describe('the exact-number keyword', () => {
  it('judges integer formats as integerProblem does, short texts included', () => {
    fc.assert(
      fc.property(numberTexts, fc.constantFrom('int32' as const, 'int64' as const), (text, format) => {
        expect(complaint(format, text)).toBe(integerProblem(text, format === 'int32' ? INT32 : INT64));
      }),
      { numRuns: 3_000, seed: 5 },
    );
  });
});
