import { createHash } from 'node:crypto';
import { INT64 } from '../contract/integers.js';
import { mediaTypeEssence } from '../contract/media-types.js';
import {
  ACCEPTED_ONCE_TRIMMED,
  causeOf,
  CUT_AT_NUL,
  DOUBLES_DEFECT,
  FIELD,
  integersOf,
  isJsonText,
  jsonOf,
  LENGTHS_IN_UNITS,
  namesMember,
  NOT_UTF8,
  namedKeyword,
  REFUSED_ONCE_TRIMMED,
  requestKind,
  rewriteFamily,
  SPELLING_READ_AS_ANOTHER_ID,
  TRIMMED,
  topMemberOf,
  withoutQuotedValues,
} from './defects.js';
import { encodesSurrogatesOnly } from './probes/not-utf8.js';
import { SAME_DOUBLE } from './probes/precision-pairs.js';
import type { PlannedRequest } from './probe.js';
import type { CheckResult, Failure, Finding } from './report.js';
import { unansweredHow } from './judge.js';
import type { Outage } from './outage.js';
import type { ValidatorReading } from './validator-readings.js';
import { WENT_AWAY_DEFECT } from './went-away.js';

/**
 * Digits a reason shows only as generated values: numbers of four digits or more, decimals and
 * exponents. Statuses (three digits) and small counts stay, so they still tell defects apart.
 */
const GENERATED_NUMBER = /-?\d+\.\d+(?:[eE][+-]?\d+)?|-?\d{4,}(?:[eE][+-]?\d+)?/g;

/**
 * The shape of a failure whose check names no defect: the check id and its reason with generated
 * values (long numbers, quoted values) replaced, so two runs with other seeds give the same text.
 */
export function reasonShape(checkId: string, reason: string): string {
  const shape = withoutQuotedValues(reason).replace(GENERATED_NUMBER, '#');
  return `${checkId}: ${shape}`;
}

/** The title and fingerprint of a failure: its check's `defect` when it named one, else its reason's shape. */
export function defectIdentity(
  checkId: string,
  reason: string,
  defect: string | undefined,
): { title: string; fingerprint: string } {
  const title = defect ?? reasonShape(checkId, reason);
  // A named defect is shared across checks (one finding); a reason's shape belongs to its check.
  const key = defect === undefined ? `reason:${title}` : `defect:${defect}`;
  return { title, fingerprint: createHash('sha256').update(key).digest('hex').slice(0, 16) };
}

/**
 * The fingerprint of a failure on the request `plan`, the one every judge of it (the runner, a replay of
 * its curl line, the proxy) works out. A defect that quotes the invalid body it was found with (`an
 * invalid body ("tag" holds true: …) accepted`) is fingerprinted by its cause ({@link causeOf}: the field
 * and the rule broken), not by the value: negative-rejection keeps the first such case of a field and
 * response-schema the first whose echo broke the Plant, often another value of the same field; one root
 * cause, so one finding, with the same fingerprint whichever value a seed met first. Anything else:
 * {@link defectIdentity}.
 */
export function failureFingerprint(
  checkId: string,
  plan: PlannedRequest | undefined,
  reason: string,
  defect: string | undefined,
): string {
  if (plan?.intent.kind !== 'invalid-body' || defect === undefined)
    return defectIdentity(checkId, reason, defect).fingerprint;
  const described = requestKind(plan, true);
  // Only a description that quotes the field it breaks varies with the value (not "a required member named in
  // upper case"), and only one naming its keyword tells the rule apart: a proxy's `field "name" must be at most
  // 30 characters long` names none, and its field's other breaks must not fold into it.
  const { what } = plan.intent;
  if (!described.includes('"') || !defect.includes(described) || !namesRule(what))
    return defectIdentity(checkId, reason, defect).fingerprint;
  return defectIdentity(checkId, reason, `cause:${causeOf(plan, defect)}`).fingerprint;
}

/** Whether an invalid body's description names its rule: a keyword, or a wrong number's family (`"id" set to N.5`). */
function namesRule(what: string): boolean {
  return namedKeyword(what) !== undefined || rewriteFamily(what) !== undefined;
}

/** What the run showed beyond its kept failures, for folding them into root causes. */
export interface RunSigns {
  /**
   * Ids with a small fraction (`N.5`, `-N.25`, `1e-3`) were sent and every one refused: a target that
   * then accepts `2^53+N.5` reads the id as a double (which holds it whole), not without an integer check.
   */
  readonly smallFractionsRefused?: boolean;
  /**
   * The top-level members (`care` for a break at `care.water`) where an invalid body was refused: a member with
   * none refused may be taken as it comes ({@link withMemberRulesFolded}).
   */
  readonly refusedIn?: ReadonlySet<string>;
  /** Whether an invalid body that is a JSON object was refused with a 4xx: false, the target validates none. */
  readonly objectRefused?: boolean;
  /** Whether any invalid body was refused with a 4xx, JSON or not: false, the target reads no body it is sent. */
  readonly invalidRefused?: boolean;
  /** The kinds of the requests a target had in flight when it stopped answering for good ({@link inFlightWhenGone}). */
  readonly inFlightWhenGone?: ReadonlySet<string>;
  /** The top-level members every NewPlant of the document holds (a crash keeping another one needs it). */
  readonly requiredMembers?: ReadonlySet<string>;
  /** The member names the NewPlant schema declares at any depth ({@link declaredMemberNames}). */
  readonly declaredNames?: ReadonlySet<string>;
  /** How older validators read the document's NewPlant ({@link validatorReadings}). */
  readonly readings?: readonly ValidatorReading[];
}

const DOUBLES_FINGERPRINT = defectIdentity('', '', DOUBLES_DEFECT).fingerprint;
/** The title of a finding made only of failures folded into it. */
const FOLDED_TITLES = new Map([[DOUBLES_FINGERPRINT, DOUBLES_DEFECT]]);

/**
 * The fingerprint of a finding titled `title` that failures are folded into while none is its own (a crash group
 * check-results names for its cause): {@link findingsOf} titles it so.
 */
export function foldTarget(title: string): string {
  const { fingerprint } = defectIdentity('', '', title);
  FOLDED_TITLES.set(fingerprint, title);
  return fingerprint;
}
/** An id above 2^53 with a half, accepted: `an invalid body ("id" set to 2^53+N.5) accepted`. */
const ABOVE_2_53_HALF = /^an invalid body \("[^"]+" set to 2\^53\+N\.5\) accepted$/;
const SAFE_INTEGER = 2n ** 53n;

/**
 * Failures that are integers read as doubles ({@link DOUBLES_DEFECT}) on a target that shows that defect:
 * an id echoed with other digits, or a precision pair's second id refused (two ids one apart, one double)
 * beside `2^53+N.5` accepted where small fractions are refused (a double holds it whole) or beside 2^63
 * (or -2^63-1) taken for the int64 edge it equals as a double (accepted, or refused as a repeat of it); or
 * 2^63-1 itself refused (as a double it is 2^63, out of range) beside either of those two.
 * Then the pair refused, `2^53+N.5` accepted, the edge's neighbour taken for it, and a valid NewPlant
 * refused for an id of 2^53 or beyond (2^63-2, the same double as 2^63-1 sent before; -2^53, the double
 * -2^53-1 was stored as) are that one root cause.
 * One sign alone stays its own finding: a store keyed by double that answers every id as sent; PHP's
 * json_decode, exact for int64 but reading `2^53+N.5` as a float its check takes for whole; a saturating
 * parser taking 2^63 for 2^63-1; and one without an integer check accepts every fraction.
 */
export function withDoublesFolded(checks: readonly CheckResult[], signs: RunSigns = {}): CheckResult[] {
  const failed = checks.filter((check) => check.status === 'fail');
  const own = (id: string, test: (failure: Failure) => boolean): boolean =>
    failed.some((check) => (id === '' || check.id === id) && check.failures.some((f) => !f.foldedInto && test(f)));
  const half = (failure: Failure): boolean =>
    signs.smallFractionsRefused === true && ABOVE_2_53_HALF.test(failure.defect ?? '');
  const pair = (failure: Failure): boolean => failure.reason.includes(SAME_DOUBLE);
  const doubles =
    own('', (failure) => failure.defect === DOUBLES_DEFECT) ||
    (own('positive-acceptance', (f) => pair(f) || edgeRefused(f)) &&
      own('negative-rejection', (f) => half(f) || holdsEdgeNeighbour(f.request.body)));
  if (!doubles) return [...checks];
  const folds = (checkId: string, failure: Failure): boolean => {
    if (failure.defect === DOUBLES_DEFECT) return false;
    if (checkId === 'negative-rejection') return half(failure) || holdsEdgeNeighbour(failure.request.body);
    if (checkId !== 'positive-acceptance') return false;
    return pair(failure) || integersOf(failure.request.body).some(nearDoubleEdge);
  };
  return withFolded(checks, (checkId, failure) => (folds(checkId, failure) ? DOUBLES_FINGERPRINT : undefined));
}

/** The finding of a target that refused no invalid JSON object: {@link withUnvalidatedFolded}. */
export const UNVALIDATED_DEFECT =
  'invalid bodies of every kind met accepted (no invalid JSON object was refused: bodies are not validated)';

/** An invalid body accepted, titled for what it breaks: `an invalid body ("name": name missing …) accepted`. */
const INVALID_ACCEPTED = /^an invalid body(?: \(.*\))? accepted$/;

/**
 * Invalid bodies accepted where the run saw no invalid JSON object refused ({@link RunSigns.objectRefused}) are one
 * root cause: the target validates no body (a handler storing what it parsed, Express's `express.json()` with no
 * schema), one fix for every field and rule, so one finding ({@link UNVALIDATED_DEFECT}), shown by the smallest. A
 * body that is not JSON (text after the value) joins only where no invalid body at all was refused (a server that
 * reads nothing it is sent); where its parser refused others, it is the parser's own leniency. One refusal of an
 * object (a missing name refused) shows a validation that works: each rule accepted stays its own finding. Without
 * signs (the proxy), nothing folds.
 */
export function withUnvalidatedFolded(checks: readonly CheckResult[], signs: RunSigns = {}): CheckResult[] {
  if (signs.objectRefused !== false) return [...checks];
  return withGroupsFolded(
    checks,
    () => UNVALIDATED_DEFECT,
    (failure) =>
      INVALID_ACCEPTED.test(failure.defect ?? '') &&
      (signs.invalidRefused === false || isJsonText(failure.request.body))
        ? 'unvalidated'
        : undefined,
  );
}

/**
 * The checks with each failed check's failure, not yet folded, folded into the finding `into` names; a failure folded
 * before into one of them follows it (a `true` taken for an id, folded into the id's missing-member failure, goes where
 * that failure goes), or it would be left in a finding no failure owns.
 */
