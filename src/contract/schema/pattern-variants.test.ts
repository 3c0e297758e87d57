import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { compileSchema } from './index.js';

function sampled(pattern: string, words: string, valid: boolean): string[] {
  const compiled = compileSchema(
    { type: 'object', required: ['sku'], properties: { sku: { type: 'string', pattern } } },
    { dialect: 'openapi-3.1', subject: 'a NewPlant' },
  );
  return [...compiled.boundaries, ...compiled.invalid]
    .filter((variant) => variant.valid === valid && variant.keyword === 'pattern' && variant.label.includes(words))
    .flatMap((variant) => fc.sample(variant.arbitrary, { numRuns: 40, seed: 3 }))
    .map((value) => (value as Record<string, string>).sku ?? '');
}

describe('a character another engine reads into a class goes where that class is, not at a random position', () => {
  test("an Arabic-Indic digit replaces a \\d of ^[A-Z]{2}-\\d{4}$ (Python's \\d takes it), never a letter or the dash", () => {
    const skus = sampled(String.raw`^[A-Z]{2}-\d{4}$`, 'an Arabic-Indic digit', false);
    expect(skus.length).toBeGreaterThan(0);
    for (const sku of skus) expect(sku).toMatch(/^[A-Z]{2}-[0-9\u0663]*\u0663[0-9\u0663]*$/u);
  });

  test("a carriage return replaces the . of ^[A-Z]{3}.[0-9]$ (Python's . takes it)", () => {
    const skus = sampled(String.raw`^[A-Z]{3}.[0-9]$`, 'a carriage return', false);
    expect(skus.length).toBeGreaterThan(0);
    for (const sku of skus) expect(sku).toMatch(/^[A-Z]{3}\r[0-9]$/u);
  });

  test('a no-break space inside a match of ^[a-z]+\\s[a-z]+$ is sent as valid, at the \\s', () => {
    const skus = sampled(String.raw`^[a-z]+\s[a-z]+$`, 'a no-break space', true);
    expect(skus.length).toBeGreaterThan(0);
    for (const sku of skus) expect(sku).toMatch(/^[a-z]+\u00a0[a-z]+$/u);
  });

  test('without such a class the character still breaks the pattern somewhere: [0-9] is ASCII in every engine', () => {
    const skus = sampled('^[0-9]{4}$', 'an Arabic-Indic digit', false);
    expect(skus.length).toBeGreaterThan(0);
    for (const sku of skus) expect(sku).toContain('\u0663');
  });
});
