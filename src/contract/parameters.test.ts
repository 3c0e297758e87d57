import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadContract } from './spec.js';
import {
  operationParameters,
  parameterCheck,
  parameterRefusal,
  readsAsValidLeniently,
  requiredParameterValues,
} from './parameters.js';

const WITH_PARAMETERS = fileURLToPath(new URL('../http/test-documents/parameters-3.1.yaml', import.meta.url));
const contract = await loadContract(WITH_PARAMETERS);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

describe('the parameters of POST /plants', () => {
  it('are read from the document, Accept ignored as OpenAPI says', () => {
    const declared = operationParameters(contract).map((parameter) => [
      parameter.in,
      parameter.name,
      parameter.required,
    ]);
    expect(declared).toEqual([
      ['header', 'X-Request-ID', true],
      ['query', 'api-version', true],
      ['query', 'dryRun', false],
      ['cookie', 'tenant', true],
    ]);
  });

  it('the seed document declares none: no values, no server step', async () => {
    const seed = await loadContract();
    expect(requiredParameterValues(seed, 'any')).toBeUndefined();
    expect(parameterCheck(seed)).toBeUndefined();
  });

  it('required values are valid, carried as HTTP writes them, and the same for the same salt', () => {
    const check = parameterCheck(contract);
    const seen = new Set<string>();
    for (let index = 0; index < 50; index++) {
      const values = requiredParameterValues(contract, `valid-plant:${index}`);
      expect(values).toEqual(requiredParameterValues(contract, `valid-plant:${index}`));
      const id = values?.headers['x-request-id'] ?? '';
      expect(id).toMatch(UUID);
      seen.add(id);
      expect(values?.query).toMatch(/^api-version=(2024-01-01|2025-06-01)$/);
      expect(values?.headers.cookie).toMatch(/^tenant=[a-z]{3,8}$/);
      const url = `/plants?${values?.query ?? ''}`;
      expect(check?.({ headers: values?.headers ?? {}, url })).toBeUndefined();
    }
    expect(seen.size).toBe(50);
  });

  it('the servers refuse a missing required parameter and an invalid one with a 400 naming it', () => {
    const check = parameterCheck(contract);
    const headers = { 'x-request-id': '0f8fad5b-d9cb-469f-a165-70867728950e', cookie: 'tenant=acme' };
    const url = '/plants?api-version=2025-06-01';
    expect(check?.({ headers, url })).toBeUndefined();
    expect(check?.({ headers, url: `${url}&dryRun=true` })).toBeUndefined();
    const missing = check?.({ headers: { cookie: 'tenant=acme' }, url });
    expect([missing?.status, missing?.message]).toEqual([
      400,
      'The required header parameter "X-Request-ID" is missing.',
    ]);
    expect(check?.({ headers, url: '/plants?api-version=1999-01-01' })?.message).toMatch(
      /^The query parameter "api-version" is not valid/,
    );
    expect(check?.({ headers, url: `${url}&dryRun=maybe` })?.message).toMatch(
      /^The query parameter "dryRun" is not valid/,
    );
    expect(check?.({ headers: { ...headers, cookie: 'tenant=A' }, url })?.message).toMatch(/"tenant" is not valid/);
    expect(check?.({ headers: { ...headers, 'x-request-id': 'nope' }, url })?.message).toMatch(
      /"X-Request-ID" is not valid/,
    );
  });

  it('a required parameter whose schema no value satisfies is still required: sent with its example, refused when missing', async () => {
    const unsatisfiable = await loadContract(
      fileURLToPath(new URL('../http/test-documents/parameters-unsatisfiable-3.1.yaml', import.meta.url)),
    );
    const check = parameterCheck(unsatisfiable);
    const values = requiredParameterValues(unsatisfiable, 'any');
    expect(values?.headers['x-request-id']).toBe('abc');
    const url = `/plants?${values?.query ?? ''}`;
    expect(check?.({ headers: values?.headers ?? {}, url })).toBeUndefined();
    const without = Object.fromEntries(
      Object.entries(values?.headers ?? {}).filter(([name]) => name !== 'x-request-id'),
    );
    expect(check?.({ headers: without, url })?.message).toBe(
      'The required header parameter "X-Request-ID" is missing.',
    );
  });
});

const NUMBERS = fileURLToPath(new URL('../http/test-documents/parameters-numbers-3.0.yaml', import.meta.url));
const numbers = await loadContract(NUMBERS);

describe('values servers commonly read as valid though the document refuses them', () => {
  const named = (name: string) => {
    const found = operationParameters(numbers).find((parameter) => parameter.name === name);
    if (!found) throw new Error(`no parameter ${name}`);
    return found;
  };
  const lenient = (name: string, text: string): boolean => {
    const parameter = named(name);
    // Only refused values are in question: a valid one needs no lenient reading.
    expect(parameterRefusal(parameter, text), text).toBeDefined();
    return readsAsValidLeniently(parameter, text);
  };

  it('a valid number with a sign or leading zeros (read as 5 by Go strconv, Java parseInt, pydantic)', () => {
    for (const text of ['+5', '05', '005', '+05']) expect(lenient('page', text), text).toBe(true);
  });

  it('not a number out of range, nor one no lenient parser reads', () => {
    for (const text of ['0', '+0', '101', '0101', '5x', 'five', '0x10', '1,5'])
      expect(lenient('page', text), text).toBe(false);
  });

  it('a boolean-like word where a boolean is valid, an enum member in another letter case', () => {
    for (const text of ['yes', 'on', '1', 'TRUE']) expect(lenient('X-Dry-Run', text), text).toBe(true);
    expect(lenient('X-Dry-Run', 'maybe')).toBe(false);
    expect(lenient('lang', 'DE')).toBe(true);
    expect(lenient('lang', 'fr')).toBe(false);
  });

  it('a cookie valid once decoded', () => {
    expect(lenient('lang', '%64e')).toBe(true);
    expect(lenient('lang', '%66r')).toBe(false);
  });
});
