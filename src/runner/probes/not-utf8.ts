import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import type { ExactJson } from '../../contract/schema/index.js';
import { isExactObject, setOwnMember } from '../../contract/schema/json.js';
import { draftStrings, newPlantArbitrary, renderPlant, withFreshIds, type PlantDraft } from '../generate/new-plant.js';
import { objectView } from '../../contract/object-view.js';
import { defineProbe, PLANTS_PATH, type PlannedRequest } from '../probe.js';

/** Byte sequences RFC 3629 makes invalid in UTF-8, each as a reader of the report would name it. */
const SEQUENCES = [
  { bytes: [0xff], what: 'a lone byte 0xFF' },
  { bytes: [0xe2, 0x82], what: 'a truncated sequence 0xE2 0x82' },
  { bytes: [0xc0, 0xaf], what: 'an overlong encoding 0xC0 0xAF' },
  { bytes: [0xed, 0xa0, 0x80], what: 'an encoded surrogate 0xED 0xA0 0x80' },
] as const;

/** Where the bytes go: appended to a top-level string, to a string nested in a member, or as a member's name. */
type Place = 'string' | 'nested' | 'member-name';

/**
 * Every sequence in a top-level string; the lone byte also in a nested string and in a member name. The encoded
 * surrogate goes last: a decoder failing on other bytes too keeps one of those as its first case, apart from a
 * reader that only fails on the surrogate it decodes (findings.ts, withEncodedSurrogateCrashesFolded).
 */
const VARIANTS: readonly { readonly place: Place; readonly sequence: (typeof SEQUENCES)[number] }[] = [
  ...SEQUENCES.slice(0, 3).map((sequence) => ({ place: 'string' as const, sequence })),
  { place: 'nested', sequence: SEQUENCES[0] },
  { place: 'member-name', sequence: SEQUENCES[0] },
  { place: 'string', sequence: SEQUENCES[3] },
];

/** Stands where the bytes go while the body is written as JSON text: ASCII, so written as it is. */
const MARKER = 'plantstore-not-utf8-7d1e';

interface NotUtf8Value {
  readonly draft: PlantDraft;
  readonly variant: number;
}

/**
 * A NewPlant carrying bytes that are not valid UTF-8 (a lone 0xFF, a truncated sequence, an overlong encoding, an
 * encoded surrogate) in its name, in a nested string, or in a member's name. RFC 8259 (8.1) says JSON text SHALL be
 * UTF-8, but the contract does not say what a server does with such bytes: Express's body-parser and Go read them as
 * U+FFFD, others refuse them. Either is fine; crashing is not. Only the answer's form is judged, every run the same
 * six cases (each id fresh), so no seed decides whether a decoder that throws is found.
 */
export const notUtf8Bodies = defineProbe<NotUtf8Value>({
  name: 'not-utf8',
  title: 'a NewPlant whose bytes are not valid UTF-8 (in its name, a nested string, a member name)',
  share: 0,
  variants: () => VARIANTS.length,
  arbitrary: (contract, variant) =>
    fc.record({ draft: newPlantArbitrary(contract), variant: fc.constant(variant % VARIANTS.length) }),
  plan: ({ draft, variant }, { contract, fresh, salt }) => {
    const { place, sequence } = VARIANTS[variant] ?? VARIANTS[0]!;
    const declared = new Set(objectView(contract.compiled.newPlant.schema).properties.keys());
    const marked = markedDraft(withFreshIds(draft), place, declared);
    const text = renderPlant(marked.draft, fresh, salt).text;
    const bytes = withBytes(text, Uint8Array.from(sequence.bytes));
    const where = marked.at === undefined ? 'a member name' : marked.at === '' ? 'the body' : `"${marked.at}"`;
    const plan: PlannedRequest = {
      method: 'POST',
      path: PLANTS_PATH,
      auth: { kind: 'token', scheme: 'Bearer' },
      contentType: 'application/json',
      body: Buffer.from(bytes).toString('utf8'),
      bodyBytes: bytes,
      intent: { kind: 'unpredictable', notUtf8: true, what: `${where} holding ${sequence.what} (not valid UTF-8)` },
    };
    return [plan];
  },
});

