import { createInstance, getHttpOperationsFromSpec } from '@stoplight/prism-http';
import type { IHttpConfig, IHttpOperationConfig, IHttpRequest, IHttpResponse } from '@stoplight/prism-http';
import { OPERATION, type Contract } from '../contract/index.js';

/**
 * What the mock asks Prism for one request the pipeline has already judged valid: what the client
 * accepts and prefers. Prism's own request validation and security check are off, so the body and
 * the credentials are not Prism's business.
 */
export interface PrismQuestion {
  readonly accept: string | undefined;
  readonly preferences: Partial<Pick<IHttpOperationConfig, 'code' | 'exampleKey' | 'dynamic' | 'seed'>>;
}

/** Prism's decision: a response built from the spec, or a problem Prism raised (status and detail). */
export type PrismDecision =
  | { readonly kind: 'response'; readonly response: IHttpResponse; readonly violations?: readonly RequestViolation[] }
  | {
      readonly kind: 'problem';
      readonly status: number;
      readonly type: string;
      readonly detail: string;
      readonly violations?: readonly RequestViolation[];
    };

/** What Prism's request validation found wrong (other operations only): where (`["path", "id"]`) and what. */
export interface RequestViolation {
  readonly location: readonly string[];
  readonly message: string;
}

/** The `type` of a problem Prism threw instead of returning. */
export const PRISM_EXCEPTION = 'prism-exception';

/** Prism, prepared once: the one operation resolved, one instance, asked once per request. */
export interface PrismEngine {
  decide(question: PrismQuestion): Promise<PrismDecision>;
  /** The static decision Prism already made for this question's class, if any: no need to ask again. */
  known(question: PrismQuestion): PrismDecision | undefined;
  /**
   * Prism's answer to a request for another operation of the document (`GET /plants/{id}`), at its
   * path as the document writes it: the documented example, else a sample (generated with `dynamic`).
   */
  answerOther(request: OtherRequest, preferences: PrismQuestion['preferences']): Promise<PrismDecision>;
}

/** A request for another operation, as Prism reads it. */
export interface OtherRequest {
  readonly method: string;
  /** The path below the document's server path: `/plants/5`. */
  readonly path: string;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly accept: string | undefined;
  /** The request's other headers, for the operation's header parameters. */
  readonly headers: Readonly<Record<string, string>>;
  /** The path parameters' texts by name, as the request wrote them (`{id: '5'}`). */
  readonly pathParameters?: Readonly<Record<string, string>>;
  /** Whether the request sent a body (Prism is not given it, so its "Body parameter is required" is wrong then). */
  readonly sentBody?: boolean;
}

type Operation = Awaited<ReturnType<typeof getHttpOperationsFromSpec>>[number];

/**
 * Prism decides only what it alone decides: the status a `Prefer` asks for, the named example,
 * negotiation on Accept, and generated bodies. Validation (of the request and of its own output)
 * and the security check are the pipeline's, which judges them exactly.
 */
const BASE_CONFIG = {
  validateRequest: false,
  validateResponse: false,
  checkSecurity: false,
  errors: false,
  upstreamProxy: undefined,
  isProxy: false,
} as const;

/** At most this many static decisions are kept (clients choose Accept and Prefer, memory must not follow). */
export const DECISIONS_KEPT = 256;

/**
 * Prism calls these levels (`success` is a custom pino level); a no-op logger whose `child` is
 * itself costs nothing per request, where pino would build a child logger every time.
 */
const noop = (): void => undefined;
const silentLogger = {
  child: () => silentLogger,
  trace: noop,
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  fatal: noop,
  success: noop,
};

/**
 * The document with the operation's answers keyed by a media range (springdoc's `*\/*`) keyed
 * `application/json` instead, the type plantstore answers with: Prism matches an Accept of
 * `application/json` only to a content of that type, and answers 406 otherwise.
 */
function withJsonAnswers(document: Record<string, unknown>, contract: Contract): Record<string, unknown> {
  const paths = document.paths as Record<string, Record<string, { responses?: Record<string, unknown> }>>;
  const responses = paths[contract.operationPath]?.[OPERATION.method]?.responses ?? {};
  for (const response of Object.values(responses)) {
    const content = (response as { content?: Record<string, unknown> } | null)?.content;
    if (content === undefined || content === null || 'application/json' in content) continue;
    const range = ['application/*', '*/*'].find((key) => key in content);
    if (range !== undefined) {
      content['application/json'] = content[range];
      delete content[range];
    }
  }
  return document;
}

