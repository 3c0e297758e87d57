import { pointerSegments } from '../../contract/document-pointer.js';
import { numberText } from '../../contract/index.js';

/** What a JSON pointer finds in a parsed value: the value, and a number's text as written. */
export type Found =
  { readonly present: false } | { readonly present: true; readonly value: unknown; readonly text?: string };

/** Follows a JSON pointer (RFC 6901) through a value parsed by `parseExactJson`. */
export function valueAt(root: unknown, pointer: string): Found {
  if (pointer === '') return { present: true, value: root };
  let parent: unknown = undefined;
  let key: string | number = '';
  let node: unknown = root;
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(node)) {
      const index = Number(segment);
      if (!Number.isInteger(index) || index < 0 || index >= node.length) return { present: false };
      parent = node;
      key = index;
      node = node[index];
    } else if (node !== null && typeof node === 'object' && Object.hasOwn(node, segment)) {
      parent = node;
      key = segment;
      node = (node as Record<string, unknown>)[segment];
    } else {
      return { present: false };
    }
  }
  const text =
    typeof node === 'number' && parent !== null && typeof parent === 'object' ? numberText(parent, key) : undefined;
  return text === undefined ? { present: true, value: node } : { present: true, value: node, text };
}
