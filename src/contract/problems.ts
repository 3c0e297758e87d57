/**
 * Every way a request to a Plant Store server of this project can fail, each with its own stable
 * int32 `error` code and HTTP status. The reference server and the mock answer with these; the
 * README's behaviour table lists them.
 */
export const PROBLEMS = {
  malformedJson: { code: 1001, status: 400, title: 'The body is not valid JSON (or not UTF-8)' },
  emptyBody: { code: 1002, status: 400, title: 'The body is empty' },
  unsupportedMediaType: { code: 1003, status: 400, title: 'Content-Type is not application/json (UTF-8)' },
  notAnObject: { code: 1004, status: 400, title: 'The body is not a JSON object' },
  missingField: { code: 1005, status: 400, title: 'A required field is missing' },
  wrongType: { code: 1006, status: 400, title: 'A field has the wrong JSON type' },
  invalidInteger: { code: 1007, status: 400, title: 'id is not a whole number in the int64 range' },
  tooDeep: { code: 1008, status: 400, title: 'The JSON nests too deeply' },
  bodyTooLarge: { code: 1009, status: 400, title: 'The body is larger than the server accepts' },
  duplicateId: { code: 1010, status: 400, title: 'A plant with this id already exists' },
  constraintViolated: { code: 1011, status: 400, title: 'A field breaks another rule of its schema' },
  malformedRequest: { code: 1012, status: 400, title: 'The request is not well-formed HTTP' },
  headersTooLarge: { code: 1013, status: 400, title: 'The request headers are too large' },
  requestTimeout: { code: 1014, status: 400, title: 'The request did not arrive in time' },
  invalidParameter: { code: 1015, status: 400, title: 'A header, query or cookie parameter is missing or invalid' },
  unprocessable: { code: 1099, status: 400, title: 'The server could not process the request' },
  missingCredentials: { code: 2001, status: 401, title: 'No Authorization header' },
  malformedCredentials: { code: 2002, status: 401, title: 'Authorization is not "Bearer <token>"' },
  unknownToken: { code: 2003, status: 401, title: 'The bearer token is not accepted' },
  notFound: { code: 3001, status: 404, title: 'No such path: the only operation is POST /plants' },
  methodNotAllowed: { code: 3002, status: 405, title: 'Method not allowed: /plants accepts POST' },
  upstreamUnreachable: { code: 5001, status: 502, title: 'plantstore proxy: the upstream could not be reached' },
  upstreamTimeout: { code: 5002, status: 504, title: 'plantstore proxy: the upstream sent nothing in time' },
} as const satisfies Record<string, { code: number; status: number; title: string }>;

/** The name of a failure class, e.g. `missingField`. */
export type ProblemKind = keyof typeof PROBLEMS;

/** A failed request, ready to be answered: status, Error body and any headers HTTP asks for. */
export interface Problem {
  readonly kind: ProblemKind;
  readonly status: number;
  /** The int32 `error` code of the Error body. */
  readonly code: number;
  /** What was wrong and how to fix it; never contains a credential. */
  readonly message: string;
  readonly headers: Readonly<Record<string, string>>;
}

const REQUIRED_HEADERS: Partial<Record<ProblemKind, Record<string, string>>> = {
  missingCredentials: { 'www-authenticate': 'Bearer realm="plantstore"' },
  malformedCredentials: { 'www-authenticate': 'Bearer realm="plantstore", error="invalid_request"' },
  unknownToken: { 'www-authenticate': 'Bearer realm="plantstore", error="invalid_token"' },
  methodNotAllowed: { allow: 'POST' },
};

/** Builds the {@link Problem} of a failure class with a message specific to this request. */
export function problem(kind: ProblemKind, message: string): Problem {
  const { code, status } = PROBLEMS[kind];
  return { kind, status, code, message, headers: REQUIRED_HEADERS[kind] ?? {} };
}

/** The contract's Error object for a problem, as JSON text. */
export function errorBody(failure: Pick<Problem, 'code' | 'message'>): string {
  return JSON.stringify({ error: failure.code, message: failure.message });
}
