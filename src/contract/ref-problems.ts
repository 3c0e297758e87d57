import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { DocumentProblem } from './contract-error.js';
import { pointerSegments, type DocumentFiles } from './document-pointer.js';
import { escapePointer } from './operations.js';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * swagger-parser's one-line failures that name a `$ref` or a field, placed where the document writes
 * them and said with how to fix them; `undefined` for any other message.
 */
export function locatedParserProblems(
  message: string,
  document: JsonObject,
  error?: unknown,
  files?: DocumentFiles,
): DocumentProblem[] | undefined {
  const missing = /Missing \$ref pointer "([^"]*)"/.exec(message);
  if (missing?.[1] !== undefined) {
    const site = files && refSite(error, files);
    return site ? missingInFile(missing[1], document, site, files) : missingTarget(missing[1], document);
  }
  const twice = /^Error parsing (\S+?): Map keys must be unique at line (\d+), column (\d+)/.exec(message);
  if (twice?.[1] !== undefined)
    return [{ pointer: '', message: duplicateKeyIn(twice[1], Number(twice[2]), Number(twice[3])) }];
  const escape = /^Error parsing (\S+?): Invalid escape sequence (\S+) at line (\d+), column (\d+)/.exec(message);
  if (escape?.[1] !== undefined && escape[2] !== undefined) {
    const [, file, sequence, line, column] = escape;
    const text =
      `${file} is not valid YAML: ${sequence} inside double quotes is no YAML escape (line ${line}, column ${column}); ` +
      `write the text in single quotes, which keep every backslash ('…${sequence}…'), or double the backslash ("…\\${sequence}…").`;
    return [{ pointer: '', message: text }];
  }
  const download = /^Error downloading (\S+?): (.*)$/.exec(message);
  if (download?.[1] !== undefined) return unreachableUrl(download[1], download[2] ?? '', document);
  const unresolved = /^Unable to resolve \$ref pointer "(https?:\/\/[^"#]+)/.exec(message);
  if (unresolved?.[1] !== undefined) return unreachableUrl(unresolved[1], 'no answer', document);
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
  const local = localDefinition(document, segments);
  const fix = local === undefined ? 'fix the name or add the schema' : local;
  const text = `the $ref "${ref}" points to nothing: there is no "${segments.at(-1) ?? ''}" under #${fragment.slice(0, fragment.lastIndexOf('/'))}${hint}; ${fix}.`;
  return (at.length > 0 ? at : ['']).map((pointer) => ({ pointer, message: text }));
}

/**
 * For `#/$defs/Id` (or `#/definitions/Id`) missing at the document's root: the component schema whose own
 * `$defs` holds `Id`, and what to write. A `#` fragment is resolved from the document (the schema has no `$id`
 * of its own), so a component's local definitions need their full pointer.
 */
function localDefinition(document: JsonObject, segments: readonly string[]): string | undefined {
  const [holder, name, ...rest] = segments;
  if ((holder !== '$defs' && holder !== 'definitions') || name === undefined || rest.length > 0) return undefined;
  const components = document.components;
  const schemas = isObject(components) ? components.schemas : undefined;
  if (!isObject(schemas)) return undefined;
  const owner = Object.entries(schemas).find(([, schema]) => {
    const defs = isObject(schema) ? schema[holder] : undefined;
    return isObject(defs) && Object.hasOwn(defs, name);
  })?.[0];
  if (owner === undefined) return undefined;
  const full = `#/components/schemas/${escapePointer(owner)}/${holder}/${escapePointer(name)}`;
  return (
    `a "#" pointer starts at the document's root, not at the schema it is written in, and "${name}" is under ` +
    `the ${holder} of ${owner}: write $ref: '${full}'`
  );
}

/**
 * Where a missing `$ref` target was looked for and where the `$ref` is written, from json-schema-ref-parser's
 * MissingPointerError: `source` is the file looked in; `parentPath` is `file#pointer` of the `$ref`, or only
 * `#pointer` when it is written in that same file. Undefined when both are the document itself.
 */
