import type { DocumentProblem } from './contract-error.js';
import { pointerSegments } from './document-pointer.js';
import { escapePointer } from './operations.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * swagger-parser's one-line failures that name a `$ref` or a field, placed where the document writes
 * them and said with how to fix them; `undefined` for any other message.
 */
export function locatedParserProblems(message: string, document: JsonObject): DocumentProblem[] | undefined {
  const missing = /Missing \$ref pointer "([^"]*)"/.exec(message);
  if (missing?.[1] !== undefined) return missingTarget(missing[1], document);
  const unopened = /Error (?:opening|reading) file (\S+?):/.exec(message);
  if (unopened?.[1] !== undefined) return unreadableFile(unopened[1], message, document);
  if (/^API version number must be a string/.test(message)) {
    return [{ pointer: '/info/version', message: `${message} Quote it in YAML: version: '1.0'.` }];
  }
  return undefined;
}

function missingTarget(ref: string, document: JsonObject): DocumentProblem[] {
  const at = refsTo(document, (value) => value === ref || value.endsWith(ref));
  const [, fragment = ''] = ref.split('#');
  const segments = pointerSegments(`#${fragment}`);
  const parent = segments
    .slice(0, -1)
    .reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), document);
  const known = isObject(parent) ? Object.keys(parent) : [];
  const hint =
    known.length > 0
      ? ` (${known.length === 1 ? 'it holds' : 'those there are'} ${known.slice(0, 12).join(', ')})`
      : '';
  const text = `the $ref "${ref}" points to nothing: there is no "${segments.at(-1) ?? ''}" under #${fragment.slice(0, fragment.lastIndexOf('/'))}${hint}; fix the name or add the schema.`;
  return (at.length > 0 ? at : ['']).map((pointer) => ({ pointer, message: text }));
}

function unreadableFile(path: string, message: string, document: JsonObject): DocumentProblem[] {
  const file = path.split('/').at(-1) ?? path;
  const at = refsTo(document, (value) => (value.split('#')[0] ?? '').endsWith(file));
  const reason = /ENOENT/.test(message) ? 'does not exist' : 'cannot be read';
  const text = `the $ref names the file ${path}, which ${reason}; a relative $ref is read from the document's own folder.`;
  return (at.length > 0 ? at : ['']).map((pointer) => ({ pointer, message: text }));
}

/** Pointers of the `$ref` members whose value passes `matches`, in document order (at most 5). */
function refsTo(document: JsonObject, matches: (value: string) => boolean): string[] {
  const found: string[] = [];
  const visit = (node: unknown, pointer: string): void => {
    if (found.length >= 5 || node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      const here = `${pointer}/${escapePointer(key)}`;
      if (key === '$ref' && typeof value === 'string' && matches(value)) found.push(here);
      else visit(value, here);
    }
  };
  visit(document, '');
  return found;
}
