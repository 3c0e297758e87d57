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

/** Quoted values that are not plain names, and numbers (not a label's `20,000`): generated values. */
const QUOTED_VALUE = /"(?![A-Za-z_][\w-]{0,40}")(?:[^"\\]|\\.)*"/g;
const NUMBER = /(?<![\d,.])-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\d,])/g;

/** A description with its generated values (numbers, quoted text) replaced. */
export function shapeOf(what: string): string {
  return what.replace(QUOTED_VALUE, '"…"').replace(NUMBER, '#');
}
