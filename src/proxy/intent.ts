import { isUtf8 } from 'node:buffer';
import { checkMediaType, type Contract, type ProblemKind } from '../contract/index.js';
import { declaredJsonTypes, mediaTypeEssence } from '../contract/media-types.js';
import { readNewPlantBody } from '../contract/new-plant-request.js';
import type { AuthHeader } from '../runner/generate/auth-probe.js';
import type { Intent } from '../runner/probe.js';
import { idMemoryKey, type IdKey } from './id-memory.js';
import type { ParameterBreak, ParameterReader } from './parameters.js';

/** A request the proxy saw, as far as judging it needs. */
export interface ObservedRequest {
  readonly authorization: string | undefined;
  readonly contentType: string | undefined;
  /** The body's first bytes, up to the judging cap. */
  readonly body: Buffer;
  /** The body's whole length: more than `body` holds when it went over the cap. */
  readonly bodyBytes: number;
  readonly overCap: boolean;
  /** The body did not reach the upstream whole (it answered before the end): not read as a NewPlant. */
  readonly bodyCut?: boolean;
  /** The request target as sent (its query holds the document's query parameters). */
  readonly target: string;
  /** `[name, value, name, value, …]` as the client sent them. */
  readonly rawHeaders: readonly string[];
}

/** What the request meant, read the way the runner plans one, and whether the client broke the contract. */
export interface InferredIntent {
  readonly intent: Intent;
  /** The credential, described without its value. */
  readonly auth: AuthHeader;
  /** Why the request is not one the contract describes as valid (the client's side), if it is not. */
  readonly clientBreak?: string;
  /** The body as `parseExactJson` read it, when it is a valid NewPlant: what the echo check compares. */
  readonly sent?: Readonly<Record<string, unknown>>;
}

/** What the proxy knows besides the request: the token to expect, and ids already sent. */
export interface IntentContext {
  readonly contract: Contract;
  /** PLANTSTORE_TOKEN, when set: a bearer token other than it is a wrong credential. */
  readonly knownToken?: string;
  /** Records an id sent through the proxy; true when it was sent before (its 200 may carry the stored plant). */
  rememberId(id: IdKey): boolean;
  /** The document's header, query and cookie parameters, read from a request; absent when it declares none. */
  readonly readParameters?: ParameterReader;
}

/**
 * Infers the intent of one POST /plants request from what it carries: the credential first (a
 * request without a valid-looking one is about authentication, whatever its body), then the media
 * type, then the body (a valid NewPlant by the compiled schema, or why not), then the document's
 * parameters (a valid NewPlant with a broken parameter is an `invalid-parameter` request; any other
 * request's break gets the parameter's break beside its own).
 */
export function inferIntent(request: ObservedRequest, context: IntentContext): InferredIntent {
  const inferred = requestIntent(request, context);
  const { readParameters } = context;
  if (readParameters === undefined) return inferred;
  const broken = readParameters.broken(request.target, request.rawHeaders);
  return broken === undefined ? inferred : withParameterBreak(inferred, broken);
}

function withParameterBreak(inferred: InferredIntent, broken: ParameterBreak): InferredIntent {
  const said = `sent a request with ${broken.what}`;
  const { intent, auth, clientBreak } = inferred;
  if (intent.kind === 'valid' || intent.kind === 'valid-variant') {
    const { what, parameter } = broken;
    // A value lenient servers read as valid: whatever the server answers is its own reading.
    if (broken.lenient) return { intent: { kind: 'unpredictable', what }, auth, clientBreak: said };
    return { intent: { kind: 'invalid-parameter', what, parameter }, auth, clientBreak: said };
  }
  return {
    ...inferred,
    clientBreak: clientBreak === undefined ? said : `${clientBreak.replace(/\.$/, '')}; and ${said}`,
  };
}

