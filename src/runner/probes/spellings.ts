import fc from 'fast-check';
import { draftStrings, newPlantArbitrary, renderIfValid, renderPlant, type PlantDraft } from '../generate/new-plant.js';
import { defineProbe } from '../probe.js';
import { validRequest, writtenTwins } from './valid-plants.js';

/** Ways JSON lets a string be written with escapes; a JSON parser must read each as the same string. */
const STRING_ESCAPES = ['every character as \\uXXXX', 'solidus as \\/, non-ASCII as \\uXXXX'] as const;
type StringEscape = (typeof STRING_ESCAPES)[number];

/** What the escaped name always holds besides the drawn text: a solidus and an astral character. */
const ESCAPED_SUFFIX = ' a/b 🌱';

function hex(unit: number, upper: boolean): string {
  const digits = unit.toString(16).padStart(4, '0');
  return `\\u${upper ? digits.toUpperCase() : digits}`;
}

/** `value` as JSON string text, escaped the given way (surrogate pairs as two escapes). */
export function escapedJsonString(value: string, escape: StringEscape): string {
  let text = '';
  for (let index = 0; index < value.length; index++) {
    const unit = value.charCodeAt(index);
    const char = value[index] ?? '';
    if (escape === 'every character as \\uXXXX') text += hex(unit, false);
    else if (char === '/') text += '\\/';
    else if (unit > 0x7e || unit < 0x20 || char === '"' || char === '\\') text += hex(unit, true);
    else text += char;
  }
  return `"${text}"`;
}

/**
 * A valid NewPlant whose name is written with JSON escapes (`\u00e9`, a surrogate pair as
 * `\ud83c\udf31`, `\/`). A serializer never writes these, but any client may, and a JSON parser
 * must read them as the same string: rule 1 says 200, and the echo carries the decoded name.
 */
export const stringEscapes = defineProbe<{ draft: PlantDraft; escape: StringEscape }>({
  name: 'string-escape',
  title: 'valid NewPlants whose name is written with JSON escapes (\\uXXXX, surrogate pairs, \\/)',
  share: 0.05,
  variants: () => STRING_ESCAPES.length,
  arbitrary: (contract, variant) =>
    fc.record({
      draft: newPlantArbitrary(contract),
      escape: fc.constant(STRING_ESCAPES[variant % STRING_ESCAPES.length] ?? STRING_ESCAPES[0]),
    }),
  plan: ({ draft, escape }, { contract, fresh, salt }) => {
    const [field] = draftStrings(draft);
    if (field === undefined) return [validRequest(renderPlant(draft, fresh, salt))];
    const [name, text] = field;
    // The suffix (a solidus, an astral character) only where the document's constraints allow it.
    for (const value of [`${text}${ESCAPED_SUFFIX}`, text]) {
      const raw = new Map([[name, escapedJsonString(value, escape)]]);
      const { rendered, rewritten } = renderIfValid(contract, draft, fresh, salt, raw);
      if (!rewritten) continue;
      const note = `The "${name}" is written with JSON escapes (${escape}): the same string, which a JSON parser must decode.`;
      return [validRequest({ ...rendered, strings: { ...rendered.strings, [name]: value } }, 'Bearer', note)];
    }
    return [validRequest(renderPlant(draft, fresh, salt))];
  },
});

/** `application/json` as clients also write it: with a charset (RFC 8259: no effect), in other letter cases. */
const MEDIA_TYPE_SPELLINGS = ['application/json; charset=utf-8', 'Application/JSON', 'application/json;charset=UTF-8'];

/**
 * A valid NewPlant sent as `application/json`, then a twin sent as `application/json; charset=utf-8`
 * or `Application/JSON`. RFC 9110 makes the type case-insensitive and allows parameters, and RFC 8259
 * says a charset has no effect; but the contract writes `application/json`, so a refused twin (judged
 * only beside an accepted first) is a warning: clients such as jQuery add the charset.
 */
export const mediaTypeSpellings = defineProbe<{ draft: PlantDraft; mediaType: string }>({
  name: 'media-type-spelling',
  title: 'valid NewPlants sent as application/json; charset=utf-8 or Application/JSON',
  share: 0.03,
  variants: () => MEDIA_TYPE_SPELLINGS.length,
  arbitrary: (contract, variant) =>
    fc.record({
      draft: newPlantArbitrary(contract),
      mediaType: fc.constant(MEDIA_TYPE_SPELLINGS[variant % MEDIA_TYPE_SPELLINGS.length] ?? 'application/json'),
    }),
  plan: ({ draft, mediaType }, context) => writtenTwins(draft, context, 'media-type', { mediaType }),
});

/**
 * A valid NewPlant whose body arrives in two writes 150 ms apart, as over a slow network: a server
 * that parses the first read (one `InputStream.read()`, one `'data'` event) sees half a body.
 */
export const splitBodies = defineProbe<PlantDraft>({
  name: 'split-body',
  title: 'valid NewPlants whose body arrives in two pieces, 150 ms apart',
  share: 0.03,
  arbitrary: (contract) => newPlantArbitrary(contract),
  plan: (draft, { fresh, salt }) => {
    const note =
      'The body was sent in two pieces 150 ms apart (with its Content-Length), as a slow network delivers it: read it until Content-Length bytes have arrived.';
    return [{ ...validRequest(renderPlant(draft, fresh, salt), 'Bearer', note), splitBody: true }];
  },
});