/**
 * Converts the contract's document into Prism's operations once and keeps one instance. A static
 * (not generated) decision depends only on the preferred status and example and on Accept, so it
 * is made by Prism once per such class and then reused.
 */
export async function createPrismEngine(contract: Contract, dynamic: boolean): Promise<PrismEngine> {
  // getHttpOperationsFromSpec dereferences in place: give it a copy.
  const operations = await getHttpOperationsFromSpec(withJsonAnswers(structuredClone(contract.document), contract));
  const path = contract.operationPath;
  const operation = operations.find((op) => op.method === OPERATION.method && op.path === path);
  if (!operation) throw new Error(`Prism found no ${OPERATION.method.toUpperCase()} ${path} operation`);
  const resources: Operation[] = [operation];
  const others = operations.filter((candidate) => candidate !== operation);
  // Cast: pino 6 ships no types, so tsc takes whichever pino it finds further up the tree (a checkout inside a
  // folder whose node_modules holds a typed pino failed to compile); Prism only calls these methods.
  const components = { logger: silentLogger } as unknown as Parameters<typeof createInstance>[1];
  const prism = createInstance({ ...BASE_CONFIG, mock: { dynamic } }, components);
  const decisions = new BoundedMemo<PrismDecision>(DECISIONS_KEPT);
  // Callbacks are requests Prism makes per answer: with any, every answer is Prism's afresh.
  const memoizable = !operation.callbacks?.length;

  async function ask(input: IHttpRequest, config: IHttpConfig, among = resources): Promise<PrismDecision> {
    let result: Awaited<ReturnType<ReturnType<typeof prism.request>>>;
    try {
      result = await prism.request(input, among, config)();
    } catch (error) {
      // Prism throws instead of answering on some inputs (an Accept header that is no media type).
      const detail = error instanceof Error ? error.message : String(error);
      return { kind: 'problem', status: 500, type: PRISM_EXCEPTION, detail };
    }
    if (result._tag === 'Right') {
      // Severity 0 is an error (DiagnosticSeverity.Error); warnings do not refuse a request.
      const found = result.right.validations.input.filter((violation) => Number(violation.severity) === 0);
      if (found.length === 0) return { kind: 'response', response: result.right.output };
      const violations = found.map(({ path, message }) => ({ location: (path ?? []).map(String), message }));
      return { kind: 'response', response: result.right.output, violations };
    }
    const failure = result.left as Error & {
      status?: number;
      detail?: string;
      additional?: { validation?: { location?: unknown[]; message?: string }[] };
    };
    const violations = (failure.additional?.validation ?? []).map(({ location, message }) => ({
      location: (location ?? []).map(String),
      message: message ?? '',
    }));
    return {
      kind: 'problem',
      status: failure.status ?? 500,
      type: failure.name,
      detail: failure.detail ?? failure.message,
      ...(violations.length > 0 ? { violations } : {}),
    };
  }

  /** The class of a static decision: Accept, the preferred status and the example; none for a generated one. */
  const keyOf = (question: PrismQuestion): string | undefined => {
    const { preferences } = question;
    if (!memoizable || (preferences.dynamic ?? dynamic)) return undefined;
    const { accept } = question;
    const { code, exampleKey } = preferences;
    // The usual request chooses none of the three: its key is not built anew each time.
    if (accept === undefined && code === undefined && exampleKey === undefined) return NOTHING_CHOSEN;
    // Header values hold no line feed, so the three parts cannot run into each other.
    return `${accept === undefined ? '-' : `+${accept}`}\n${code ?? ''}\n${exampleKey === undefined ? '-' : `+${exampleKey}`}`;
  };

  return {
    async answerOther(request, preferences) {
      const input: IHttpRequest = {
        method: request.method.toLowerCase() as IHttpRequest['method'],
        url: { path: request.path, query: toQuery(request.query) },
        headers: { ...request.headers, ...(request.accept === undefined ? {} : { accept: request.accept }) },
      };
      const mock = { dynamic, ...definedOnly(preferences) };
      // Parameters are judged as the document says; the body is not sent to Prism, so its findings are not.
      const judged = await ask(input, { ...BASE_CONFIG, validateRequest: true, mock }, others);
      const found = (judged.violations ?? [])
        .filter(({ location, message }) => location[0] !== 'body' && !(request.sentBody && message === BODY_REQUIRED))
        .flatMap((violation) => int64Read(violation, request));
      if (found.length > 0) return { ...judged, violations: found };
      return judged.violations === undefined ? judged : ask(input, { ...BASE_CONFIG, mock: { ...mock } }, others);
    },
    known(question) {
      const key = keyOf(question);
      return key === undefined ? undefined : decisions.get(key);
    },
    async decide(question) {
      const key = keyOf(question);
      const known = key === undefined ? undefined : decisions.get(key);
      if (known) return known;
      const input: IHttpRequest = {
        method: OPERATION.method,
        url: { path },
        headers: {
          'content-type': 'application/json',
          ...(question.accept === undefined ? {} : { accept: question.accept }),
        },
      };
      // A fresh mock object every time: Prism writes the Accept media types into it.
      const mock = { dynamic, ...definedOnly(question.preferences) };
      const decision = await ask(input, { ...BASE_CONFIG, mock });
      if (key !== undefined) decisions.set(key, decision);
      return decision;
    },
  };
}

