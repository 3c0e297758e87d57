import { idKeyOf } from '../contract/id-key.js';
import { keptNumberText } from '../contract/exact-json.js';
import type { AcceptedNewPlant } from '../contract/new-plant-request.js';

/**
 * An id as the proxy remembers it: the text of `idKeyOf` (`String(idKeyOf(read))`), held as a number
 * when that text is a safe integer (then the number's own text is that text), else as the text.
 */
export type IdKey = number | string;

/** Integer text of at most 15 digits: its double is exact, so `BigInt` of it and the double agree. */
const SHORT_INTEGER = /^-?(?:0|[1-9][0-9]{0,14})$/;
/** A safe integer's text as `String` writes it (no sign on 0, no leading zeros). */
const INTEGER_TEXT = /^(?:0|-?[1-9][0-9]{0,15})$/;

/**
 * The {@link IdKey} of an accepted NewPlant's id. A number id written as an integer of up to 15
 * digits (nearly every one) is its own key, without `idKeyOf`'s `BigInt` and its text.
 */
export function idMemoryKey(read: AcceptedNewPlant): IdKey {
  const { parsed } = read;
  const id = Object.hasOwn(parsed, 'id') ? parsed.id : undefined;
  if (typeof id === 'number' && isShortIntegerId(id, keptNumberText(parsed, 'id'))) return id === 0 ? 0 : id;
  const key = String(idKeyOf(read));
  const number = INTEGER_TEXT.test(key) ? Number(key) : NaN;
  return Number.isSafeInteger(number) ? number : key;
}

/**
 * Whether a number id is written as an integer of up to 15 digits: its digits as kept, else `String`'s
 * of it, which are such an integer exactly when it is an integer under 10^15 (-0 written "0").
 */
export function isShortIntegerId(id: number, kept: string | undefined): boolean {
  return kept === undefined ? Number.isInteger(id) && Math.abs(id) < 1e15 : SHORT_INTEGER.test(kept);
}

/**
 * Remembers up to `limit` ids (then forgets the oldest); answers whether an id was seen before. The
 * same answers as a `Set` of each key's text, but numbers are kept in typed arrays: no string, entry
 * or heap number per id for the collector to trace, and no hashing of text.
 */
export function idMemory(limit: number): (id: IdKey) => boolean {
  const memory = new IdMemory(limit);
  return (id) => memory.remember(id);
}

class IdMemory {
  private readonly numbers: IntegerSet;
  private readonly strings = new Set<string>();
  /** The ids in the order they were first seen, in a ring: a number in `orderNumbers`, or a string in `orderStrings`. */
  private readonly orderNumbers: Float64Array;
  private readonly orderStrings = new Map<number, string>();
  private size = 0;
  private oldest = 0;

  constructor(private readonly limit: number) {
    this.numbers = new IntegerSet(limit);
    this.orderNumbers = new Float64Array(limit);
  }

  remember(id: IdKey): boolean {
    if (typeof id === 'number' ? this.numbers.has(id) : this.strings.has(id)) return true;
    let slot: number;
    if (this.size < this.limit) slot = this.size++;
    else {
      slot = this.oldest;
      this.oldest = (this.oldest + 1) % this.limit;
      const forgotten = this.orderStrings.get(slot);
      if (forgotten === undefined) this.numbers.delete(this.orderNumbers[slot] ?? NaN);
      else {
        this.strings.delete(forgotten);
        this.orderStrings.delete(slot);
      }
    }
    if (typeof id === 'number') {
      this.numbers.add(id);
      this.orderNumbers[slot] = id;
    } else {
      this.strings.add(id);
      this.orderStrings.set(slot, id);
    }
    return false;
  }
}

/** A set of safe integers in one typed array: open addressing, linear probing, NaN for a free slot. */
export class IntegerSet {
  private readonly slots: Float64Array;
  private readonly mask: number;

  /** Room for `capacity` integers, the table at most half full. */
  constructor(capacity: number) {
    let size = 8;
    while (size < capacity * 2) size *= 2;
    this.slots = new Float64Array(size).fill(NaN);
    this.mask = size - 1;
  }

  has(value: number): boolean {
    const { slots, mask } = this;
    for (let i = this.home(value); ; i = (i + 1) & mask) {
      const held = slots[i] ?? NaN;
      if (held === value) return true;
      if (held !== held) return false;
    }
  }

  /** Adds `value`, which is not in the set. */
  add(value: number): void {
    const { slots, mask } = this;
    let i = this.home(value);
    while (!Number.isNaN(slots[i])) i = (i + 1) & mask;
    slots[i] = value;
  }

  /** Takes `value` out, moving back the values after it that probed past its slot (no tombstones). */
  delete(value: number): void {
    const { slots, mask } = this;
    let free = this.home(value);
    while (slots[free] !== value) {
      if (Number.isNaN(slots[free])) return;
      free = (free + 1) & mask;
    }
    for (let next = (free + 1) & mask; ; next = (next + 1) & mask) {
      const held = slots[next] ?? NaN;
      if (held !== held) break;
      const home = this.home(held);
      // `held` stays when its home lies cyclically in (free, next]: a lookup from there never passes `free`.
      const stays = free <= next ? free < home && home <= next : free < home || home <= next;
      if (stays) continue;
      slots[free] = held;
      free = next;
    }
    slots[free] = NaN;
  }

  /** The first slot a safe integer probes: its low and high 32 bits mixed. */
  private home(value: number): number {
    const low = value >>> 0;
    const high = ((value - low) / 4294967296) | 0;
    const mixed = Math.imul(low ^ Math.imul(high, 0x9e3779b1), 0x85ebca6b);
    return (mixed ^ (mixed >>> 15)) & this.mask;
  }
}
