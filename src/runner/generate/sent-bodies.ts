import { parseExactJson, parsedFormOf } from '../../contract/exact-json.js';

/**
 * The values the latest body texts were written from (`stringifyExactJson(value)` is the text), so
 * that judging a case reads its body from that value instead of parsing the text again. Keyed by the
 * text itself: a plan copied or rebuilt around the same body still finds it, and any other text is
 * parsed as before. Bounded, and each is let go once read: the cases in flight are the latest rendered.
 */
const writtenFrom = new Map<string, unknown>();
const KEPT = 64;

/** Notes that `text` is `stringifyExactJson(value)`. */
export function noteWrittenBody(text: string, value: unknown): void {
  if (writtenFrom.size >= KEPT) {
    const oldest = writtenFrom.keys().next();
    if (oldest.done !== true) writtenFrom.delete(oldest.value);
  }
  writtenFrom.set(text, value);
}

/**
 * A sent body as `parseExactJson(text)` reads it (and throws as it does): built from the value it was
 * written from when that body was rendered lately and not read since (see `parsedFormOf`), else parsed.
 */
export function readSentBody(text: string): unknown {
  const value = writtenFrom.get(text);
  if (value === undefined) return parseExactJson(text);
  writtenFrom.delete(text);
  return parsedFormOf(value) ?? parseExactJson(text);
}