function requestIntent(request: ObservedRequest, context: IntentContext): InferredIntent {
  const { credential, auth } = readCredential(request.authorization, context);
  if (credential) {
    const what = credential.what;
    return {
      intent: { kind: 'auth', what, ...(credential.lenient ? { lenient: true } : {}) },
      auth,
      clientBreak: `sent ${what}`,
    };
  }
  const declared = declaredOtherType(request.contentType, context.contract);
  if (declared !== undefined && !declared.json) {
    // A form or other non-JSON body the document also takes: plantstore reads NewPlants as JSON only.
    const what = `a body in ${declared.essence}, a type the document takes beside JSON: only the answer's form is judged`;
    return { intent: { kind: 'unpredictable', what }, auth };
  }
  const media = declared === undefined ? mediaTypeIntent(request.contentType) : undefined;
  if (media) {
    const sent = media.missing === true ? media.what : `Content-Type "${(request.contentType ?? '').slice(0, 60)}"`;
    return { intent: media, auth, clientBreak: `sent ${sent}; the contract's request is application/json` };
  }
  if (request.overCap) {
    const what = `a body of ${request.bodyBytes} bytes, over the proxy's judging cap of ${request.body.length} bytes: only the answer's form is judged`;
    return { intent: { kind: 'unpredictable', what }, auth };
  }
  if (request.bodyCut === true) {
    const what = `a body the upstream answered before it had taken whole (${request.bodyBytes} bytes came): only the answer's form is judged`;
    return { intent: { kind: 'unpredictable', what }, auth };
  }
  return bodyIntent(request, context, auth);
}

/** What a credential says, for one proxy: the same for every exchange that sends the same one. */
interface CredentialReading {
  readonly credential: { what: string; lenient?: boolean } | undefined;
  readonly auth: AuthHeader;
}

/** Readings of the credentials each context saw lately (clients send the same one again and again). */
const READINGS = new WeakMap<IntentContext, Map<string, CredentialReading>>();
const REMEMBERED_CREDENTIALS = 32;

/** The last credential read, compared before the maps: a client sends one credential again and again. */
let lastContext: IntentContext | undefined;
let lastCredential: string | undefined;
let lastReading: CredentialReading | undefined;

function readCredential(authorization: string | undefined, context: IntentContext): CredentialReading {
  if (context === lastContext && authorization === lastCredential && lastReading !== undefined) return lastReading;
  const reading = rememberedReading(authorization, context);
  lastContext = context;
  lastCredential = authorization;
  lastReading = reading;
  return reading;
}

function rememberedReading(authorization: string | undefined, context: IntentContext): CredentialReading {
  let readings = READINGS.get(context);
  if (readings === undefined) READINGS.set(context, (readings = new Map<string, CredentialReading>()));
  // No header and an empty one read alike: no credential.
  const key = authorization ?? '';
  let reading = readings.get(key);
  if (reading === undefined) {
    const parts = credentialParts(authorization);
    const auth = Object.freeze(describeAuth(parts));
    const { auth: asked } = context.contract;
    // A document asking no credential (`security: []`), or making it optional (`{}` among its requirements),
    // is called without one: that request is valid, as plantstore test sends its valid cases.
    const anonymous = asked === 'none' || (asked === 'optional' && parts === undefined);
    reading = Object.freeze({ credential: anonymous ? undefined : credentialProblem(parts, context.knownToken), auth });
    if (readings.size >= REMEMBERED_CREDENTIALS) readings.clear();
    readings.set(key, reading);
  }
  return reading;
}

const CREDENTIAL = /^\s*(\S+)(?:[ \t]+(.*?))?\s*$/s;

/** An Authorization value as its scheme word and what follows; `undefined` when there is none. */
function credentialParts(authorization: string | undefined): { scheme: string; token: string } | undefined {
  if (authorization === undefined || authorization.trim() === '') return undefined;
  const match = CREDENTIAL.exec(authorization);
  return { scheme: match?.[1] ?? '', token: match?.[2] ?? '' };
}

