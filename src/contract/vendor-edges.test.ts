import fc from 'fast-check';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stringifyExactJson } from './exact-json.js';
import type { ValueVariant } from './schema/index.js';
import { loadContract } from './spec.js';

async function variants(file: string): Promise<readonly ValueVariant[]> {
  const contract = await loadContract(fileURLToPath(new URL(`../fixtures/documents/reduced/${file}`, import.meta.url)));
  return [...contract.compiled.newPlant.boundaries, ...contract.compiled.newPlant.invalid];
}

function member(variant: ValueVariant | undefined, key: string): string[] {
  if (variant === undefined) return [];
  return fc
    .sample(variant.arbitrary, { numRuns: 40, seed: 8 })
    .map((value) => (JSON.parse(stringifyExactJson(value)) as Record<string, string>)[key] ?? '');
}

describe("vendor documents' edges that a service of their stack gets wrong are sent every run", () => {
  it('springdoc @Size(max = 64): a valid name of 64 code points, 65 UTF-16 units, and a refused one of 1 code point, 2 units', async () => {
    const all = await variants('springdoc-size-3.0.json');
    const longest = all.find(
      (variant) => variant.valid && variant.label.includes('maxLength 64') && /astral/.test(variant.label),
    );
    const names = member(longest, 'name');
    expect(names.length).toBe(40);
    for (const name of names) expect([[...name].length, name.length]).toEqual([64, 65]);
    const short = all.find(
      (variant) => !variant.valid && variant.label.includes('minLength 2') && /astral/.test(variant.label),
    );
    const shorts = member(short, 'name');
    expect(shorts.length).toBe(40);
    for (const name of shorts) expect([[...name].length, name.length]).toEqual([1, 2]);
  });

  it("an sku of ^[A-Z]{2}-\\d{4}$ gets its Arabic-Indic digit at a \\d position (Python's re.fullmatch takes it there)", async () => {
    const all = await variants('unicode-digit-sku-3.0.yaml');
    const misread = all.find((variant) => !variant.valid && variant.label.includes('an Arabic-Indic digit'));
    const skus = member(misread, 'sku');
    expect(skus.length).toBe(40);
    for (const sku of skus) expect(sku).toMatch(/^[A-Z]{2}-[0-9\u0663]{4}$/u);
  });
});
