import type { PlannedRequest } from './probe.js';

/**
 * What a request was, in words that hold no generated value: the phrase a check's `defect` uses,
 * so checks that fail on the same answer to the same kind of request name one defect.
 * `detail` adds what kind of invalid body or bad credential it was (for an acceptance, where that
 * kind is the root cause; a wrong refusal status is one defect whatever the body).
 */
export function requestKind(plan: PlannedRequest, detail = false): string {
  const { intent } = plan;
  switch (intent.kind) {
    case 'valid':
      return 'a valid NewPlant';
    case 'valid-variant':
      return `a valid NewPlant with its ${intent.writtenAs.aspect} written another way`;
    case 'invalid-body':
      return detail ? `an invalid body (${shapeOf(intent.what)})` : 'an invalid body';
    case 'media-type':
      return detail ? `a body sent with ${shapeOf(intent.what)}` : 'a body of another media type';
    case 'auth':
      return detail ? `a request with ${shapeOf(intent.what)}` : 'a request without a valid credential';
    case 'unpredictable':
      return 'JSON of unpredictable meaning';
    case 'repeat':
      return 'a repeated id';
  }
}

/** A quoted piece of a message, and a quoted plain name (a field, a code): the one kind kept. */
const QUOTED = /"(?:[^"\\]|\\.)*"/g;
const PLAIN_NAME = /^"[A-Za-z_][\w-]{0,40}"$/;
/** Numbers that are values (not a label's `20,000`). */
const NUMBER = /(?<![\d,.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\d,])/g;

/** Text with each quoted value that is not a plain name replaced by `"…"`. */
export function withoutQuotedValues(text: string): string {
  return text.replace(QUOTED, (quoted) => (PLAIN_NAME.test(quoted) ? quoted : '"…"'));
}

/** A description with its generated values (numbers, quoted text) replaced. */
export function shapeOf(what: string): string {
  return withoutQuotedValues(what).replace(NUMBER, '#');
}
