import { parseExactJson, stringifyExactJson, type Violation } from '../contract/index.js';
import type { CompiledSchema } from '../contract/schema/compiled-schema.js';

/**
 * Prism's answer text where `compiled` takes it under every reading of the document; else `generated` (a valid value
 * of the compiled schema) brought as near Prism's as the schema lets it ({@link nearMembers}); Prism's text when
 * nothing was generated. json-schema-faker misses constraints (exact int64, `multipleOf` beside bounds, 3.0's boolean
 * `exclusiveMinimum`, some formats) and knows no `discriminator` (its kinds are lorem words no mapping lists), while
 * the compiled schema's values are made to test servers (awkward strings, undeclared members such as `toString`): a
 * page under development reads Prism's plausible values better.
 */
export function nearPrism(
  compiled: CompiledSchema,
  text: string,
  generated: () => unknown,
  documented: (name: string) => readonly unknown[] = () => [],
): string {
  const { check, ambiguities } = compiled;
  const prism = readable(text);
  if (prism.ok && check(prism.value).length === 0 && ambiguities(prism.value).length === 0) return text;
  const value = generated();
  if (value === undefined) return text;
  // Where no value is valid under both readings (a discriminated oneOf whose every kind matches two branches as
  // written), the generated value follows the discriminator: its ambiguities are the ones to keep, no others.
  const allowed = new Set(ambiguities(parseExactJson(stringifyExactJson(value))).map(violationKey));
  const fits = (candidate: string): boolean => {
    const value = readable(candidate);
    if (!value.ok || check(value.value).length > 0) return false;
    return ambiguities(value.value).every((violation) => allowed.has(violationKey(violation)));
  };
  return nearMembers(value, prism.ok ? JSON.parse(text) : undefined, fits, documented);
}

/**
 * Each of Prism's members taken where the value's text still `fits` (not a kind no discriminator maps, not a member
 * that makes it match a second `oneOf` branch, not a value breaking its keyword), an object member brought near
 * Prism's in turn; where Prism's does not fit, the document's own value for the member (its `default`, `example` or
 * `examples`); then each member neither gave left out where it may be. In Prism's order. Built as text: the
 * generated value's integers keep every digit.
 */
function nearMembers(
  generated: unknown,
  prism: unknown,
  fits: (text: string) => boolean,
  documented: (name: string) => readonly unknown[] = () => [],
): string {
  if (Array.isArray(generated) && Array.isArray(prism)) return nearItems(generated, prism, fits);
  if (!isRecord(generated) || !isRecord(prism)) return stringifyExactJson(generated);
  let members = new Map(Object.keys(generated).map((name) => [name, stringifyExactJson(generated[name])]));
  const taken = new Set<string>();
  const tryEdit = (edit: (draft: Map<string, string>) => void): boolean => {
    const draft = new Map(members);
    edit(draft);
    if (!fits(objectText(draft))) return false;
    members = draft;
    return true;
  };
  for (const [name, value] of Object.entries(prism)) {
    const text = JSON.stringify(value) as string | undefined;
    // An object neither takes whole (a nested kind no mapping lists) is brought near Prism's in turn.
    const near = (draft: Map<string, string>): void => {
      const inner = (mended: string) => fits(objectText(new Map(draft).set(name, mended)));
      draft.set(name, nearMembers(generated[name], value, inner));
    };
    const nested = isContainer(value) && isContainer(generated[name]);
    if (text !== undefined && (tryEdit((draft) => draft.set(name, text)) || (nested && tryEdit(near)))) taken.add(name);
  }
  for (const name of Object.keys(generated)) {
    if (taken.has(name)) continue;
    const own = documented(name).map((value) => stringifyExactJson(value));
    if (!own.some((text) => tryEdit((draft) => draft.set(name, text)))) tryEdit((draft) => draft.delete(name));
  }
  const order = new Set([...Object.keys(prism), ...Object.keys(generated)].filter((name) => members.has(name)));
  return objectText(new Map([...order].map((name) => [name, members.get(name) ?? 'null'])));
}

/**
 * An array's items as {@link nearMembers} takes an object's members: Prism's item at each place where it fits (an
 * object or array item brought near it in turn), Prism's further items appended where they fit, and the generated
 * array's items past Prism's length dropped from the end where the array may be shorter.
 */
function nearItems(generated: readonly unknown[], prism: readonly unknown[], fits: (text: string) => boolean): string {
  let items = generated.map((item) => stringifyExactJson(item));
  const arrayText = (texts: readonly string[]): string => `[${texts.join(',')}]`;
  const tryItems = (draft: string[]): boolean => {
    if (!fits(arrayText(draft))) return false;
    items = draft;
    return true;
  };
  prism.forEach((value, index) => {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return;
    if (index >= items.length) return void tryItems([...items, text]);
    const at = (mended: string): string[] => items.map((item, place) => (place === index ? mended : item));
    if (tryItems(at(text)) || !isContainer(value) || !isContainer(generated[index])) return;
    const inner = (mended: string) => fits(arrayText(at(mended)));
    tryItems(at(nearMembers(generated[index], value, inner)));
  });
  while (items.length > prism.length && tryItems(items.slice(0, -1)));
  return arrayText(items);
}

function isContainer(value: unknown): boolean {
  return value !== null && typeof value === 'object';
}

function readable(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parseExactJson(text) };
  } catch {
    return { ok: false };
  }
}

/** An object's JSON text from its members' texts. */
function objectText(members: ReadonlyMap<string, string>): string {
  return `{${[...members].map(([name, text]) => `${JSON.stringify(name)}:${text}`).join(',')}}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function violationKey({ field, keyword, message }: Violation): string {
  return JSON.stringify([field, keyword, message]);
}
