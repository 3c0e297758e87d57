import { numberText } from './exact-json.js';
import { exactInteger } from './integers.js';
import { plantIdKey, type AcceptedNewPlant } from './new-plant-request.js';

/** An integer in plain digits that fits `exactInteger`'s 19 digits: its value is `BigInt` of its text. */
const PLAIN_INTEGER = /^-?(?:0|[1-9][0-9]{0,18})$/;

/**
 * {@link plantIdKey} of the accepted plant, reading only its `id`: a number id (nearly every one) is
 * keyed from its digits as sent without making the exact copy of every other member (the reference's
 * store and the proxy's memory of ids sent both key by it).
 */
export function idKeyOf(accepted: AcceptedNewPlant): bigint | string | undefined {
  const { parsed } = accepted;
  const id = Object.hasOwn(parsed, 'id') ? parsed.id : undefined;
  if (typeof id !== 'number') return plantIdKey(accepted.plant);
  const text = numberText(parsed, 'id') ?? String(id);
  if (PLAIN_INTEGER.test(text)) return BigInt(text);
  // 1.0 and 1e2 are integers too; a fraction or a number past 19 digits is keyed by its text.
  return exactInteger(text) ?? text;
}