/** The text with {@link MARKER} replaced by `bytes`. */
function withBytes(text: string, bytes: Uint8Array): Uint8Array {
  const at = text.indexOf(MARKER);
  // A document whose NewPlant is no object and holds no string (a number): a JSON string of the bytes alone.
  if (at < 0) return Buffer.concat([Buffer.from('"'), bytes, Buffer.from('"')]);
  return Buffer.concat([Buffer.from(text.slice(0, at)), bytes, Buffer.from(text.slice(at + MARKER.length))]);
}

/**
 * The draft with {@link MARKER} where the bytes go, and the member it went into (`care.light`; undefined for a
 * member name). A document without the place asked for gets the next one that is there: a nested string falls back
 * to a top-level one, that to a member's name.
 */
function markedDraft(
  draft: PlantDraft,
  place: Place,
  declared: ReadonlySet<string>,
): { draft: PlantDraft; at?: string } {
  const value = draft.value;
  if (!isExactObject(value)) {
    const marked = marking(value);
    return marked === undefined ? { draft } : { draft: { ...draft, value: marked.value }, at: marked.path.join('.') };
  }
  const body = Object.create(null) as Record<string, ExactJson>;
  for (const key of Object.keys(value)) setOwnMember(body, key, value[key]);
  const nested = place === 'nested' ? nestedString(body, declared) : undefined;
  if (nested !== undefined) return { draft: { ...draft, value: body }, at: nested };
  const [top] = place === 'member-name' ? [] : draftStrings(draft);
  if (top !== undefined) {
    setOwnMember(body, top[0], `${top[1]}${MARKER}`);
    return { draft: { ...draft, value: body }, at: top[0] };
  }
  setOwnMember(body, MARKER, 1n);
  return { draft: { ...draft, value: body } };
}

/**
 * Marks the first string nested in a member of `body` the document declares (depth first, copying what it changes:
 * not in an extra member the generator added) and names its path, or leaves `body` as it is and returns undefined.
 */
function nestedString(body: Record<string, ExactJson>, declared: ReadonlySet<string>): string | undefined {
  for (const key of Object.keys(body)) {
    if (!declared.has(key)) continue;
    const member = body[key];
    if (member === null || typeof member !== 'object' || !(Array.isArray(member) || isExactObject(member))) continue;
    const marked = marking(member);
    if (marked === undefined) continue;
    setOwnMember(body, key, marked.value);
    return [key, ...marked.path].join('.');
  }
  return undefined;
}

/** `value` with its first string marked, and the path to it; undefined when it holds no string. */
function marking(value: ExactJson): { value: ExactJson; path: string[] } | undefined {
  if (typeof value === 'string') return { value: `${value}${MARKER}`, path: [] };
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const marked = marking(item);
      if (marked !== undefined)
        return {
          value: value.map((old, at) => (at === index ? marked.value : old)),
          path: [String(index), ...marked.path],
        };
    }
    return undefined;
  }
  if (!isExactObject(value)) return undefined;
  for (const key of Object.keys(value)) {
    const marked = marking(value[key] as ExactJson);
    if (marked === undefined) continue;
    const copy = Object.create(null) as Record<string, ExactJson>;
    for (const other of Object.keys(value)) setOwnMember(copy, other, other === key ? marked.value : value[other]);
    return { value: copy, path: [key, ...marked.path] };
  }
  return undefined;
}

/** An encoded surrogate: 0xED then 0xA0–0xBF (a high or low surrogate's lead) and a continuation byte. */
const ENCODED_SURROGATE = /\xed[\xa0-\xbf][\x80-\xbf]/g;

/**
 * Whether the only bytes of `bytes` that are not UTF-8 encode surrogates (`0xED 0xA0 0x80` for U+D800). Such a body is
 * a lone surrogate to the readers that take them (Python's `json.loads(bytes)` decodes with `surrogatepass`; CESU-8 and
 * Java's modified UTF-8 readers): a crash on it beside a crash on the escape `"\ud800"` is that crash again.
 */
export function encodesSurrogatesOnly(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes).toString('latin1');
  const rest = text.replace(ENCODED_SURROGATE, '');
  return rest.length < text.length && isUtf8(Buffer.from(rest, 'latin1'));
}