function withFolded(
  checks: readonly CheckResult[],
  into: (checkId: string, failure: Failure) => string | undefined,
): CheckResult[] {
  const moved = new Map<string, string>();
  const folded = mapFailures(checks, (failure, checkId) => {
    const finding = failure.foldedInto === undefined ? into(checkId, failure) : undefined;
    if (finding === undefined) return failure;
    moved.set(identityOf(checkId, failure).fingerprint, finding);
    return { ...failure, foldedInto: finding };
  });
  if (moved.size === 0) return folded;
  return mapFailures(folded, (failure) => {
    const follows = failure.foldedInto === undefined ? undefined : moved.get(failure.foldedInto);
    return follows === undefined || follows === failure.foldedInto ? failure : { ...failure, foldedInto: follows };
  });
}

/** The checks with each failed check's failures replaced by what `map` makes of them (given the check's id). */
function mapFailures(
  checks: readonly CheckResult[],
  map: (failure: Failure, checkId: string) => Failure,
): CheckResult[] {
  return checks.map((check) =>
    check.status !== 'fail'
      ? check
      : { ...check, failures: check.failures.map((failure) => map(failure, String(check.id))) },
  );
}

/** Whether a JSON body holds an integer just outside int64 that is the same double as the edge (2^63, -2^63-1). */
function holdsEdgeNeighbour(body: string | null | undefined): boolean {
  return integersOf(body).some(
    (value) =>
      (value > INT64.max && Number(value) === Number(INT64.max)) ||
      (value < INT64.min && Number(value) === Number(INT64.min)),
  );
}

/**
 * A valid NewPlant refused whose id, read as a double, falls outside int64 (2^63-1 is 2^63 as a double): a target
 * comparing the double with its range refuses it.
 */
function edgeRefused(failure: Failure): boolean {
  if (!/^status \d{3} for a valid NewPlant$/.test(failure.defect ?? '')) return false;
  if (refusalNamesOtherMember(failure)) return false;
  return integersOf(failure.request.body).some((value) => {
    const read = BigInt(Number(value));
    return read > INT64.max || read < INT64.min;
  });
}

/**
 * Whether the refusal's answer names a member of the body that holds no number: Django REST framework's
 * `{"name": ["This field may not be blank."]}` refuses a blank name, whatever id (2^63-1 among them) it came with.
 */
function refusalNamesOtherMember(failure: Failure): boolean {
  const sent = jsonOf(failure.request.body);
  if (!isObject(sent)) return false;
  const answer = failure.response.body ?? '';
  return Object.entries(sent).some(([key, value]) => typeof value !== 'number' && namesMember(answer, key));
}

/**
 * An integer at 2^53 or beyond within 2^12 of 2^53 or 2^63 (either sign): the ids a double reads as another one
 * the run sent (the edges and their neighbours) or as out of range. A fresh id elsewhere (40 random bits) meets
 * no other as a double, so its refusal is another cause (h3's readBody refusing a `__proto__` member).
 */
function nearDoubleEdge(value: bigint): boolean {
  const size = magnitude(value);
  return size >= SAFE_INTEGER && [SAFE_INTEGER, INT64.max + 1n].some((edge) => magnitude(size - edge) <= NEAR_EDGE);
}

const NEAR_EDGE = 2n ** 12n;

function magnitude(value: bigint): bigint {
  return value < 0n ? -value : value;
}

/** `the 200 body is not a valid Plant (required at "tag")`: the property a success answer lacks. */
const REQUIRED_AT = /^the \d{3} body is not .* \(required at "([^"]+)"\)$/;
/** `"tag" not echoed as sent`: echo's defect for a property. */
const NOT_ECHOED = /^"([^"]+)" not echoed as sent$/;

/**
 * An echo failure for a property the answer left out (`"tag" not echoed as sent`, the answer has no
 * `tag`) beside response-schema's failure for that property missing where the document requires it
 * (`required at "tag"`) is one root cause (Go's `omitempty` on a nullable tag, a Plant wrapped in
 * `{"plant": …}`): the echo failure is folded into response-schema's finding, which names what is wrong.
 */
export function withAbsentEchoesFolded(checks: readonly CheckResult[]): CheckResult[] {
  const required = new Map<string, string>();
  for (const check of checks) {
    if (check.id !== 'response-schema' || check.status !== 'fail') continue;
    for (const failure of check.failures) {
      const field = REQUIRED_AT.exec(failure.defect ?? '')?.[1];
      if (field !== undefined && failure.foldedInto === undefined && !required.has(field))
        required.set(field, identityOf(String(check.id), failure).fingerprint);
    }
  }
  if (required.size === 0) return [...checks];
  return withFolded(checks, (checkId, failure) => {
    const field = checkId === 'echo' ? NOT_ECHOED.exec(failure.defect ?? '')?.[1] : undefined;
    if (field === undefined) return undefined;
    const into = required.get(field);
    return into !== undefined && answerLacks(failure, field) ? into : undefined;
  });
}

/** The finding of a top-level member the target never reads ({@link withIgnoredMembersFolded}). */
export function ignoredMemberDefect(member: string): string {
  return `"${member}" never read (invalid values accepted, valid ones left out of the answer)`;
}

/**
 * A member the target never reads (a model without the field; Sinatra's `symbolize_names: true` looked up with a
 * string key) shows twice: echo's `"tag" not echoed as sent` with the answer lacking it, and invalid values of it
 * accepted where no invalid body broken in it was refused ({@link RunSigns.refusedIn}). One fix (read the member),
 * so one finding ({@link ignoredMemberDefect}), shown by the smallest invalid body. A member the target refused
 * once is read: its echo and its rules stay their own findings. Without signs (the proxy), nothing folds.
 */
export function withIgnoredMembersFolded(checks: readonly CheckResult[], signs: RunSigns = {}): CheckResult[] {
  const { refusedIn } = signs;
  if (refusedIn === undefined) return [...checks];
  const groups = new Map<string, { echo: Failure[]; accepted: Failure[] }>();
  const group = (member: string) => groups.get(member) ?? groups.set(member, { echo: [], accepted: [] }).get(member)!;
  for (const check of checks) {
    if (check.status !== 'fail') continue;
    for (const failure of check.failures.filter((candidate) => candidate.foldedInto === undefined)) {
      const echoed = check.id === 'echo' ? NOT_ECHOED.exec(failure.defect ?? '')?.[1] : undefined;
      if (echoed !== undefined && !refusedIn.has(echoed) && answerLacks(failure, echoed))
        group(echoed).echo.push(failure);
      const broken = check.id === 'negative-rejection' ? memberBreakOf(failure.defect ?? '') : undefined;
      if (broken !== undefined && broken.path === broken.member && !refusedIn.has(broken.member))
        group(broken.member).accepted.push(failure);
    }
  }
  const named = [...groups]
    .filter(([, { echo, accepted }]) => echo.length > 0 && accepted.length > 0)
    .map(([member, { echo, accepted }]) => ({
      checkId: 'negative-rejection',
      shown: smallest(accepted),
      defect: ignoredMemberDefect(member),
      members: [
        ...echo.map((failure) => identityOf('echo', failure).fingerprint),
        ...accepted.map((failure) => identityOf('negative-rejection', failure).fingerprint),
      ],
    }));
  return withGroupsNamed(checks, named);
}

/**
 * Strings echoed cut to one length (a column of 8 characters, `substring(0, 8)`) look like trimming where the cut
 * falls on whitespace at the end (`"ab cdefg "` echoed `"ab cdefg"`), and like a C string's cut where it falls on a
 * U+0000 (shrinking a control character toward U+0000 puts one there): when the echo's failures of one field show
 * the cut and either look-alike, every one cut at the end to the same length (in code points, in UTF-16 units as
 * JavaScript's `slice` cuts, or in UTF-8 bytes as PHP's `substr` cuts), the look-alikes fold into the cut's finding.
 */
export function withTruncationFolded(checks: readonly CheckResult[]): CheckResult[] {
  const echo = checks.find((check) => check.id === 'echo' && check.status === 'fail');
  const cuts = new Map<string, { lengths: CutLengths; into?: string; folded: Failure[]; mixed: boolean[] }>();
  for (const failure of echo?.failures ?? []) {
    if (failure.foldedInto !== undefined) continue;
    const lookAlike = failure.defect === TRIMMED || failure.defect === CUT_AT_NUL;
    const field = NOT_ECHOED.exec(failure.defect ?? '')?.[1] ?? (lookAlike ? echoedField(failure) : undefined);
    const lengths = field === undefined ? undefined : cutLength(failure, field);
    if (field === undefined || lengths === undefined) continue;
    const cut = cuts.get(field) ?? { lengths, folded: [], mixed: [false, false, false] };
    cut.mixed = cut.mixed.map((mixed, unit) => mixed || cut.lengths[unit] !== lengths[unit]);
    if (lookAlike) cut.folded.push(failure);
    else cut.into ??= identityOf('echo', failure).fingerprint;
    cuts.set(field, cut);
  }
  const into = new Map<Failure, string>();
  for (const cut of cuts.values())
    if (cut.into !== undefined && cut.mixed.includes(false))
      for (const failure of cut.folded) into.set(failure, cut.into);
  if (into.size === 0) return [...checks];
  return withFolded(checks, (checkId, failure) => (checkId === 'echo' ? into.get(failure) : undefined));
}

/** A cut string's length in code points, in UTF-16 units and in UTF-8 bytes. */
type CutLengths = readonly [number, number, number];

/** The field an echo failure's reason names first: `"tag" was sent as …`. */
function echoedField(failure: Failure): string | undefined {
  return /^"([^"]+)" was sent as /.exec(failure.reason)?.[1];
}

