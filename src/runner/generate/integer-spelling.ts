/** Ways to write an integer that JSON Schema counts as an integer but naive parsers reject. */
export type Spelling =
  'fraction-zero' | 'fraction-zeros' | 'exponent-zero' | 'scientific' | 'exponent-plus' | 'negative-zero';

/** Every spelling, each the variant of some cases of the `integer-spellings` check. */
export const SPELLINGS: readonly Spelling[] = [
  'fraction-zero',
  'scientific',
  'exponent-plus',
  'fraction-zeros',
  'exponent-zero',
  'negative-zero',
];

/**
 * The JSON text of `id` in a spelling, and the exact value it denotes (which may differ from `id`
 * for spellings that need trailing zeros). `negative-zero` always denotes 0.
 */
export function spell(id: bigint, spelling: Spelling): { text: string; value: bigint } {
  const sign = id < 0n ? '-' : '';
  const digits = (id < 0n ? -id : id).toString();
  switch (spelling) {
    case 'fraction-zero':
      return { text: `${id}.0`, value: id };
    case 'fraction-zeros':
      return { text: `${id}.000`, value: id };
    case 'exponent-zero':
      return { text: `${id}e0`, value: id };
    case 'scientific': {
      if (digits.length === 1) return { text: `${id}.0e0`, value: id };
      return { text: `${sign}${digits.slice(0, 1)}.${digits.slice(1)}e${digits.length - 1}`, value: id };
    }
    case 'exponent-plus': {
      const hundreds = id / 100n;
      return { text: `${hundreds}E+2`, value: hundreds * 100n };
    }
    case 'negative-zero':
      return { text: '-0', value: 0n };
  }
}
