import { numberText, type Contract } from '../contract/index.js';
import { objectView } from '../contract/object-view.js';
import { escapePointer } from '../contract/operations.js';

/** The Plant properties the echo check compares, and those a target may fill when none was sent. */
export interface EchoedProperties {
  /** Plant properties a NewPlant also declares: sent, they come back exactly as sent. */
  readonly echoed: readonly string[];
  /** Plant properties with a `default` in the document, which a target may fill when none was sent. */
  readonly defaulted: ReadonlySet<string>;
}

const echoedByContract = new WeakMap<Contract, EchoedProperties>();

/** The {@link EchoedProperties} of a contract, computed once. */
export function echoedProperties(contract: Contract): EchoedProperties {
  let found = echoedByContract.get(contract);
  if (!found) {
    const plant = objectView(contract.compiled.plant.schema).properties;
    const newPlant = objectView(contract.compiled.newPlant.schema).properties;
    // The canonical schema keeps no annotations: defaults are read from the schema as written.
    const written = objectView(contract.schemas.plant).declarations;
    const defaulted = [...plant.keys()].filter((name) => written.get(name)?.some((schema) => 'default' in schema));
    found = { echoed: [...plant.keys()].filter((name) => newPlant.has(name)), defaulted: new Set(defaulted) };
    echoedByContract.set(contract, found);
  }
  return found;
}

interface Located {
  readonly value: unknown;
  readonly parent: object;
  readonly key: string | number;
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** A JSON number text as sign, significant digits and exponent: equal values give equal forms. */
function normalNumber(text: string): string {
  const match = DECIMAL.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let digits = (whole + fraction).replace(/^0+/, '');
  if (digits === '') return '0';
  let power = BigInt(exponent) - BigInt(fraction.length);
  const trimmed = digits.replace(/0+$/, '');
  power += BigInt(digits.length - trimmed.length);
  digits = trimmed;
  return `${sign}${digits}e${power}`;
}

function textOf(at: Located): string {
  return numberText(at.parent, at.key) ?? String(at.value);
}

/**
 * Where two values parsed by `parseExactJson` differ, as a JSON pointer below `pointer`, or
 * `undefined` when they are the same JSON value: numbers equal by exact decimal value (`1.0` is `1`,
 * digits beyond 2^53 count), strings code unit for code unit, objects regardless of key order.
 */
export function firstDifference(sent: Located, got: Located, pointer = ''): string | undefined {
  const a = sent.value;
  const b = got.value;
  if (typeof a === 'number' || typeof b === 'number') {
    if (typeof a !== 'number' || typeof b !== 'number') return pointer;
    return normalNumber(textOf(sent)) === normalNumber(textOf(got)) ? undefined : pointer;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return pointer;
    for (let index = 0; index < a.length; index++) {
      const found = firstDifference(
        { value: a[index], parent: a, key: index },
        { value: b[index], parent: b, key: index },
        `${pointer}/${index}`,
      );
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    const keys = Object.keys(left);
    if (keys.length !== Object.keys(right).length) return pointer;
    for (const key of keys) {
      if (!Object.hasOwn(right, key)) return `${pointer}/${escapePointer(key)}`;
      const found = firstDifference(
        { value: left[key], parent: left, key },
        { value: right[key], parent: right, key },
        `${pointer}/${escapePointer(key)}`,
      );
      if (found !== undefined) return found;
    }
    return undefined;
  }
  return a === b ? undefined : pointer;
}

/** A value at a place of its parent, as {@link firstDifference} takes it. */
export function located(parent: object, key: string | number): Located {
  return { value: (parent as Record<string | number, unknown>)[key], parent, key };
}