/** The lengths `field` was cut to, when the answer holds the string sent cut at its end. */
function cutLength(failure: Failure, field: string): CutLengths | undefined {
  try {
    const sent: unknown = JSON.parse(failure.request.body ?? '');
    const got: unknown = JSON.parse(failure.response.body ?? '');
    if (!isObject(sent) || !isObject(got)) return undefined;
    const [before, after] = [sent[field], got[field]];
    if (typeof before !== 'string' || typeof after !== 'string' || after === before) return undefined;
    return after !== '' && before.startsWith(after)
      ? [[...after].length, after.length, Buffer.byteLength(after)]
      : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the failure's answer is a whole JSON object without `field` (a cut or unreadable body: not known). */
function answerLacks(failure: Failure, field: string): boolean {
  const { body, truncated } = failure.response;
  if (body === null || truncated === true) return false;
  const value = jsonOf(body);
  return isObject(value) && !Object.hasOwn(value, field);
}

/** The finding of success answers each leaving out a required property the request left out too. */
export function unsentLeftOutDefect(status: string): string {
  return `the ${status} Plant leaves out required properties the request did not send (defaults or values of its own not written)`;
}

/**
 * Success answers that each lack a property the Plant requires and the request did not send, for two properties
 * or more (`source` and `quantity`, which the NewPlant gives defaults): one root cause, the answer written from the
 * request alone (the document's defaults not filled in: ajv's `useDefaults` off, a Go struct without them), not one
 * per property. They fold into one finding, shown by the smallest. A property the request sent and the answer lost
 * stays its own (echo's too); so does one such property alone.
 */
export function withUnsentLeftOutFolded(checks: readonly CheckResult[]): CheckResult[] {
  const check = checks.find((entry) => entry.id === 'response-schema' && entry.status === 'fail');
  const groups = new Map<string, { fields: Set<string>; failures: Failure[] }>();
  for (const failure of check?.failures ?? []) {
    const match = UNSENT_REQUIRED_AT.exec(failure.defect ?? '');
    const [status, field] = [match?.[1], match?.[2]];
    if (failure.foldedInto !== undefined || status === undefined || field === undefined) continue;
    if (!answerLacks(failure, field) || !requestLacks(failure, field)) continue;
    const group = groups.get(status) ?? { fields: new Set<string>(), failures: [] };
    group.fields.add(field);
    group.failures.push(failure);
    groups.set(status, group);
  }
  const named = [...groups]
    .filter(([, { fields }]) => fields.size >= 2)
    .map(([status, { failures }]) => ({
      checkId: 'response-schema',
      shown: smallest(reproducibleFirst(failures)),
      defect: unsentLeftOutDefect(status),
      members: failures.map((failure) => identityOf('response-schema', failure).fingerprint),
    }));
  // Echo failures folded before into one of them (a property left out that it was sent) follow it.
  return withGroupsNamed(checks, named);
}

/** A group finding ({@link withGroupsNamed}): its owner, shown under `defect`, and the fingerprints it takes in. */
interface NamedGroup {
  readonly checkId: string;
  readonly shown: Failure;
  readonly defect: string;
  readonly members: readonly string[];
}

/**
 * The checks with each group's `shown` failure renamed to the group's finding (its `defect` and that defect's
 * fingerprint) and every failure whose own fingerprint is a member, or that was folded into a member before, folded
 * into it. A reproduction of the shown case judged alone names its own defect ({@link groupDefectsOf}).
 */
function withGroupsNamed(checks: readonly CheckResult[], groups: readonly NamedGroup[]): CheckResult[] {
  if (groups.length === 0) return [...checks];
  const owners = new Map<Failure, Failure>();
  const into = new Map<string, string>();
  for (const { checkId, shown, defect, members } of groups) {
    const fingerprint = defectIdentity(checkId, shown.reason, defect).fingerprint;
    owners.set(shown, { ...shown, defect, fingerprint });
    for (const member of members) into.set(member, fingerprint);
  }
  return mapFailures(checks, (failure, checkId) => {
    const owner = owners.get(failure);
    if (owner !== undefined) return owner;
    const moved = into.get(failure.foldedInto ?? identityOf(checkId, failure).fingerprint);
    return moved === undefined ? failure : { ...failure, foldedInto: moved };
  });
}

/** `the 200 body is not a valid Plant (required at "source")`, a top-level property: its status and name. */
const UNSENT_REQUIRED_AT = /^the (2\d\d) body is not .* \(required at "([^".]+)"\)$/;

/** Whether the request's JSON object body has no member `field`. */
function requestLacks(failure: Failure, field: string): boolean {
  const value = jsonOf(failure.request.body);
  return isObject(value) && !Object.hasOwn(value, field);
}

/** The fingerprint of the failed check's first failure, not folded, whose defect passes `test`: a fold's target. */
function ownFingerprint(
  checks: readonly CheckResult[],
  checkId: string,
  test: (defect: string) => boolean,
): string | undefined {
  const failure = checks
    .find((check) => check.id === checkId && check.status === 'fail')
    ?.failures.find((candidate) => candidate.foldedInto === undefined && test(candidate.defect ?? ''));
  return failure === undefined ? undefined : identityOf(checkId, failure).fingerprint;
}

/** `an invalid body ("id" holds #: … a number with a fraction …) accepted`: an id's fraction let through. */
const FRACTION_ACCEPTED = /^an invalid body \(.*a number with a fraction.*\) accepted$/;

/**
 * An integer spelling read as another id ({@link SPELLING_READ_AS_ANOTHER_ID}: `9.2e18` refused as a repeat
 * of 9) beside a fraction accepted (`0.5` taken as 0) is one root cause, an id read by its leading digits:
 * which of the two a run shows, and how often, depends on the ids the target held when they came. The
 * spelling's failure is folded into the fraction's finding.
 */
export function withLeadingDigitsFolded(checks: readonly CheckResult[]): CheckResult[] {
  const into = ownFingerprint(checks, 'negative-rejection', (defect) => FRACTION_ACCEPTED.test(defect));
  if (into === undefined) return [...checks];
  return withFolded(checks, (checkId, failure) =>
    checkId === 'integer-spellings' && failure.defect === SPELLING_READ_AS_ANOTHER_ID ? into : undefined,
  );
}

/** `an invalid body ("id" set to an integer outside int64) accepted`, and the same written with an exponent. */
const RANGE_ACCEPTED = /^an invalid body \("([^"]+)" set to an integer outside int64\) accepted$/;
const EXPONENT_ACCEPTED =
  /^an invalid body \("([^"]+)" set to an integer outside int64 written with an exponent\) accepted$/;

/**
 * An integer outside int64 written with an exponent (`1e19`) accepted and answered as that number, beside one in plain
 * digits accepted for the same field, is one root cause: no range check (a JSON.parse reader's validator taking every
 * double with no fraction as an integer). Its family stays apart from the plain digits' for a reader of leading
 * digits (`1e19` taken as 1, as `0.5` as 0: the answer shows 1); here the answer shows the value read whole. Not
 * folded where a failure of another defect shares its cause (a fraction accepted: that reading's finding).
 */
export function withExponentRangesFolded(checks: readonly CheckResult[]): CheckResult[] {
  const owners = new Map<string, string>();
  const others = new Set<string>();
  for (const check of checks)
    for (const failure of check.status === 'fail' ? check.failures : []) {
      if (failure.foldedInto !== undefined) continue;
      const field = RANGE_ACCEPTED.exec(failure.defect ?? '')?.[1];
      const { fingerprint } = identityOf(String(check.id), failure);
      if (field !== undefined && !owners.has(field)) owners.set(field, fingerprint);
      if (!EXPONENT_ACCEPTED.test(failure.defect ?? '')) others.add(fingerprint);
    }
  if (owners.size === 0) return [...checks];
  return withFolded(checks, (checkId, failure) => {
    const field = EXPONENT_ACCEPTED.exec(failure.defect ?? '')?.[1];
    const into = field === undefined ? undefined : owners.get(field);
    if (into === undefined || others.has(identityOf(checkId, failure).fingerprint)) return undefined;
    return answersOutsideInt64(failure, field ?? '') ? into : undefined;
  });
}

/** Whether the answer writes the member `field` (its last segment) as a number outside int64, read whole. */
function answersOutsideInt64(failure: Failure, field: string): boolean {
  const key = field.split('.').at(-1) ?? field;
  const escaped = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const written = new RegExp(`"${escaped}"\\s*:\\s*(-?\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)`).exec(
    failure.response.body ?? '',
  )?.[1];
  return written !== undefined && Math.abs(Number(written)) >= 2 ** 63;
}

/**
 * A valid NewPlant refused that the document refuses once its strings are trimmed ({@link REFUSED_ONCE_TRIMMED}:
 * `"   "` under `minLength: 1`), or an invalid body accepted that is valid once trimmed ({@link ACCEPTED_ONCE_TRIMMED}:
 * a name one over `maxLength` ending in a space), beside strings echoed trimmed ({@link TRIMMED}) is one root
 * cause, a reader that trims every string before validating it (pydantic's `str_strip_whitespace=True`): one line
 * fixes all three, so they are folded into the trimming's finding. Without trimmed echoes (a blank check), each
 * stays its own.
 */
export function withTrimmedRefusalsFolded(checks: readonly CheckResult[]): CheckResult[] {
  const into = ownFingerprint(checks, 'echo', (defect) => defect === TRIMMED);
  if (into === undefined) return [...checks];
  return withFolded(checks, (checkId, failure) =>
    (checkId === 'positive-acceptance' && failure.reason.includes(REFUSED_ONCE_TRIMMED)) ||
    (checkId === 'negative-rejection' && failure.reason.includes(ACCEPTED_ONCE_TRIMMED))
      ? into
      : undefined,
  );
}

/** A string one code point past a length bound accepted, or echoed in a success the schema then refuses: its member. */
const LENGTH_BOUND_PASSED =
  /^(?:an invalid body \("([^"]+)" holds .* one code point (?:shorter than minLength|longer than maxLength) .*\) accepted|the 2\d\d body is not .* \((?:minLength|maxLength) at "([^"]+)"\))$/;

/** Whether the sent body's member at a dotted path is a string holding a character beyond ASCII. */
function memberBeyondAscii(body: string | null | undefined, path: string): boolean {
  try {
    let value: unknown = JSON.parse(body ?? '');
    for (const key of path.split('.')) value = (value as Record<string, unknown> | null)?.[key];
    return typeof value === 'string' && /\P{ASCII}/u.test(value);
  } catch {
    return false;
  }
}

/**
 * A valid NewPlant refused for its lengths ({@link LENGTHS_IN_UNITS}: characters beyond U+FFFF in a name at
 * `maxLength`) beside a non-ASCII string one code point past a length bound accepted (`"𐀀"` under `minLength: 2`,
 * two UTF-16 units or four bytes) is one root cause, lengths counted in UTF-16 units (`.length`) or UTF-8 bytes:
 * one line fixes both, so the bound passed folds into the refusal's finding. An ASCII string past a bound stays
 * its own: counting units does not explain it.
 */
export function withLengthUnitsFolded(checks: readonly CheckResult[]): CheckResult[] {
  const refused = checks
    .find((check) => check.id === 'positive-acceptance' && check.status === 'fail')
    ?.failures.find((failure) => failure.foldedInto === undefined && failure.reason.includes(LENGTHS_IN_UNITS));
  if (refused === undefined) return [...checks];
  const into = identityOf('positive-acceptance', refused).fingerprint;
  return withFolded(checks, (checkId, failure) => {
    const passed = LENGTH_BOUND_PASSED.exec(failure.defect ?? '');
    const path = passed?.[1] ?? passed?.[2];
    const explained = path !== undefined && memberBeyondAscii(failure.request.body, path);
    return (checkId === 'negative-rejection' || checkId === 'response-schema') && explained ? into : undefined;
  });
}

