import { exactInteger, numberText } from '../contract/index.js';
import { plantIdKey, type AcceptedNewPlant } from '../contract/new-plant-request.js';
import type { PlantId } from './plant-store.js';

/** An integer in plain digits that fits `exactInteger`'s 19 digits: its value is `BigInt` of its text. */
const PLAIN_INTEGER = /^-?(?:0|[1-9][0-9]{0,18})$/;

/**
 * {@link plantIdKey} of the accepted plant, reading only its `id`: a number id (nearly every one) is
 * keyed from its digits as sent without making the exact copy of every other member.
 */
export function idKeyOf(accepted: AcceptedNewPlant): PlantId | undefined {
  const { parsed } = accepted;
  const id = Object.hasOwn(parsed, 'id') ? parsed.id : undefined;
  if (typeof id !== 'number') return plantIdKey(accepted.plant);
  const text = numberText(parsed, 'id') ?? String(id);
  if (PLAIN_INTEGER.test(text)) return BigInt(text);
  // 1.0 and 1e2 are integers too; a fraction or a number past 19 digits is keyed by its text.
  return exactInteger(text) ?? text;
}
