/**
 * Whether two parsed JSON values are equal as JSON Schema compares them (`enum`, `const`, `uniqueItems`):
 * the same type and value, arrays item by item, objects by their members whatever the order. It reads
 * only own enumerable members: `parseExactJson` makes objects without a prototype (so `__proto__` is an
 * ordinary key), on which ajv's own equality (fast-deep-equal) calls a `valueOf` they do not have, and
 * which it never finds equal to a document's plain object (their constructors differ).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!jsonEqual(a[index], b[index])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  for (const key of keys) if (!Object.hasOwn(right, key) || !jsonEqual(left[key], right[key])) return false;
  return true;
}

/** How ajv's generated code names its equality: ajv reads `code` from the function it is given. */
jsonEqual.code = 'require("ajv/dist/runtime/equal").default';

/**
 * Makes ajv's runtime equality module (`ajv/dist/runtime/equal`, whose `default` ajv reads each time it
 * compiles an `enum`, `const` or `uniqueItems`) give {@link jsonEqual}.
 */
export function useJsonEqual(runtimeEqual: { default: unknown }): void {
  runtimeEqual.default = jsonEqual;
}