/** An invalid body accepted for a break inside an array's items: its field path, `offshoots[#].name`. */
const ITEM_BREAK_ACCEPTED = /^an invalid body \(.*?\s([^\s"()]*\[#\][^\s"()]*)\s.*\) accepted$/;

/** The finding of invalid bodies accepted inside the items of the array at `items` (`offshoots[#]`). */
export function itemRulesDefect(items: string): string {
  return `invalid bodies accepted inside the items of ${items.replace(/\[#\]$/, '')} (the rules of ${items} not checked)`;
}

/**
 * Invalid bodies accepted for several rules broken inside one array's items (`offshoots[#].name` of another
 * type, `offshoots[#].id` missing, `offshoots[#].graft` matching no branch) are one root cause: a server that
 * validates the top level and stores the items as they come. They fold into one finding named by the items'
 * path ({@link itemRulesDefect}), the same whichever rules a seed broke, shown by the smallest of them.
 */
export function withItemRulesFolded(checks: readonly CheckResult[]): CheckResult[] {
  return withGroupsFolded(checks, itemRulesDefect, (failure) => itemsOf(failure.defect ?? ''));
}

/** The fingerprint of {@link itemRulesDefect}'s finding: a failure of those items may be folded into it before it forms. */
export function itemRulesFingerprint(items: string): string {
  return defectIdentity('', '', itemRulesDefect(items)).fingerprint;
}

/** The items' path (`offshoots[#]`) of an invalid body accepted for a break inside an array's items. */
export function itemsOf(defect: string): string | undefined {
  const path = ITEM_BREAK_ACCEPTED.exec(defect)?.[1];
  return path === undefined ? undefined : path.slice(0, path.lastIndexOf('[#]') + 3);
}

/**
 * The group findings an invalid body accepted may fold into with others of its kind ({@link itemRulesDefect},
 * {@link memberRulesDefect}, {@link nestedRequiredDefect}, {@link ZERO_VALUES_DEFECT}): a reproduction of a group's counterexample, judged
 * alone, names its own defect, one of these groups'.
 */
export function groupDefectsOf(defect: string): string[] {
  const items = itemsOf(defect);
  const broken = memberBreakOf(defect);
  const member = broken?.member;
  const parent = NESTED_MISSING_ACCEPTED.exec(defect)?.[1];
  const newline = NEWLINE_AFTER_MATCH.test(defect);
  const zero = [TOP_MISSING_ACCEPTED, EMPTY_OBJECT_ACCEPTED, NULL_BODY_ACCEPTED].some((shape) => shape.test(defect));
  const label = REFUSAL_NOT_JSON.exec(defect);
  return [
    ...(label === null ? [] : [sharedLabelDefect(Number(label[1]), label[2] ?? '')]),
    ...(items === undefined ? [] : [itemRulesDefect(items)]),
    ...(member === undefined ? [] : [memberRulesDefect(member)]),
    ...(broken === undefined || broken.path !== broken.member ? [] : [ignoredMemberDefect(broken.member)]),
    ...(parent === undefined ? [] : [nestedRequiredDefect(parent)]),
    ...(newline ? [NEWLINE_AFTER_MATCH_DEFECT] : []),
    ...(zero ? [ZERO_VALUES_DEFECT] : []),
    ...(INVALID_ACCEPTED.test(defect) ? [UNVALIDATED_DEFECT] : []),
  ];
}

/** The finding of invalid bodies accepted at and inside the object member `member` (`care`). */
export function memberRulesDefect(member: string): string {
  return `invalid bodies accepted at and inside ${member} (no rule of ${member} checked)`;
}

/** An invalid body accepted for a rule broken at a member or inside it: the member's path as quoted (`care.water`). */
const MEMBER_BREAK_ACCEPTED = /^an invalid body \("([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)"[ :].*\) accepted$/;

/** The path (`care.water`) and top-level member (`care`) of an invalid body accepted for a rule broken there. */
function memberBreakOf(defect: string): { path: string; member: string } | undefined {
  const path = MEMBER_BREAK_ACCEPTED.exec(defect)?.[1];
  const member = path === undefined ? undefined : topMemberOf(path);
  return path === undefined || member === undefined ? undefined : { path, member };
}

/**
 * Invalid bodies accepted for several rules broken at and inside one object member (`care` a boolean,
 * `care.water` missing, `care.water` past its maximum, `care.light` outside its enum, `care.extra` though
 * additionalProperties is false), where no invalid body broken there was refused ({@link RunSigns.refusedIn}), are
 * one root cause: a server that takes the member as it comes (a `dict` or `any` field, a sub-model left out of the
 * validation). They fold into one finding named by the member ({@link memberRulesDefect}), shown by the smallest.
 * A member with a rule refused is checked: each rule accepted there stays its own finding (independent defects),
 * as do breaks of a member's own value (`name` past maxLength and not matching its pattern), which hold no member
 * inside. Without signs of what was refused (the proxy), nothing folds.
 */
export function withMemberRulesFolded(checks: readonly CheckResult[], signs: RunSigns = {}): CheckResult[] {
  const { refusedIn } = signs;
  if (refusedIn === undefined) return [...checks];
  const paths = new Map<Failure, string>();
  const folded = withGroupsFolded(
    checks,
    memberRulesDefect,
    (failure) => {
      const broken = memberBreakOf(failure.defect ?? '');
      if (broken === undefined || refusedIn.has(broken.member)) return undefined;
      paths.set(failure, broken.path);
      return broken.member;
    },
    (failures) => failures.some((failure) => paths.get(failure)?.includes('.') === true),
  );
  return folded;
}

/** The finding of members required inside the object at `parent` (`care`) accepted missing. */
export function nestedRequiredDefect(parent: string): string {
  return `invalid bodies accepted with members of ${parent} missing (the required of ${parent} not checked)`;
}

/** An invalid body accepted with a nested member missing: `an invalid body ("care.water": care.water missing …) accepted`. */
const NESTED_MISSING_ACCEPTED =
  /^an invalid body \("([A-Za-z_][\w.-]*)\.[A-Za-z_][\w-]*": .* \(keyword required\)\) accepted$/;

/**
 * Invalid bodies accepted with several members of one nested object missing (`care.water`, `care.light`) are one
 * root cause: the object's one `required` keyword not checked (left out of a sub-model, defaults given to its
 * fields). They fold into one finding named by the object ({@link nestedRequiredDefect}). A top-level member
 * missing stays its field's own finding, beside a null taken for it (one habit of reading the field).
 */
export function withNestedRequiredFolded(checks: readonly CheckResult[]): CheckResult[] {
  return withGroupsFolded(
    checks,
    nestedRequiredDefect,
    (failure) => NESTED_MISSING_ACCEPTED.exec(failure.defect ?? '')?.[1],
  );
}

/** The finding of bodies accepted with top-level required members missing, read as their types' zero values. */
export const ZERO_VALUES_DEFECT =
  'invalid bodies accepted with required members missing (read as zero values such as "" and 0: presence not checked)';

/** An invalid body accepted with a top-level member missing: `an invalid body ("name": name missing …) accepted`. */
const TOP_MISSING_ACCEPTED = /^an invalid body \("([A-Za-z_][\w-]*)": .* \(keyword required\)\) accepted$/;
/** `{}` accepted, and the body `null` accepted (the whole-body rewrite's words, and the type variant's). */
const EMPTY_OBJECT_ACCEPTED = /^an invalid body \(an empty object\) accepted$/;
const NULL_BODY_ACCEPTED =
  /^an invalid body \((?:JSON null instead of an object|the body not of type object: a null \(keyword type\))\) accepted$/;

/**
 * Invalid bodies accepted with required top-level members missing (`name` missing, `id` missing, `{}`) are one root
 * cause where an answer shows a member the request left out as its type's zero value (`{}` answered `{"name": ""}`):
 * a typed decoder that never checks presence (Go's `json.Unmarshal` into a struct without pointers, Jackson's
 * primitive `long`), so one fix for every member. They fold into {@link ZERO_VALUES_DEFECT}, shown by the smallest;
 * a body `null` accepted joins them when its own answer shows zero values too, or refuses it as a repeat of id 0 (Go
 * decodes `null` into the zero struct). Without that evidence each member stays its own finding (`body.name ?? ''` beside a checked id), as does
 * one member alone.
 */
export function withZeroValuesFolded(checks: readonly CheckResult[]): CheckResult[] {
  return withGroupsFolded(
    checks,
    () => ZERO_VALUES_DEFECT,
    (failure) => {
      const defect = failure.defect ?? '';
      if (TOP_MISSING_ACCEPTED.test(defect) || EMPTY_OBJECT_ACCEPTED.test(defect)) return 'zero';
      const zero = answersZeroValues(failure) || ZERO_ID_QUOTED.test(failure.response.body ?? '');
      return NULL_BODY_ACCEPTED.test(defect) && zero ? 'zero' : undefined;
    },
    (failures) =>
      failures.some(answersZeroValues) && failures.some((failure) => !NULL_BODY_ACCEPTED.test(failure.defect ?? '')),
  );
}

/**
 * A repeat refusal quoting the id 0 (`a plant with id 0 already exists`): a body `null` taken for a plant with id 0,
 * accepted (judged so: a repeat of a stored id) once an earlier zero-valued plant took that id.
 */
const ZERO_ID_QUOTED = /\bid\W{0,3}0(?![\w.])/i;

/**
 * Whether a success answer holds a member the request left out as a zero value (`""`, `0`, `false`): the member
 * an accepted body missing it names, or, for `{}` and `null`, any member.
 */
function answersZeroValues(failure: Failure): boolean {
  const { body, truncated, status } = failure.response;
  if (body === null || truncated === true || status < 200 || status > 299) return false;
  let sent: unknown;
  let answer: unknown;
  try {
    sent = JSON.parse(failure.request.body ?? '') as unknown;
    answer = JSON.parse(body) as unknown;
  } catch {
    return false;
  }
  if (!isObject(answer)) return false;
  const missing = TOP_MISSING_ACCEPTED.exec(failure.defect ?? '')?.[1];
  const members = missing === undefined ? Object.keys(answer) : [missing];
  return members.some(
    (member) => !(isObject(sent) && Object.hasOwn(sent, member)) && ['', 0, false].includes(answer[member] as never),
  );
}

/**
 * A target that stopped answering for good with a body that is not valid UTF-8 in flight, beside its server error on
 * such a body, died of that error: tiny_http's `read_to_string(…).unwrap()` panics, the dropped request answers 500,
 * and the panic ends the process, cutting the other requests it had (the probe's other such bodies, sent together,
 * and whatever else was in flight, which may have ended first). A server that survives that error answers every such
 * body 500, none left in flight. One fix (read the bytes without unwrap), so the outage folds into the crash's
 * finding. No such body in flight, or no such crash, keeps the outage its own.
 */
