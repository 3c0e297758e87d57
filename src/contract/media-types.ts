/** A media type's essence: `application/problem+json` of `Application/Problem+JSON; charset=utf-8` (RFC 9110, 8.3.1). */
export function mediaTypeEssence(mediaType: string): string {
  return (mediaType.split(';', 1)[0] ?? '').trim().toLowerCase();
}

/** Whether an essence says JSON: `application/json`, or a type with the `+json` suffix (RFC 6839). */
export function isJsonEssence(essence: string): boolean {
  return essence === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(essence);
}

const READERS = new WeakMap<readonly string[], (essence: string) => boolean>();

/**
 * The request media types a document declares that read as JSON: JSON types (`+json` ones too), `text/json`
 * (ASP.NET Core's input formatter reads it, and Swashbuckle lists it) and a range of `+json` types
 * (`application/*+json`). Form and other types are not JSON. One reader per list (a contract's), shared by serve,
 * the mock and the proxy.
 */
export function declaredJsonTypes(declared: readonly string[]): (essence: string) => boolean {
  const known = READERS.get(declared);
  if (known !== undefined) return known;
  const exact = new Set(declared.filter((essence) => isJsonEssence(essence) || essence === 'text/json'));
  const ranges = declared.flatMap((essence) => {
    const range = /^([a-z0-9!#$&^_.+-]+)\/\*\+json$/.exec(essence);
    return range?.[1] === undefined ? [] : [range[1]];
  });
  const reads = (essence: string): boolean =>
    exact.has(essence) || (isJsonEssence(essence) && ranges.some((type) => essence.startsWith(`${type}/`)));
  READERS.set(declared, reads);
  return reads;
}

/**
 * Whether an essence is a media range a JSON body meets: `*\/*`, `application/*` (springdoc keys every answer of a
 * controller without `produces` so) or a range of `+json` types (`application/*+json`, as ASP.NET Core lists).
 */
export function isJsonRange(essence: string): boolean {
  return essence === '*/*' || essence === 'application/*' || /^[a-z0-9!#$&^_.+-]+\/\*\+json$/.test(essence);
}

/**
 * Whether a Content map key describes JSON bodies: a JSON type or a range a JSON body meets, written in any case and
 * with parameters (`Application/JSON; charset=utf-8`).
 */
export function isJsonContentKey(key: string): boolean {
  const essence = mediaTypeEssence(key);
  return isJsonEssence(essence) || isJsonRange(essence);
}

/**
 * How closely a content key's essence describes a body of `essence` (RFC 9110, 12.5.1: the more specific range
 * wins): 4 its own type, 3 a range of `+json` types it is one of, 2 its type's range (`application/*`), 1 `*\/*`,
 * 0 none.
 */
function closeness(written: string, essence: string): number {
  if (written === essence) return 4;
  const [type = '', subtype = ''] = essence.split('/', 2);
  if (written === `${type}/*+json` && subtype.endsWith('+json')) return 3;
  if (written === `${type}/*`) return 2;
  return written === '*/*' ? 1 : 0;
}

/** Whether a Content-Type's essence meets one of the content keys (`application/json`, `application/*`, `*\/*`). */
export function meetsMediaType(contentType: string, keys: readonly string[]): boolean {
  const essence = mediaTypeEssence(contentType);
  return keys.some((key) => closeness(mediaTypeEssence(key), essence) > 0);
}

/**
 * The Content map key that describes a body labelled `contentType`: the closest key it meets (its own type, then a
 * range). Without a label, or for one no key meets, the first JSON type's key, else the first JSON range's (the
 * body's schema as far as the document says it). `undefined` when neither.
 */
export function contentKeyFor(keys: readonly string[], contentType?: string): string | undefined {
  if (contentType !== undefined) {
    const essence = mediaTypeEssence(contentType);
    let best: { key: string; closeness: number } | undefined;
    for (const key of keys) {
      const close = closeness(mediaTypeEssence(key), essence);
      if (close > (best?.closeness ?? 0)) best = { key, closeness: close };
    }
    if (best !== undefined) return best.key;
  }
  return (
    keys.find((key) => isJsonEssence(mediaTypeEssence(key))) ?? keys.find((key) => isJsonRange(mediaTypeEssence(key)))
  );
}
