import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dereferenceDocument, readDocument, type ExactIntegers } from './document-reader.js';
import { documentVersion } from './openapi-version.js';
import { DEFAULT_SPEC_PATH, PACKAGE_ROOT } from './package-files.js';

type JsonObject = Record<string, unknown>;
type Path = readonly (string | number)[];

/** What reading and dereferencing a document yields, before its schemas are compiled. */
export interface DocumentReadings {
  /** The document as written. */
  readonly raw: JsonObject;
  /** The document dereferenced: shared and recursive schemas are shared and cyclic objects. */
  readonly document: JsonObject;
  /** Integers written beyond 2^53, by the object of `document` holding them and their key. */
  readonly exactIntegers: ExactIntegers;
}

/**
 * Where the build writes the bundled `openapi.yaml` read and dereferenced (`build/bundle-cli.sh`), so
 * that loading it skips yaml and swagger-parser.
 */
export const PREBUILT_DOCUMENT_PATH = join(PACKAGE_ROOT, 'dist/contract/openapi.json');

/**
 * The document as JSON: a tree in which every object met again (a shared or recursive schema) is `null`,
 * with `links` saying where the first of it is, and the exact integers by the path of their object.
 */
interface Prebuilt {
  /** sha256 of the text it was built from: a document edited since is read again. */
  readonly sha256: string;
  readonly raw: FlatValue;
  readonly document: FlatValue;
  readonly exactIntegers: readonly (readonly [path: Path, key: string, value: string])[];
}

interface FlatValue {
  readonly tree: unknown;
  readonly links: readonly (readonly [at: Path, first: Path])[];
}

/** Reads and dereferences a document as `loadContract` does (without meta-validation); undefined when it cannot. */
export async function readReadings(source: string): Promise<DocumentReadings | undefined> {
  const raw = await readDocument(source);
  if ('problem' in raw) return undefined;
  const version = documentVersion(raw.document, source);
  if ('refused' in version) return undefined;
  const read = await dereferenceDocument(source, raw, version.dialect, false);
  if (!read.document || read.problems.length > 0) return undefined;
  return { raw: raw.document, document: read.document, exactIntegers: read.exactIntegers ?? new Map() };
}

/** The readings of a document written from its text, as JSON. */
export function prebuiltText(readings: DocumentReadings, text: string): string {
  const document = flatten(readings.document);
  const exactIntegers = [...readings.exactIntegers].flatMap(([object, entries]) => {
    const path = document.paths.get(object);
    if (path === undefined) throw new Error('an exact integer is held by an object outside the document');
    return [...entries].map(([key, value]) => [path, key, value.toString()] as const);
  });
  const { tree, links } = document;
  const prebuilt: Prebuilt = {
    sha256: sha256(text),
    raw: flatten(readings.raw),
    document: { tree, links },
    exactIntegers,
  };
  return JSON.stringify(prebuilt);
}

/** The readings of a prebuilt text, or undefined when it was built from another text than `text`. */
export function parsePrebuilt(prebuilt: string, text: string): DocumentReadings | undefined {
  const parsed = JSON.parse(prebuilt) as Prebuilt;
  if (parsed.sha256 !== sha256(text)) return undefined;
  const document = unflatten(parsed.document) as JsonObject;
  const exactIntegers = new Map<object, Map<string, bigint>>();
  for (const [path, key, value] of parsed.exactIntegers) {
    const object = at(document, path) as object;
    const entries = exactIntegers.get(object) ?? new Map<string, bigint>();
    entries.set(key, BigInt(value));
    exactIntegers.set(object, entries);
  }
  return { raw: unflatten(parsed.raw) as JsonObject, document, exactIntegers };
}

/** The bundled document's readings from the build, when the build wrote them from today's openapi.yaml. */
export async function prebuiltReadings(): Promise<DocumentReadings | undefined> {
  try {
    const [prebuilt, text] = await Promise.all([
      readFile(PREBUILT_DOCUMENT_PATH, 'utf8'),
      readFile(DEFAULT_SPEC_PATH, 'utf8'),
    ]);
    return parsePrebuilt(prebuilt, text);
  } catch {
    return undefined;
  }
}

/** Writes the bundled document's readings where {@link prebuiltReadings} finds them (the build calls it). */
export async function writePrebuiltDocument(): Promise<void> {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const readings = await readReadings(DEFAULT_SPEC_PATH);
  if (!readings) throw new Error(`${DEFAULT_SPEC_PATH} cannot be read: run plantstore validate on it`);
  await mkdir(join(PACKAGE_ROOT, 'dist/contract'), { recursive: true });
  await writeFile(PREBUILT_DOCUMENT_PATH, prebuiltText(readings, readFileSync(DEFAULT_SPEC_PATH, 'utf8')));
}

function sha256(text: string): string {
  return hash('sha256', text);
}

function flatten(root: unknown): FlatValue & { paths: Map<object, Path> } {
  const paths = new Map<object, Path>();
  const links: (readonly [Path, Path])[] = [];
  const walk = (value: unknown, path: Path): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const first = paths.get(value);
    if (first !== undefined) {
      links.push([path, first]);
      return null;
    }
    paths.set(value, path);
    if (Array.isArray(value)) return value.map((item: unknown, index) => walk(item, [...path, index]));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, [...path, key])]));
  };
  return { tree: walk(root, []), links, paths };
}

// A first occurrence is reached through first occurrences only, and links are leaves: any order works.
function unflatten({ tree, links }: FlatValue): unknown {
  for (const [path, first] of links) {
    const parent = at(tree, path.slice(0, -1)) as Record<string | number, unknown>;
    parent[path[path.length - 1] ?? ''] = at(tree, first);
  }
  return tree;
}

function at(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], root);
}