export function withWentAwayOnCrashFolded(checks: readonly CheckResult[], signs: RunSigns = {}): CheckResult[] {
  const into = ownFingerprint(checks, 'no-server-error', (defect) => NOT_UTF8_CRASH.test(defect));
  if (into === undefined) return [...checks];
  const notUtf8InFlight = signs.inFlightWhenGone?.has(NOT_UTF8) === true;
  return withFolded(checks, (checkId, failure) =>
    checkId === 'no-server-error' &&
    failure.defect === WENT_AWAY_DEFECT &&
    (notUtf8InFlight || failure.request.bodyBase64 !== undefined)
      ? into
      : undefined,
  );
}

/**
 * The kinds ({@link requestKind}) of the requests a target had in flight when it stopped answering for good (the
 * outage's suspects, at their first request left unanswered): none when it came back, or did not stop.
 */
export function inFlightWhenGone(outage: Outage | undefined): ReadonlySet<string> {
  if (outage?.cause.kind !== 'gone') return new Set();
  return new Set(
    outage.suspects.flatMap(({ exchanges }) =>
      exchanges.filter(({ response }) => unansweredHow(response) !== undefined).map(({ plan }) => requestKind(plan)),
    ),
  );
}

/**
 * The failures of negative-rejection (not yet folded) that `groupOf` puts in one group of two or more (and
 * `qualifies`, when given) folded into one finding named `defectOf(group)`, shown by the smallest of them.
 */
function withGroupsFolded(
  checks: readonly CheckResult[],
  defectOf: (group: string) => string,
  groupOf: (failure: Failure) => string | undefined,
  qualifies: (failures: readonly Failure[]) => boolean = () => true,
): CheckResult[] {
  const rejection = checks.find((check) => check.id === 'negative-rejection' && check.status === 'fail');
  const groups = new Map<string, Failure[]>();
  for (const failure of rejection?.failures ?? []) {
    const group = failure.foldedInto === undefined ? groupOf(failure) : undefined;
    if (group !== undefined) groups.set(group, [...(groups.get(group) ?? []), failure]);
  }
  // Each folded failure's own fingerprint, to its group's: another check's failure of that cause (response-schema
  // on the member echoed) folds too, and failures folded before into one of them (a null accepted for a field read
  // wrongly) follow it.
  const named = [...groups]
    .filter(([, failures]) => failures.length >= 2 && qualifies(failures))
    .map(([group, failures]) => ({
      checkId: 'negative-rejection',
      shown: smallest(reproducibleFirst(failures)),
      defect: defectOf(group),
      members: failures.map((failure) => identityOf('negative-rejection', failure).fingerprint),
    }));
  return withGroupsNamed(checks, named);
}

/** A bare `Infinity`, `-Infinity` or `NaN` where a JSON value goes: Python's `json.dumps` of a non-finite float. */
const NON_FINITE = /([:,[]\s*)-?(?:Infinity|NaN)(?=\s*[,}\]])/g;
const NON_FINITE_MARK = 'plantstore:non-finite';

/**
 * A success body that is not JSON only for a bare `Infinity` or `NaN` in a property the request sent as a finite
 * number, beside that property not echoed as sent, is one root cause: a double kept in a float column loses the
 * digits of small values and overflows on large ones. The not-JSON failure folds into the echo's finding.
 */
export function withNonFiniteEchoesFolded(checks: readonly CheckResult[]): CheckResult[] {
  const echoes = new Map<string, string>();
  const failed = checks.find((check) => check.id === 'echo' && check.status === 'fail');
  for (const failure of failed?.failures ?? []) {
    const field = failure.foldedInto === undefined ? NOT_ECHOED.exec(failure.defect ?? '')?.[1] : undefined;
    if (field !== undefined && !echoes.has(field)) echoes.set(field, identityOf('echo', failure).fingerprint);
  }
  if (echoes.size === 0) return [...checks];
  return withFolded(checks, (_checkId, failure) => {
    if (!/^the 2\d\d body is not JSON$/.test(failure.defect ?? '')) return undefined;
    const field = nonFiniteField(failure);
    return field === undefined ? undefined : echoes.get(field);
  });
}

/** The property of a success body holding a bare non-finite number where the request sent a finite one. */
function nonFiniteField(failure: Failure): string | undefined {
  const { body, truncated } = failure.response;
  if (body === null || truncated === true) return undefined;
  let answer: unknown;
  let sent: unknown;
  try {
    answer = JSON.parse(body.replace(NON_FINITE, `$1"${NON_FINITE_MARK}"`));
    sent = JSON.parse(failure.request.body ?? '');
  } catch {
    return undefined;
  }
  if (!isObject(answer) || !isObject(sent)) return undefined;
  return Object.keys(answer).find((key) => {
    const number = sent[key];
    return answer[key] === NON_FINITE_MARK && typeof number === 'number' && Number.isFinite(number);
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A 5xx or no answer to a valid NewPlant: `status 500 for a valid NewPlant`, `connection-reset on a valid NewPlant`. */
const VALID_CRASH = /^(status 5\d\d|.+) (?:for|on) a valid NewPlant(?: with .*)?$/;
/** The same to an invalid body: `status 500 for an invalid body ("id": id missing …)`. */
const INVALID_CRASH = /^(status 5\d\d|.+) (?:for|on) an invalid body(?: \((.*)\))?$/;

/** A crash on a lone surrogate escape, and on bytes that are not UTF-8: its way (a status or a lost answer) first. */
const SURROGATE_CRASH = /^(status 5\d\d|.+) (?:for|on) JSON of unpredictable meaning$/;
const NOT_UTF8_CRASH = /^(status 5\d\d|.+) (?:for|on) a body that is not valid UTF-8$/;
/**
 * A crash on a request whose body is a NewPlant sent with a bad credential, a broken parameter or another label:
 * `status 500 for a request with an empty bearer token`, `… for a body with a missing or wrong Content-Type`.
 */
const REQUEST_CRASH = /^(status 5\d\d|.+) (?:for|on) (?:a request with|a body with a missing or wrong Content-Type)/;

/**
 * A crash on a body whose only invalid bytes encode a surrogate (0xED 0xA0 0x80), beside the same crash (way and
 * answer label) on a lone surrogate escape (`"\ud800"`), is that crash: Python's `json.loads(bytes)` decodes with
 * `surrogatepass`, so both bodies hold U+D800 and the echo's UTF-8 encode raises (FastAPI: two findings, one cause).
 * The probe sends the encoded surrogate after the other invalid bytes, so a decoder failing on any of them keeps one
 * of those as its counterexample: its own finding.
 */
export function withEncodedSurrogateCrashesFolded(checks: readonly CheckResult[]): CheckResult[] {
  const escaped = new Map<string, string>();
  for (const check of checks) {
    if (check.status !== 'fail') continue;
    for (const failure of check.failures) {
      const way = failure.foldedInto === undefined ? SURROGATE_CRASH.exec(failure.defect ?? '')?.[1] : undefined;
      const key = way === undefined ? undefined : crashWay(way, failure);
      if (key !== undefined && !escaped.has(key)) escaped.set(key, identityOf(String(check.id), failure).fingerprint);
    }
  }
  if (escaped.size === 0) return [...checks];
  return withFolded(checks, (_checkId, failure) => {
    const way = NOT_UTF8_CRASH.exec(failure.defect ?? '')?.[1];
    const bytes = failure.request.bodyBase64;
    if (way === undefined || bytes === undefined || !encodesSurrogatesOnly(Buffer.from(bytes, 'base64')))
      return undefined;
    return escaped.get(crashWay(way, failure));
  });
}

/**
 * A crash on an invalid body whose shrunk counterexample still holds a character of a kind (U+0000, another
 * control, beyond ASCII) in a string its break does not name, beside the same crash (status or lost answer, and
 * answer label) on a valid NewPlant holding that kind of character, is one root cause: the server fails on the
 * character (a latin-1 encode raising on a code point above U+00FF, a C string store on U+0000) whatever the body's
 * validity, and shrinking kept the character because the crash needs it. The invalid body's failure folds into the
 * valid one's finding. A server failing on every invalid body shrinks to a body without such a string (`null`,
 * `{"name": null}`): two findings.
 */
export function withCharacterCrashesFolded(checks: readonly CheckResult[]): CheckResult[] {
  const crashes = new Map<string, string>();
  for (const check of checks) {
    if (check.status !== 'fail') continue;
    for (const failure of check.failures) {
      const way = failure.foldedInto === undefined ? VALID_CRASH.exec(failure.defect ?? '')?.[1] : undefined;
      if (way === undefined) continue;
      for (const kind of characterKinds(failure.request.body, undefined)) {
        const key = `${crashWay(way, failure)}\u0000${kind}`;
        if (!crashes.has(key)) crashes.set(key, identityOf(String(check.id), failure).fingerprint);
      }
    }
  }
  if (crashes.size === 0) return [...checks];
  return withFolded(checks, (_checkId, failure) => {
    const match = INVALID_CRASH.exec(failure.defect ?? '');
    if (match?.[1] === undefined) return undefined;
    const broken = topMemberOf(FIELD.exec(match[2] ?? '')?.[1] ?? '');
    const kinds = characterKinds(failure.request.body, broken);
    return kinds.map((kind) => crashes.get(`${crashWay(match[1] ?? '', failure)}\u0000${kind}`)).find(Boolean);
  });
}

/**
 * A crash on an invalid body holding a top-level member that a crash on a valid NewPlant (the same way: status or lost
 * answer, and label) kept through shrinking though the document does not require it, is that crash: the member's
 * presence is the cause, whatever else the body breaks. HD13's Python server comparing `heightMm` with the string
 * "1e3" (PyYAML read `maximum: 1e3` as one) dropped every body holding it: a valid one and twelve invalid ones were 13
 * findings. So does a crash on bytes that are not UTF-8 or a lone surrogate whose shrunk body kept the member (ajv's
 * uniqueItems throwing on an item's `"toString": ""`, met again by a body with bad bytes), and a crash on a request
 * whose bad credential, broken parameter or label the target never got to (Fastify validates the body before its
 * security handlers: the toString crash again as `status 500 for a request with an empty bearer token`). Without
 * {@link RunSigns.requiredMembers} nothing folds (every body holds the required ones).
 */
export function withMemberCrashesFolded(checks: readonly CheckResult[], signs: RunSigns = {}): CheckResult[] {
  const required = signs.requiredMembers;
  if (required === undefined) return [...checks];
  const kept = new Map<string, string>();
  for (const check of checks) {
    if (check.status !== 'fail') continue;
    for (const failure of check.failures) {
      const way = failure.foldedInto === undefined ? VALID_CRASH.exec(failure.defect ?? '')?.[1] : undefined;
      const body = way === undefined ? undefined : jsonOf(failure.request.body);
      if (way === undefined || !isObject(body)) continue;
      for (const member of crashMembers(body, required, signs.declaredNames, true)) {
        const key = `${crashWay(way, failure)}\u0000${member}`;
        if (!kept.has(key)) kept.set(key, identityOf(String(check.id), failure).fingerprint);
      }
    }
  }
  if (kept.size === 0) return [...checks];
  return withFolded(checks, (_checkId, failure) => {
    const defect = failure.defect ?? '';
    const way = [INVALID_CRASH, NOT_UTF8_CRASH, SURROGATE_CRASH, REQUEST_CRASH]
      .map((crash) => crash.exec(defect)?.[1])
      .find(Boolean);
    const body = way === undefined ? undefined : jsonOf(failure.request.body);
    if (way === undefined || !isObject(body)) return undefined;
    return crashMembers(body, required, signs.declaredNames, false)
      .map((member) => kept.get(`${crashWay(way, failure)}\u0000${member}`))
      .find((fingerprint) => fingerprint !== undefined);
  });
}

/**
 * The members of a crash's body that may be its cause: its top-level members (those the document does not require,
 * for a valid NewPlant's crash), and the member names at any depth that the document declares nowhere
 * ({@link RunSigns.declaredNames}), marked `…` (ajv's uniqueItems throwing on an item's `"toString"` inside a required
 * `beds`: shrinking kept it, so the crash needs it).
 */
function crashMembers(
  body: Record<string, unknown>,
  required: ReadonlySet<string>,
  declared: ReadonlySet<string> | undefined,
  valid: boolean,
): string[] {
  const top = Object.keys(body).filter((key) => !valid || !required.has(key));
  if (declared === undefined) return top;
  const nested: string[] = [];
  const pending: unknown[] = Object.values(body);
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...(node as unknown[]));
    else if (isObject(node))
      for (const [key, item] of Object.entries(node)) {
        if (!declared.has(key)) nested.push(`…${key}`);
        pending.push(item);
      }
  }
  return [...top, ...nested];
}

/**
 * Every member name a schema declares at any depth (the keys of its `properties`, `required` and `dependent*`
 * keywords): a name outside it is an extra member some body carries.
 */
export function declaredMemberNames(schema: unknown): ReadonlySet<string> {
  const names = new Set<string>();
  const seen = new Set<object>();
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object' || seen.has(node)) continue;
    seen.add(node);
    if (!Array.isArray(node)) {
      const keyword = node as Record<string, unknown>;
      for (const name of ['properties', 'dependentRequired', 'dependentSchemas'])
        if (isObject(keyword[name])) for (const key of Object.keys(keyword[name])) names.add(key);
      if (Array.isArray(keyword.required))
        for (const key of keyword.required) if (typeof key === 'string') names.add(key);
    }
    pending.push(...(Object.values(node) as unknown[]));
  }
  return names;
}

