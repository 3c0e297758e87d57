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