/** Why a credential is not a valid-looking bearer token, as the auth probes word it. */
function credentialProblem(
  parts: { scheme: string; token: string } | undefined,
  knownToken: string | undefined,
): { what: string; lenient?: boolean } | undefined {
  if (parts === undefined) return { what: 'no Authorization header' };
  const { scheme, token } = parts;
  if (scheme.toLowerCase() !== 'bearer') {
    if (token !== '') return { what: `another scheme (${schemeName(scheme)})` };
    // A bare word may be the right token without its scheme: lenient parsing, unless it is surely not the token.
    return {
      what: 'a credential without the "Bearer" scheme',
      lenient: knownToken === undefined || scheme === knownToken,
    };
  }
  if (token === '') return { what: 'an empty bearer token' };
  if (/\s/.test(token)) return { what: 'a malformed bearer header (two tokens)' };
  if (knownToken !== undefined && token !== knownToken) return { what: 'a bearer token other than $PLANTSTORE_TOKEN' };
  return undefined;
}

/** A scheme name fit to show: an HTTP token of a few characters, or a word saying it is not one. */
function schemeName(scheme: string): string {
  return /^[A-Za-z][A-Za-z0-9._~+-]{0,19}$/.test(scheme) ? scheme : 'not an HTTP token';
}

/** The credential as recorded: its scheme name only, the token always reads `$PLANTSTORE_TOKEN`. */
function describeAuth(parts: { scheme: string; token: string } | undefined): AuthHeader {
  if (parts === undefined) return { kind: 'none' };
  if (parts.token === '') return { kind: 'token-variant', variant: 'bare' };
  return { kind: 'token', scheme: schemeName(parts.scheme) };
}

/**
 * The media type of a request body the document declares besides `application/json` (Swashbuckle's
 * `text/json` and `application/*+json`, a form type): not the client's break, as `plantstore test` never sends
 * one as a wrong type. `json` when serve and the mock read it as JSON too ({@link declaredJsonTypes}), so its
 * body is read as a NewPlant.
 */
function declaredOtherType(
  contentType: string | undefined,
  contract: Contract,
): { essence: string; json: boolean } | undefined {
  if (contentType === undefined || contentType === 'application/json') return undefined;
  const essence = mediaTypeEssence(contentType);
  if (essence === 'application/json') return undefined;
  const json = declaredJsonTypes(contract.requestMediaTypes)(essence);
  return json || contract.requestMediaTypes.includes(essence) ? { essence, json } : undefined;
}

function mediaTypeIntent(contentType: string | undefined): Extract<Intent, { kind: 'media-type' }> | undefined {
  // What nearly every client sends, and what checkMediaType always accepts.
  if (contentType === 'application/json') return undefined;
  if (contentType === undefined || contentType.trim() === '')
    return { kind: 'media-type', what: 'no Content-Type', missing: true };
  if (!checkMediaType(contentType)) return undefined;
  // Named as the runner's media-type probe names it (`Content-Type text/plain`, no parameters), so the finding
  // has plantstore test's title and fingerprint; a value that is not a media type stays quoted (a shape, `"…"`).
  const essence = mediaTypeEssence(contentType);
  if (MEDIA_TYPE.test(essence)) return { kind: 'media-type', what: `Content-Type ${essence}` };
  return { kind: 'media-type', what: `Content-Type "${contentType.slice(0, 60)}"` };
}