/**
 * Crashes (the same way) on invalid bodies holding a number no double holds (`1e400`, an integer of 10,000 digits:
 * each reads as ±Infinity) are one root cause on a target that reads integers beyond 2^53 through doubles (the
 * doubles finding is there): PHP's `json_decode` reads both as INF and the echo's `json_encode` throws on it, one fix
 * (refuse a number that is not finite), one finding shown by the smallest body. A target reading integers exactly
 * keeps them apart: Python's `json` reads `1e400` as inf but 10,000 digits as an int past its 4,300-digit limit (a
 * ValueError in the parser), two fixes.
 */
export function withInfiniteDoubleCrashesFolded(checks: readonly CheckResult[]): CheckResult[] {
  const doubles = checks.some(
    (check) =>
      check.status === 'fail' &&
      check.failures.some(
        (failure) => (failure.foldedInto ?? identityOf(String(check.id), failure).fingerprint) === DOUBLES_FINGERPRINT,
      ),
  );
  if (!doubles) return [...checks];
  const smallestOf = new Map<string, { failure: Failure; fingerprint: string }>();
  const wayOf = (failure: Failure): string | undefined => {
    const way = INVALID_CRASH.exec(failure.defect ?? '')?.[1];
    return way === undefined || !holdsInfiniteDouble(failure.request.body) ? undefined : crashWay(way, failure);
  };
  for (const check of checks) {
    if (check.status !== 'fail') continue;
    for (const failure of check.failures) {
      const way = failure.foldedInto === undefined ? wayOf(failure) : undefined;
      const shown = way === undefined ? undefined : smallestOf.get(way);
      if (way !== undefined && (shown === undefined || counterexampleSize(failure) < counterexampleSize(shown.failure)))
        smallestOf.set(way, { failure, fingerprint: identityOf(String(check.id), failure).fingerprint });
    }
  }
  return withFolded(checks, (checkId, failure) => {
    const way = wayOf(failure);
    const into = way === undefined ? undefined : smallestOf.get(way)?.fingerprint;
    return into === identityOf(checkId, failure).fingerprint ? undefined : into;
  });
}

/** Whether a JSON body holds a number a double cannot hold, which `JSON.parse` reads as ±Infinity. */
function holdsInfiniteDouble(body: string | null | undefined): boolean {
  // A walk with a stack of its own: a crash on arrays nested 20,000 deep is a body this may meet.
  const pending: unknown[] = [jsonOf(body)];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'number' && !Number.isFinite(value)) return true;
    if (value !== null && typeof value === 'object') for (const item of Object.values(value)) pending.push(item);
  }
  return false;
}

/** How a crash showed: its status or lost answer, and the answer's media type (one handler writes both alike). */
function crashWay(way: string, failure: Failure): string {
  const label = Object.entries(failure.response.headers).find(([name]) => name.toLowerCase() === 'content-type');
  return `${way}\u0000${label === undefined ? '' : mediaTypeEssence(label[1])}`;
}

/**
 * The kinds of character beyond printable ASCII (`nul`, `control`, `beyond-ascii`) in the strings (member names
 * included) of a JSON body, leaving out the top-level member `skipped` (the field an invalid body breaks).
 */
function characterKinds(body: string | null | undefined, skipped: string | undefined): string[] {
  let value: unknown;
  try {
    value = JSON.parse(body ?? '');
  } catch {
    return [];
  }
  const texts: string[] = [];
  // A stack, not recursion: robustness cases nest arrays 20,000 deep, past the call stack.
  const pending: unknown[] = isObject(value)
    ? Object.entries(value).flatMap(([key, item]) => (key === skipped ? [] : [key, item]))
    : [value];
  while (pending.length > 0) {
    const node = pending.pop();
    if (typeof node === 'string') texts.push(node);
    else if (Array.isArray(node)) pending.push(...(node as unknown[]));
    else if (isObject(node)) for (const [key, item] of Object.entries(node)) pending.push(key, item);
  }
  const kinds = new Set([...texts.join('')].map(characterKind));
  return ['nul', 'control', 'beyond-ascii'].filter((kind) => kinds.has(kind));
}

/** A character's kind for {@link characterKinds}: `nul`, `control` (C0, DEL, C1), `surrogate`, `beyond-ascii`, else `plain`. */
function characterKind(character: string): string {
  const point = character.codePointAt(0) ?? 0;
  if (point === 0) return 'nul';
  if (point < 0x20 || (point >= 0x7f && point <= 0x9f)) return 'control';
  // An unpaired surrogate is JSON of unpredictable meaning, never in a valid NewPlant: UTF-8 writers fail on it alone.
  if (point >= 0xd800 && point <= 0xdfff) return 'surrogate';
  return point > 0x7f ? 'beyond-ascii' : 'plain';
}

/** `the 401 body is not a valid Error (enum at "error")`: a refusal's body breaking its schema at a field. */
const REFUSAL_BROKEN = /^the (4\d\d|5\d\d) body is not (.+) \((\w+) at "([^"]+)"\)$/;

/**
 * Refusals of several statuses whose bodies break the schema at the same field with the same value (the 400's
 * and the 401's `"error": 1001`, outside the document's enum) are one root cause, the service's one error
 * builder: the later statuses' failures fold into the lowest status's finding. So do bodies missing one member,
 * when they hold the same members of the same types (`{"code": …, "message": …}` for every status). A value of
 * another kind, or a body of another shape (a 401 built by an auth layer of its own), stays its own finding.
 */
export function withSharedRefusalBodiesFolded(checks: readonly CheckResult[]): CheckResult[] {
  return foldedIntoLowestStatus(checks, (checkId, failure) => {
    const match = checkId === 'response-schema' ? REFUSAL_BROKEN.exec(failure.defect ?? '') : null;
    const value = match === null ? undefined : brokenValue(failure.response.body, match[3] ?? '', match[4] ?? '');
    if (match === null || value === undefined) return undefined;
    return { status: Number(match[1]), key: `${match[2]}|${match[3]}|${match[4]}|${value}` };
  });
}

/** `the 401 answer is labelled text/plain`, `the 200 body is not JSON`: an answer's label or body not JSON. */
const REFUSAL_NOT_JSON = /^the ([24]\d\d) (answer is labelled .+|body is not JSON)$/;

/**
 * Refusals of several 4xx statuses labelled alike (Koa's default error handler writing `text/plain` for
 * `ctx.throw(400)` and `ctx.throw(401)`, nginx's `error_page` HTML) or whose JSON-labelled bodies are not JSON
 * are one root cause, the service's one way of writing errors: one finding named for them all ({@link
 * sharedLabelDefect}), shown by the lowest status. A success labelled as they are joins them (PHP's default text/html
 * for every `echo`, Pyramid's `Response(headers={…})` dropping every answer's Content-Type, Go's `w.WriteHeader`
 * before `w.Header().Set`): one writer of every answer.
 */
export function withSharedRefusalLabelsFolded(checks: readonly CheckResult[]): CheckResult[] {
  const groups = new Map<string, { statuses: Set<number>; members: Set<string>; shown?: [number, string, Failure] }>();
  for (const check of checks) {
    if (check.status !== 'fail') continue;
    for (const failure of check.failures) {
      const match = failure.foldedInto === undefined ? REFUSAL_NOT_JSON.exec(failure.defect ?? '') : null;
      if (match === null) continue;
      const [status, key] = [Number(match[1]), match[2] ?? ''];
      const group = groups.get(key) ?? { statuses: new Set<number>(), members: new Set<string>() };
      group.statuses.add(status);
      group.members.add(identityOf(String(check.id), failure).fingerprint);
      const shown = group.shown;
      if (shown === undefined || status < shown[0] || (status === shown[0] && smaller(failure, shown[2])))
        group.shown = [status, String(check.id), failure];
      groups.set(key, group);
    }
  }
  const named = [...groups]
    .filter(([, { statuses }]) => statuses.size >= 2)
    .map(([key, { statuses, members, shown }]) => ({
      checkId: shown![1],
      shown: shown![2],
      defect: sharedLabelDefect(Math.min(...statuses), key),
      members: [...members],
    }));
  return withGroupsNamed(checks, named);
}

