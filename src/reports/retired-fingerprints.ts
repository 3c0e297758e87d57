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
export const RETIRED_FINGERPRINTS: Readonly<Record<string, string | readonly string[]>> = {};

/**
 * The fingerprints a finding listed under `fingerprint` has today: itself, and where it was retired, what
 * replaced it (followed through later rewordings).
 */
export function currentFingerprints(
  fingerprint: string,
  retired: Readonly<Record<string, string | readonly string[]>> = RETIRED_FINGERPRINTS,
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