/** Prism's violation (without a location) for an operation whose required body is missing. */
const BODY_REQUIRED = 'Body parameter is required';

const INT64_MAX = 2n ** 63n - 1n;
const SAFE_LIMIT = /must be ([<>]=) (-?)9007199254740991$/;

/**
 * Prism bounds an int64 parameter by JavaScript's safe integers (±2^53-1): an id of the document past
 * them (2^63-1) was refused. Such a violation is dropped for a decimal integer within int64, and said
 * with int64's own bounds otherwise. A document writing `maximum: 9007199254740991` itself reads as int64.
 */
function int64Read(violation: RequestViolation, request: OtherRequest): RequestViolation[] {
  const limit = SAFE_LIMIT.exec(violation.message);
  if (limit === null) return [violation];
  const [where, name = ''] = violation.location;
  // Prism names a path or query parameter in lower case (`plantid` for `{plantId}`).
  const text =
    where === 'path'
      ? named(request.pathParameters ?? {}, name)
      : where === 'query'
        ? [named(request.query, name) ?? []].flat()[0]
        : where === 'header'
          ? request.headers[name.toLowerCase()]
          : undefined;
  if (text !== undefined && /^-?\d{1,20}$/.test(text.trim())) {
    const value = BigInt(text.trim());
    if (value >= -INT64_MAX - 1n && value <= INT64_MAX) return [];
  }
  const bound = limit[1] === '<=' ? '9223372036854775807' : '-9223372036854775808';
  return [{ ...violation, message: violation.message.replace(SAFE_LIMIT, `must be ${limit[1] ?? ''} ${bound}`) }];
}

/** The value of `name` in `values`, its case as written or as Prism lower-cases it. */
function named<V>(values: Readonly<Record<string, V>>, name: string): V | undefined {
  return values[name] ?? Object.entries(values).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
}

/** The memo key of a question without Accept, a preferred status or an example (see `keyOf`). */
const NOTHING_CHOSEN = '-\n\n-';

/** A map that forgets its oldest entry when full. */
class BoundedMemo<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly limit: number) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    if (this.entries.size >= this.limit && !this.entries.has(key)) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, value);
  }
}

function toQuery(query: OtherRequest['query']): Record<string, string | string[]> {
  // A name given once is a string: Prism reads a one-item list as an array, which a scalar schema refuses.
  return Object.fromEntries(
    Object.entries(query).map(([name, value]) => [
      name,
      Array.isArray(value) && value.length === 1 ? (value[0] ?? '') : value,
    ]),
  );
}

function definedOnly<T extends object>(record: T): Partial<T> {
  const defined: Partial<T> = {};
  for (const name of Object.keys(record) as (keyof T)[]) if (record[name] !== undefined) defined[name] = record[name];
  return defined;
}