/**
 * The finding of answers of several statuses labelled alike, or not JSON alike, named by what they share: `the 200
 * and 4xx answers are labelled text/plain` (Go's `w.WriteHeader` before `w.Header().Set`, every answer sniffed), `the
 * 4xx answers are labelled text/html` (one error page for every refusal). It was titled by the lowest status alone.
 */
export function sharedLabelDefect(lowest: number, key: string): string {
  const statuses = lowest < 300 ? `${lowest} and 4xx` : '4xx';
  return key === 'body is not JSON'
    ? `the ${statuses} bodies are not JSON`
    : `the ${statuses} answers are ${key.replace(/^answer is /, '')}`;
}

function smaller(failure: Failure, than: Failure): boolean {
  return counterexampleSize(failure) < counterexampleSize(than);
}

/** A failure's status among refusals one builder may have written, and what it shares with the others. */
interface RefusalShape {
  readonly status: number;
  readonly key: string;
}

/** The failures of one shape ({@link RefusalShape}, not yet folded) folded into the finding of the lowest status's. */
function foldedIntoLowestStatus(
  checks: readonly CheckResult[],
  shapeOf: (checkId: string, failure: Failure) => RefusalShape | undefined,
): CheckResult[] {
  const shapes = new Map<Failure, RefusalShape>();
  const lowest = new Map<string, { status: number; fingerprint: string }>();
  for (const check of checks) {
    if (check.status !== 'fail') continue;
    for (const failure of check.failures) {
      const shape = failure.foldedInto === undefined ? shapeOf(String(check.id), failure) : undefined;
      if (shape === undefined) continue;
      shapes.set(failure, shape);
      const held = lowest.get(shape.key);
      if (held === undefined || shape.status < held.status)
        lowest.set(shape.key, { status: shape.status, fingerprint: identityOf(String(check.id), failure).fingerprint });
    }
  }
  return withFolded(checks, (_checkId, failure) => {
    const shape = shapes.get(failure);
    const into = shape === undefined ? undefined : lowest.get(shape.key);
    return into === undefined || into.status === shape?.status ? undefined : into.fingerprint;
  });
}

/**
 * What a refusal's body holds where it breaks its schema: the JSON text of the value at the dotted field, or, for a
 * member missing (`required`), the body's own shape (its members and their JSON types): one builder writes
 * `{"code": 401, "message": …}` as it writes `{"code": 400, "message": …}`, while FastAPI's 401
 * `{"detail": "Not authenticated"}` and its 422 `{"detail": [ … ]}` come from two handlers.
 */
function brokenValue(body: string | null | undefined, keyword: string, field: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body ?? '');
  } catch {
    return undefined;
  }
  const whole = value;
  for (const key of field.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key))
      return keyword === 'required' ? `absent from ${membersOf(whole)}` : undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return JSON.stringify(value);
}

/** The members of a JSON object and the JSON type of each, in order of name: `{code:number,message:string}`. */
function membersOf(value: unknown): string {
  if (!isObject(value)) return jsonType(value);
  const members = Object.keys(value)
    .sort()
    .map((key) => `${key}:${jsonType(value[key])}`);
  return `{${members.join(',')}}`;
}

/** A parsed JSON value's type as JSON names it: `array` and `null` apart from `object`. */
function jsonType(value: unknown): string {
  return Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
}

/** The folds of failures that are another finding's root cause, in the order the runner and the proxy apply them. */
export function withRootCausesFolded(checks: readonly CheckResult[], signs: RunSigns = {}): CheckResult[] {
  const unvalidated = withUnvalidatedFolded(withDoublesFolded(checks, signs), signs);
  const members = withIgnoredMembersFolded(withMemberRulesFolded(withItemRulesFolded(unvalidated), signs), signs);
  const required = withZeroValuesFolded(withNestedRequiredFolded(members));
  return withOrphansReleased(FOLDS.reduce((folded, fold) => fold(folded, signs), required));
}

/**
 * A failure folded into a finding that no failure owns any more is released to its own fingerprint. A `true` taken
 * for an id is folded, when the check is judged, into the id's other wrong reading (`2^53+N.5` accepted); the doubles
 * fold then takes that reading for the doubles' symptom it is, and the `true` was left alone in a finding of its own
 * titled as the lenient reader's, beside that reader's finding for `name` and `tag` (Fastify's default ajv on
 * JSON.parse: two findings, one title). Released, it joins the reader's finding. A fold's own named target (the
 * doubles') is owned.
 */
function withOrphansReleased(checks: readonly CheckResult[]): CheckResult[] {
  const owned = new Set<string>(FOLDED_TITLES.keys());
  for (const check of checks)
    for (const failure of check.status === 'fail' ? check.failures : [])
      if (failure.foldedInto === undefined) owned.add(identityOf(String(check.id), failure).fingerprint);
  return mapFailures(checks, (failure) =>
    failure.foldedInto === undefined || owned.has(failure.foldedInto) ? failure : unfolded(failure),
  );
}

/** The failure reported under its own fingerprint. */
function unfolded(failure: Failure): Failure {
  const { foldedInto, ...own } = failure;
  return foldedInto === undefined ? failure : own;
}

/** A refusal of a valid NewPlant titled for what its body holds: `status 400 for a valid NewPlant with a "__proto__" …`. */
const REFUSED_VALID_WITH = /^status (\d{3}) for a valid NewPlant with /;
/** The plain refusal: `status 400 for a valid NewPlant`. */
const REFUSED_VALID = /^status (\d{3}) for a valid NewPlant$/;

/**
 * A refusal of a valid NewPlant titled for what its body holds (a `"__proto__"` or `"constructor"` member, a member
 * the document does not name), since its answer seemed to say so, is the plain refusal's root cause where a valid
 * NewPlant without it got the same answer (same status, same body numbers aside): that answer says nothing of the
 * member. A PHP server reading `php://input` from a stream a size check had read to its end refuses every body with
 * `json_decode('')`'s "Syntax error" ("not valid JSON", Fastify's words for a `"__proto__"` member): one finding, not
 * two. An answer of its own (Fastify's beside a `minLength` refusal) stays apart.
 */
export function withSameAnswerRefusalsFolded(checks: readonly CheckResult[]): CheckResult[] {
  const acceptance = checks.find((check) => check.id === 'positive-acceptance' && check.status === 'fail');
  const plain = new Map<string, string>();
  for (const failure of acceptance?.failures ?? []) {
    const status = failure.foldedInto === undefined ? REFUSED_VALID.exec(failure.defect ?? '')?.[1] : undefined;
    const key = `${status} ${answerShape(failure)}`;
    if (status !== undefined && !plain.has(key)) plain.set(key, identityOf('positive-acceptance', failure).fingerprint);
  }
  if (plain.size === 0) return [...checks];
  return withFolded(checks, (checkId, failure) => {
    const status = checkId === 'positive-acceptance' ? REFUSED_VALID_WITH.exec(failure.defect ?? '')?.[1] : undefined;
    return status === undefined ? undefined : plain.get(`${status} ${answerShape(failure)}`);
  });
}

/** An answer's body with its numbers written `#`: ids and codes aside, what it says. */
function answerShape(failure: Failure): string {
  return (failure.response.body ?? '').replace(/\d+/g, '#');
}

/**
 * The finding of pattern matches followed by a newline accepted for two fields or more ({@link withNewlineMatchesFolded}).
 */
export const NEWLINE_AFTER_MATCH_DEFECT =
  'invalid bodies accepted with a newline after a match of their pattern ($ matching before a final newline)';

/** `an invalid body ("name" holds "…": name a match of pattern ^…$ followed by a newline (keyword pattern)) accepted`. */
const NEWLINE_AFTER_MATCH =
  /^an invalid body \(.* a match of pattern .* followed by a newline \(keyword pattern\)\) accepted$/;

/**
 * Matches of a pattern followed by a newline accepted for several fields are one root cause, the regular expression
 * engine's `$`, which also matches before a final newline (PHP's `preg_match` without the `D` modifier, Python's
 * `re.match`, Ruby's line anchors): one fix for every pattern (`/D`, `\z`, `re.fullmatch`). They fold into
 * {@link NEWLINE_AFTER_MATCH_DEFECT}, shown by the smallest; one field alone keeps its own title.
 */
export function withNewlineMatchesFolded(checks: readonly CheckResult[]): CheckResult[] {
  return withGroupsFolded(
    checks,
    () => NEWLINE_AFTER_MATCH_DEFECT,
    (failure) => (NEWLINE_AFTER_MATCH.test(failure.defect ?? '') ? 'newline' : undefined),
  );
}

/** The finding of the failures a validator's reading of the document explains ({@link withValidatorReadingsFolded}). */
export function validatorReadingDefect(drops: string): string {
  return `${drops} ignored, as an older JSON Schema draft's validator reads the document (invalid bodies accepted or valid NewPlants refused)`;
}

const REFUSED_VALID_PLANT = /^status \d{3} for a valid NewPlant$/;

/**
 * Failures that one reading of the document by an older validator explains ({@link RunSigns.readings}): invalid bodies
 * accepted that the reading takes, valid NewPlants refused that it refuses. Two or more of them are one root cause,
 * the validator (a Draft 7 one ignoring `maxLength` beside a `$ref` and `required` beside another; a Draft 4 one,
 * which has no `const`, taking `"kind": "herbb"` and refusing a tree that now matches both branches of a `oneOf`):
 * one fix, a validator of the document's dialect. The reading that explains most is taken; one failure alone keeps
 * its own title.
 */
