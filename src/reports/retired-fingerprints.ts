/** Retired fingerprint → the current one, or the current ones of a finding since split. */
export type RetiredFingerprints = Readonly<Record<string, string | readonly string[]>>;

/**
 * Fingerprints an older plantstore gave a finding that this one gives another: retired → current. A fingerprint
 * hashes the defect's words, so rewording a finding's title (or regrouping its cause) changes it, and a CI baseline
 * written by the older plantstore would show the same defect as new (exit 1). A baseline is read through this table
 * (compareWithBaseline), so its retired fingerprints still match. Several current ones: the finding was split.
 *
 * Rewording a finding? src/fixtures/corpus.test.ts fails for each corpus finding whose fingerprint changed until its
 * old fingerprint is listed here (and the new one in src/fixtures/corpus-fingerprints.ts). Never remove an entry:
 * baseline files live in users' repositories for years.
 */
export const RETIRED_FINGERPRINTS: RetiredFingerprints = {
  // Recovered by running the faulty corpus at older commits (seed 20261122) and from the titles they wrote.
  // A fingerprint that still names a finding of its own today is never retired here, even where an older
  // plantstore gave it to more defects (`"name" not echoed as sent` before HTML escaping and trimming had findings
  // of their own, `status 400 for a valid NewPlant` before extra and `__proto__` members did): such a baseline
  // shows the more exact finding as new.
  // The right token under another scheme, titled by the scheme a seed drew first (3bee306 and before).
  '764ea496646944aa': '5fa6c7280c2cba2c', // a request with the right token under another scheme (Basic) accepted
  '5275a7b65bbedf60': '5fa6c7280c2cba2c', // … (Token) accepted
  '562b0d45081361f6': '5fa6c7280c2cba2c', // … (Digest) accepted
  // A wrong media type, titled by the type a seed drew first.
  f65bd11292f52601: '17d830589bbb6844', // a body sent with Content-Type text/plain accepted
  b57a95d37f267d3d: '17d830589bbb6844', // … application/x-www-form-urlencoded accepted
  b15f16e410150101: '17d830589bbb6844', // … application/xml accepted
  '137324e68c849aea': '17d830589bbb6844', // … multipart/form-data; boundary=plantstore accepted
  '8c863d0d51fa000a': '17d830589bbb6844', // … application/octet-stream accepted
  // Invalid ids accepted: one finding for a fraction and the int64 bounds for a while, then two.
  '05890eb48253e10a': '6b4ea5157fbc8abe', // "id" not of type integer: a number with a fraction
  '5c3414a8c12e1ed6': 'b5d4b324e422bd8c', // "id" one below the int64 minimum
  '3676d70374928e95': 'b5d4b324e422bd8c', // "id" one above the int64 maximum
  f988857d586efb7a: ['6b4ea5157fbc8abe', 'b5d4b324e422bd8c'], // the three above as one
  caafdea54b575ce8: '8236a457c8c8387b', // an invalid body ("name": name missing (required)) accepted
  // Values that lenient readers convert (a numeric string for a number, a boolean for a string, …) accepted.
  '82da678d8ea04ec8': 'c907f7e2b72da61d', // "name" holds true: not of type string
  '7e5a91d2338cf990': 'c907f7e2b72da61d', // "id" set to "N"
  fa40d25011aa1913: 'c907f7e2b72da61d', // the same finding before a boolean for a number joined it
  '010a324787975849': '87f3daa06ba0f219', // the 200 body is not a valid Plant (type at "tag"): null for a tag not sent
  // Bodies the JSON parser cannot read crashing the target: titled by the first kind met.
  e7962157c1336cea: 'cae8f7c9527c1734', // status 500 for an invalid body (a trailing comma before a closing bracket)
};

/**
 * The fingerprints a finding listed under `fingerprint` has today: itself, and where it was retired, what
 * replaced it (followed through later rewordings).
 */
export function currentFingerprints(
  fingerprint: string,
  retired: RetiredFingerprints = RETIRED_FINGERPRINTS,
): readonly string[] {
  const seen = new Set<string>();
  const pending = [fingerprint];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (seen.has(next)) continue;
    seen.add(next);
    const successors = Object.hasOwn(retired, next) ? retired[next] : undefined;
    if (successors !== undefined) pending.push(...(typeof successors === 'string' ? [successors] : successors));
  }
  return [...seen];
}