/** A `type/subtype` of RFC 9110's token characters, at most 60 of them. */
const MEDIA_TYPE = /^(?=.{3,60}$)[a-z0-9!#$%&'*+.^_`|~-]+\/[a-z0-9!#$%&'*+.^_`|~-]+$/;

/** How a body that cannot be read as JSON is named, whatever the parser said of it. */
const UNREADABLE: Partial<Record<ProblemKind, string>> = {
  malformedJson: 'a body that is not JSON (or not UTF-8)',
  emptyBody: 'an empty body',
  tooDeep: 'JSON nested deeper than 256 levels',
};

/** A valid NewPlant (with the strings its 200 echoes), an invalid one, or one of unpredictable meaning. */
function bodyIntent(request: ObservedRequest, context: IntentContext, auth: AuthHeader): InferredIntent {
  // The media type was judged before (mediaTypeIntent): only the body is left to read.
  const read = readNewPlantBody(context.contract.check.newPlant, request.body);
  if (!read.ok && !isUtf8(request.body)) {
    const lossy = notUtf8Intent(request.body, context, auth);
    if (lossy !== undefined) return lossy;
  }
  if (!read.ok) {
    // The message is a sentence; `what` is a phrase the log and the findings put in their own sentences.
    // A parser's own words (where it stopped) vary with every body: a body that is not JSON is one kind.
    const what =
      UNREADABLE[read.problem.kind] ?? read.problem.message.replace(/^Invalid NewPlant: /, '').replace(/\.$/, '');
    return { intent: { kind: 'invalid-body', what }, auth, clientBreak: `sent an invalid NewPlant: ${what}` };
  }
  const [open] = context.contract.compiled.newPlant.ambiguities(read.parsed);
  if (open) return { intent: { kind: 'unpredictable', what: ambiguityText(open) }, auth };
  const { strings, unpaired } = stringFields(read.parsed);
  if (unpaired !== undefined) {
    const what = `"${unpaired}" holding an unpaired surrogate escape`;
    return {
      intent: { kind: 'unpredictable', what },
      auth,
      clientBreak: `sent ${what}, JSON whose meaning RFC 8259 (8.2) calls unpredictable`,
    };
  }
  const idMayRepeat = context.rememberId(idMemoryKey(read));
  const sent = read.parsed;
  const contentType = request.contentType ?? '';
  // The document's own media type, as written there (`application/json; charset=utf-8`), is the plain request.
  if (contentType === 'application/json' || contentType === context.contract.mediaTypes.newPlant)
    return { intent: { kind: 'valid', strings, idMayRepeat }, auth, sent };
  const writtenAs = { aspect: 'media-type', written: contentType } as const;
  return { intent: { kind: 'valid-variant', writtenAs, strings, idMayRepeat }, auth, sent };
}

/**
 * A body that is not valid UTF-8 but reads as a valid NewPlant once each invalid sequence is U+FFFD (as Express's
 * body-parser and Go read it): the contract does not say whether a server refuses or takes it, so only the answer's
 * form is judged, as for the runner's `not-utf8` cases. The client broke RFC 8259 (8.1): JSON text SHALL be UTF-8.
 */
function notUtf8Intent(body: Buffer, context: IntentContext, auth: AuthHeader): InferredIntent | undefined {
  const lossy = readNewPlantBody(context.contract.check.newPlant, Buffer.from(body.toString('utf8')));
  if (!lossy.ok) return undefined;
  const what = 'a NewPlant whose bytes are not valid UTF-8';
  return {
    intent: { kind: 'unpredictable', notUtf8: true, what },
    auth,
    clientBreak: `sent ${what}; RFC 8259 (8.1) says JSON text SHALL be UTF-8`,
  };
}

/** The body's string members, and the first of them holding an unpaired surrogate, if any does. */
function stringFields(value: Readonly<Record<string, unknown>>): {
  strings: Record<string, string>;
  unpaired: string | undefined;
} {
  const strings: Record<string, string> = {};
  let unpaired: string | undefined;
  for (const name of Object.keys(value)) {
    const field = value[name];
    if (typeof field !== 'string') continue;
    strings[name] = field;
    // Of the members `strings` holds: a plain object takes no own "__proto__" member.
    if (unpaired === undefined && name !== '__proto__' && !field.isWellFormed()) unpaired = name;
  }
  return { strings, unpaired };
}

/**
 * An Authorization value read as a bearer credential, for an operation that asks for one: why it is not a
 * valid-looking one (as the auth probes word it), and how it is recorded.
 */
export function bearerReading(
  authorization: string | undefined,
  knownToken: string | undefined,
): { readonly problem: { what: string; lenient?: boolean } | undefined; readonly auth: AuthHeader } {
  const parts = credentialParts(authorization);
  return { problem: credentialProblem(parts, knownToken), auth: describeAuth(parts) };
}

/** What makes a request's meaning depend on how the document is read: 3.0's open null, or a discriminator. */
function ambiguityText(open: { readonly field: string; readonly keyword?: string }): string {
  const at = open.field === '' ? 'the body' : `"${open.field}"`;
  return open.keyword === 'oneOf'
    ? `${at} valid with its discriminator honoured or ignored, not both`
    : `"${open.field}" null, valid or not as 3.0 is read`;
}
