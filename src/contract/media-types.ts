/** A media type's essence: `application/problem+json` of `Application/Problem+JSON; charset=utf-8` (RFC 9110, 8.3.1). */
export function mediaTypeEssence(mediaType: string): string {
  return (mediaType.split(';', 1)[0] ?? '').trim().toLowerCase();
}

/** Whether an essence says JSON: `application/json`, or a type with the `+json` suffix (RFC 6839). */
export function isJsonEssence(essence: string): boolean {
  return essence === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(essence);
}
