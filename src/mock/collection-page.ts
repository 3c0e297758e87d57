import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';
import { parseExactJson } from '../contract/index.js';
import { documentedResponse, isObject } from '../contract/operations.js';
import type { ResponseSchemas } from './response-schemas.js';

/**
 * Members that count a page's items, by name without case, `_` or `-`: `total`, `count`, `totalCount`,
 * `total_items`, Spring Data's `totalElements` and `numberOfElements`. `size` and `limit` are left alone:
 * they are the page's capacity, not its count.
 */
const COUNT_NAMES = new Set([
  'total',
  'count',
  'totalcount',
  'totalitems',
  'totalresults',
  'totalelements',
  'totalsize',
  'numberofelements',
  'numberofitems',
  'itemcount',
  'itemscount',
  'resultcount',
]);

/** Members that count pages (`totalPages`, `pageCount`): one page, or none for an empty collection. */
const PAGE_COUNT_NAMES = new Set(['totalpages', 'pagecount', 'numberofpages']);

/** Members that point past this page (`next`, `nextCursor`, `next_page_token`, `nextLink`), and `hasMore`. */
const NEXT_NAME = /^(next(page|cursor|pagetoken|token|link|url|href)?|hasmore|hasnext|hasnextpage)$/;

/** A header that counts the collection, as json-server and many REST APIs send it. */
export const TOTAL_HEADERS: ReadonlySet<string> = new Set(['x-total-count', 'x-total', 'total-count']);

/** A collection answer made to agree with itself, and the number of items it holds. */
export interface ConsistentPage {
  readonly text: string;
  readonly items: number;
}

/**
 * A generated collection answer whose counts agree with its items. Recognised only where nothing else is
 * meant: the body is an array (its length counts it), or an object with exactly one array member (its items)
 * beside integer members named as counts (`total`, `count`, `totalElements`, see COUNT_NAMES). Those become
 * the number of items, page counts one (none when empty), and the page, now the whole collection, points
 * past itself no more (`next` null or left out, `hasMore` false). Each change is kept only where `fits` still
 * takes the body; `undefined` when the body is no collection (a page without counts changes nothing).
 */
export function consistentPage(text: string, fits: (text: string) => boolean): ConsistentPage | undefined {
  let value: unknown;
  try {
    value = parse(text);
  } catch {
    return undefined;
  }
  if (Array.isArray(value)) return { text, items: value.length };
  if (value === null || typeof value !== 'object') return undefined;
  const page = value as Record<string, unknown>;
  const arrays = Object.values(page).filter((member) => Array.isArray(member)) as unknown[][];
  const [items] = arrays;
  if (arrays.length !== 1 || items === undefined) return undefined;
  const counts = Object.keys(page).filter((name) => COUNT_NAMES.has(plainName(name)) && isInteger(page[name]));
  if (counts.length === 0) return undefined;
  const changes = pageChanges(page, counts, items.length);
  // Most pages take every change at once: one check.
  const whole = parse(text) as Record<string, unknown>;
  for (const [first] of changes) first?.(whole);
  const written = stringify(whole);
  if (written !== undefined && fits(written)) return { text: written, items: items.length };
  let current = text;
  for (const alternatives of changes) {
    for (const change of alternatives) {
      const draft = parse(current) as Record<string, unknown>;
      change(draft);
      const changed = stringify(draft);
      if (changed === undefined || !fits(changed)) continue;
      current = changed;
      break;
    }
  }
  return { text: current, items: items.length };
}

/** A change of a page member, with the alternatives to try, in order, where the schema refuses the first. */
type Change = readonly ((draft: Record<string, unknown>) => void)[];

function pageChanges(page: Record<string, unknown>, counts: readonly string[], count: number): Change[] {
  const changes: Change[] = counts.map((name) => [(draft) => (draft[name] = new LosslessNumber(String(count)))]);
  for (const name of Object.keys(page)) {
    const plain = plainName(name);
    if (PAGE_COUNT_NAMES.has(plain) && isInteger(page[name]))
      changes.push([(draft) => (draft[name] = new LosslessNumber(count > 0 ? '1' : '0'))]);
    if (!NEXT_NAME.test(plain) || page[name] === null) continue;
    if (typeof page[name] === 'boolean') changes.push([(draft) => (draft[name] = false)]);
    else changes.push([(draft) => (draft[name] = null), (draft) => delete draft[name]]);
  }
  return changes;
}

function plainName(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

function isInteger(value: unknown): boolean {
  return isLosslessNumber(value) && /^-?\d+$/.test(value.toString());
}

/** A generated answer of an operation, its collection made consistent, and the headers that count it. */
export type PageAnswer = (
  status: number,
  contentType: string,
  text: string,
) => { readonly text: string; readonly headers: Readonly<Record<string, string>> } | undefined;

/**
 * {@link consistentPage} for one operation's answers, with the documented headers that count the collection
 * (`X-Total-Count`) set to the number of items where their schema takes it; remembered per body text for
 * static answers (Prism's same sample each time).
 */
export function pageAnswers(operation: unknown, schemas: ResponseSchemas): PageAnswer {
  const known = new Map<string, ReturnType<PageAnswer>>();
  return (status, contentType, text) => {
    const key = `${status} ${contentType} ${text}`;
    if (known.has(key)) return known.get(key);
    const compiled = schemas.schemaOf(status, contentType);
    const fits = (written: string): boolean => compiled === undefined || checks(compiled.check, written);
    const page = consistentPage(text, fits);
    const answer =
      page === undefined
        ? undefined
        : { text: page.text, headers: countHeaders(operation, schemas, status, page.items) };
    if (known.size < 64) known.set(key, answer);
    return answer;
  };
}

/** The documented headers of the answer of `status` that count the collection, as `items` where they take it. */
function countHeaders(
  operation: unknown,
  schemas: ResponseSchemas,
  status: number,
  items: number,
): Readonly<Record<string, string>> {
  const response = documentedResponse(operation, status);
  const declared = isObject(response) && isObject(response.headers) ? response.headers : {};
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(declared)) {
    if (!TOTAL_HEADERS.has(name.toLowerCase()) || !isObject(header) || !isObject(header.schema)) continue;
    const compiled = schemas.compiled(header.schema);
    const text = String(items);
    if (compiled === undefined || checks(compiled.check, text) || checks(compiled.check, JSON.stringify(text)))
      headers[name.toLowerCase()] = text;
  }
  return headers;
}

function checks(check: (value: unknown) => readonly unknown[], text: string): boolean {
  try {
    return check(parseExactJson(text)).length === 0;
  } catch {
    return false;
  }
}