export function withValidatorReadingsFolded(checks: readonly CheckResult[], signs: RunSigns = {}): CheckResult[] {
  const explained = (signs.readings ?? []).map((reading) => {
    const members: { checkId: string; failure: Failure }[] = [];
    for (const check of checks)
      for (const failure of check.status === 'fail' ? check.failures : [])
        if (failure.foldedInto === undefined && explains(reading, String(check.id), failure))
          members.push({ checkId: String(check.id), failure });
    const fingerprints = new Set(members.map(({ checkId, failure }) => identityOf(checkId, failure).fingerprint));
    return { reading, members, fingerprints };
  });
  const best = explained.reduce<(typeof explained)[number] | undefined>(
    (most, next) => (next.fingerprints.size > (most?.fingerprints.size ?? 1) ? next : most),
    undefined,
  );
  if (best === undefined) return [...checks];
  const shown = smallest(reproducibleFirst(best.members.map(({ failure }) => failure)));
  const checkId = best.members.find(({ failure }) => failure === shown)?.checkId ?? 'negative-rejection';
  const defect = validatorReadingDefect(best.reading.drops);
  const named = withGroupsNamed(checks, [{ checkId, shown, defect, members: [...best.fingerprints] }]);
  const how = checkId === 'positive-acceptance' ? 'refuses this NewPlant too' : 'takes this body as valid';
  const why = ` A validator ignoring ${best.reading.drops} (an older JSON Schema draft's: Draft 7 and older ignore keywords beside a $ref, Draft 4 has no const) ${how}, and explains ${best.fingerprints.size} failures of this run.`;
  return mapFailures(named, (failure) =>
    failure.defect === defect && failure.foldedInto === undefined
      ? { ...failure, reason: `${failure.reason}${why}` }
      : failure,
  );
}

/** Whether a reading explains a failure: an invalid body accepted that it takes, a valid NewPlant refused that it refuses. */
function explains(reading: ValidatorReading, checkId: string, failure: Failure): boolean {
  const body = failure.request.body;
  if (body === null || failure.request.bodyBase64 !== undefined) return false;
  if (checkId === 'negative-rejection' && BROKEN_AT_ACCEPTED.test(failure.defect ?? ''))
    return reading.accepts(body) === true;
  if (checkId === 'positive-acceptance' && REFUSED_VALID_PLANT.test(failure.defect ?? ''))
    return reading.accepts(body) === false;
  return false;
}

/** `an invalid body ("companions.0.unexpected": …) accepted`: the path broken and the rest of the description. */
const BROKEN_AT_ACCEPTED = /^an invalid body \("([^"]+)"(.*)\) accepted$/;

/**
 * The same rule accepted broken at two depths of a recursive schema (`companions.0.unexpected` and
 * `companions.0.companions.0.unexpected`, one `Companion` schema whose `additionalProperties` a validator drops) is one
 * root cause: the rule is missing (or ignored) in the one schema every depth is read by, one fix. A validator that does
 * not recurse refuses the shallower break, so it shows only the deeper: that finding alone. The deeper failures fold
 * into the shallowest's finding.
 */
export function withRecursionDepthsFolded(checks: readonly CheckResult[]): CheckResult[] {
  const shallowest = new Map<string, { depth: number; fingerprint: string }>();
  for (const check of checks)
    for (const failure of check.status === 'fail' ? check.failures : []) {
      const at = failure.foldedInto === undefined ? recursionKey(failure.defect) : undefined;
      const known = at === undefined ? undefined : shallowest.get(at.key);
      if (at !== undefined && (known === undefined || at.depth < known.depth))
        shallowest.set(at.key, { depth: at.depth, fingerprint: identityOf(String(check.id), failure).fingerprint });
    }
  return withFolded(checks, (checkId, failure) => {
    const at = recursionKey(failure.defect);
    const into = at === undefined ? undefined : shallowest.get(at.key);
    return into === undefined ||
      into.depth === at?.depth ||
      into.fingerprint === identityOf(checkId, failure).fingerprint
      ? undefined
      : into.fingerprint;
  });
}

/** An accepted break's path with repeated runs of segments collapsed (indices as `#`), and its depth. */
function recursionKey(defect: string | undefined): { key: string; depth: number } | undefined {
  const match = BROKEN_AT_ACCEPTED.exec(defect ?? '');
  if (match?.[1] === undefined) return undefined;
  const segments = match[1].split('.').map((segment) => (/^\d+$/.test(segment) ? '#' : segment));
  const depth = segments.length;
  for (let repeated = true; repeated;) {
    repeated = false;
    for (let size = 1; size * 2 <= segments.length && !repeated; size++)
      for (let start = 0; start + size * 2 <= segments.length && !repeated; start++) {
        const run = segments.slice(start, start + size);
        // A member's name in the run: nested arrays (`matrix.#.#`) are items of items, each its own schema.
        if (run.every((segment) => segment === '#')) continue;
        if (run.join('.') !== segments.slice(start + size, start + size * 2).join('.')) continue;
        segments.splice(start + size, size);
        repeated = true;
      }
  }
  // The description names the path again (`"care.light": care.light missing`): the rule is what is left.
  const rule = (match[2] ?? '').split(match[1]).join('\u0001');
  return { key: `${segments.join('.')}\u0000${rule}`, depth };
}

/** The folds after the doubles', the items' and the members', in order: each sees the failures the ones before it left unfolded. */
const FOLDS: readonly ((checks: readonly CheckResult[], signs: RunSigns) => CheckResult[])[] = [
  withValidatorReadingsFolded,
  withRecursionDepthsFolded,
  withTruncationFolded,
  withAbsentEchoesFolded,
  withUnsentLeftOutFolded,
  withLeadingDigitsFolded,
  withExponentRangesFolded,
  withTrimmedRefusalsFolded,
  withLengthUnitsFolded,
  withNonFiniteEchoesFolded,
  withCharacterCrashesFolded,
  withMemberCrashesFolded,
  withEncodedSurrogateCrashesFolded,
  withInfiniteDoubleCrashesFolded,
  withWentAwayOnCrashFolded,
  withSharedRefusalBodiesFolded,
  withSharedRefusalLabelsFolded,
  withSameAnswerRefusalsFolded,
  withNewlineMatchesFolded,
];

/**
 * The failed checks' counterexamples grouped by fingerprint: one finding per root cause, with the
 * checks it explains and its smallest counterexample. Most checks explained first, then report order.
 */
export function findingsOf(checks: readonly CheckResult[]): Finding[] {
  const groups = new Map<string, { title: string; checks: string[]; failures: Failure[] }>();
  const checkOf = new Map<Failure, string>();
  for (const check of checks) {
    if (check.status !== 'fail') continue;
    for (const failure of check.failures) {
      const identity = identityOf(String(check.id), failure);
      const key = failure.foldedInto ?? identity.fingerprint;
      const group = groups.get(key) ?? { title: FOLDED_TITLES.get(key) ?? identity.title, checks: [], failures: [] };
      if (!group.checks.includes(String(check.id))) group.checks.push(String(check.id));
      group.failures.push(failure);
      checkOf.set(failure, String(check.id));
      groups.set(key, group);
    }
  }
  const findings = [...groups].map(([fingerprint, group]) => {
    // A folded failure shows another symptom: the counterexample is an own failure when there is one, and the
    // title is the counterexample's, so it describes the request shown (failures of one cause differ in what
    // they break: a field missing, or holding an array).
    const own = group.failures.filter((failure) => failure.foldedInto === undefined);
    const shown = reproducibleFirst(own.length > 0 ? own : group.failures);
    const counterexample = smallest(speakingFirst(shown, (failure) => identityOf(checkOf.get(failure) ?? '', failure)));
    const title = own.length > 0 ? identityOf(checkOf.get(counterexample) ?? '', counterexample).title : group.title;
    return { fingerprint, title, checks: group.checks, counterexample };
  });
  // A stable sort: equal counts keep the order of the checks in the report.
  return findings.sort((a, b) => b.checks.length - a.checks.length);
}

function identityOf(checkId: string, failure: Failure): { title: string; fingerprint: string } {
  if (failure.fingerprint !== undefined) {
    return { fingerprint: failure.fingerprint, title: failure.defect ?? reasonShape(checkId, failure.reason) };
  }
  return defectIdentity(checkId, failure.reason, failure.defect);
}

/**
 * Failures whose reproduction does not depend on what the target holds, when there are any: a refusal
 * of a valid NewPlant (a doubles collision with an id stored before, named so or not: `2^63-2` refused as a
 * repeat of the `2^63-1` an earlier case stored, which a fresh instance accepts) or an invalid body refused as
 * a repeat (its defect an acceptance, its answer a 4xx) reproduces only on that store. A case of several
 * requests does, its curl lines sending them all. Then a pair of ids one double apart: its curl line sends
 * both, so it shows the collision on any instance.
 */
function reproducibleFirst(failures: readonly Failure[]): readonly Failure[] {
  const alone = failures.filter(
    (failure) =>
      !/^status \d{3} for a valid NewPlant$/.test(failure.defect ?? '') &&
      !(failure.defect?.endsWith(' accepted') === true && isClientErrorStatus(failure.response.status)) &&
      !(failure.defect === DOUBLES_DEFECT && isClientErrorStatus(failure.response.status) && !sendsSeveral(failure)),
  );
  const pairs = failures.filter((failure) => failure.reason.includes(SAME_DOUBLE));
  return alone.length > 0 ? alone : pairs.length > 0 ? pairs : failures;
}

/**
 * Of the smallest failures, those whose reason opens with their defect's words (`An invalid body (…) was accepted`
 * for `an invalid body (…) accepted`), when there are any: one exchange may fail several checks, and another check's
 * reason speaks of another fault of the same answer (nim's 200 to a trailing comma has no Content-Type: content-type
 * names the acceptance as its defect, its reason the label). A smaller counterexample still goes first.
 */
function speakingFirst(
  failures: readonly Failure[],
  identity: (failure: Failure) => { title: string },
): readonly Failure[] {
  const least = Math.min(...failures.map(counterexampleSize));
  const tied = failures.filter((failure) => counterexampleSize(failure) === least);
  const speaking = tied.filter((failure) => {
    const opening = identity(failure).title.split(' ').slice(0, 3).join(' ').toLowerCase();
    return opening !== '' && failure.reason.toLowerCase().startsWith(opening);
  });
  return speaking.length > 0 ? speaking : tied;
}

/** Whether a failure's case sent several requests up to the failing one (its curl lines send them all). */
function sendsSeveral(failure: Failure): boolean {
  return (failure.requests ?? 1) > 1;
}

function isClientErrorStatus(status: number): boolean {
  return status >= 400 && status < 500;
}

function smallest(failures: readonly Failure[]): Failure {
  return failures.reduce((best, failure) => (counterexampleSize(failure) < counterexampleSize(best) ? failure : best));
}

/**
 * How large a counterexample's body looks, its numbers of int64 size counted as one character: the fresh
 * ids of two cases differ in length by chance, while a 10,000-digit id is what makes a body large.
 */
export function counterexampleSize(failure: Pick<Failure, 'request'>): number {
  return bodySize(failure.request.bodyBase64 ?? failure.request.body ?? '');
}

/** A body's length with each number of up to 20 digits counted as one character: fresh ids differ in length. */
export function bodySize(body: string): number {
  return body.replace(/-?\d{1,20}(?!\d)/g, '0').length;
}