function refSite(error: unknown, files: DocumentFiles): RefSite | undefined {
  const { source, parentPath } = (error ?? {}) as { source?: unknown; parentPath?: unknown };
  if (typeof source !== 'string' || typeof parentPath !== 'string') return undefined;
  const hash = parentPath.indexOf('#');
  const refFile = hash > 0 ? parentPath.slice(0, hash) : source;
  const refPointer = hash === -1 ? '' : parentPath.slice(hash + 1);
  const site = { target: source, refFile, refPointer };
  return sameFile(source, files.source) && sameFile(refFile, files.source) ? undefined : site;
}

interface RefSite {
  readonly target: string;
  readonly refFile: string;
  readonly refPointer: string;
}

function sameFile(a: string, b: string): boolean {
  return /^https?:\/\//i.test(a) || /^https?:\/\//i.test(b) ? a === b : resolve(a) === resolve(b);
}

function shownFile(file: string, files: DocumentFiles): string {
  return /^https?:\/\//i.test(file) ? file : relative(dirname(resolve(files.source)), resolve(file));
}

/** A missing `$ref` target in another file of the document, or a `$ref` written in another file. */
function missingInFile(ref: string, document: JsonObject, site: RefSite, files: DocumentFiles): DocumentProblem[] {
  const inRoot = sameFile(site.refFile, files.source);
  const targetRoot = sameFile(site.target, files.source) ? document : files.read(site.target);
  const [, fragment = ''] = ref.split('#');
  const segments = pointerSegments(`#${fragment}`);
  const parent = segments
    .slice(0, -1)
    .reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), targetRoot);
  const known = isObject(parent) ? Object.keys(parent) : [];
  const hint =
    known.length > 0
      ? ` (${known.length === 1 ? 'it holds' : 'those there are'} ${known.slice(0, 12).join(', ')})`
      : '';
  const name = shownFile(site.target, files);
  const under =
    segments.length <= 1
      ? `at the top of ${name}`
      : `under #${fragment.slice(0, fragment.lastIndexOf('/'))} in ${name}`;
  const at = inRoot ? refsTo(document, (value) => value.endsWith(`#${fragment}`) && !value.startsWith('#')) : [];
  const written = at.length === 1 ? refAt(document, at[0] ?? '') : undefined;
  const where = inRoot ? '' : `in ${shownFile(site.refFile, files)} at ${site.refPointer || '/'}, `;
  const text = `${where}the $ref "${written ?? ref}" points to nothing: there is no "${segments.at(-1) ?? ''}" ${under}${hint}; fix the name or add the schema.`;
  return (at.length > 0 ? at : ['']).map((pointer) => ({ pointer, message: text }));
}

function refAt(document: JsonObject, pointer: string): string | undefined {
  const value = pointerSegments(pointer).reduce<unknown>(
    (node, key) => (isObject(node) ? node[key] : undefined),
    document,
  );
  return typeof value === 'string' ? value : undefined;
}

/** A key written twice in another file of the document, named (YAML allows each key once). */
function duplicateKeyIn(file: string, line: number, column: number): string {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // An URL, or a file gone since: the place alone.
  }
  const written = text.split(/\r?\n/)[line - 1]?.slice(Math.max(0, column - 1)) ?? '';
  const key = /^(['"]?)(.*?)\1\s*:/.exec(written)?.[2];
  const what = key === undefined ? 'a key' : `the key "${key}"`;
  return `${file} is not valid YAML: ${what} is written twice in one mapping (line ${line}, column ${column}); YAML allows each key once: keep one.`;
}

function unreachableUrl(url: string, reason: string, document: JsonObject): DocumentProblem[] {
  const at = refsTo(document, (value) => (value.split('#')[0] ?? '') === url);
  const text =
    `the $ref names ${url}, which could not be downloaded (${reason.replace(/\.$/, '')}); check the address, ` +
    'or save that file beside the document and $ref it by a relative path.';
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
