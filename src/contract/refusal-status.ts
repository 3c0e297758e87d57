/**
 * The responses of POST /plants that refuse a request, as the document writes them. The contract writes
 * 400 with an Error; frameworks document others (FastAPI: 422 with its `HTTPValidationError`), or a range
 * (`4XX`), or `default`, which OpenAPI reads as every status the document does not list.
 */
export interface RefusalStatus {
  /** The response key the Error schema is read from: `400`, `4XX`, `default`, or another 4xx code (`422`). */
  readonly documented: string;
  /** The status the reference and the mock refuse a request with: 400, or the Error's own code (`422`). */
  readonly status: number;
  /** The 4xx codes the document lists for the operation by number. */
  readonly listed: readonly number[];
  /** Whether the document covers every 4xx status (it lists `4XX` or `default`). */
  readonly anyFourXX: boolean;
}

/** The refusals of a document whose Error comes from `documented` and whose responses are keyed `keys`. */
export function refusalStatusOf(documented: string, keys: readonly string[]): RefusalStatus {
  const listed = keys.filter((key) => /^4\d\d$/.test(key)).map(Number);
  const anyFourXX = keys.some((key) => key.toUpperCase() === '4XX' || key === 'default');
  const status = /^4\d\d$/.test(documented) ? Number(documented) : 400;
  return { documented, status, listed, anyFourXX };
}

/**
 * Whether a status refuses a request as documented: the contract's 400, the Error's status, a 4xx code
 * the document lists, or any 4xx when it documents `4XX` or `default`.
 */
export function isRefusalStatus(refusal: RefusalStatus, status: number): boolean {
  if (status === 400 || status === refusal.status || refusal.listed.includes(status)) return true;
  return refusal.anyFourXX && status >= 400 && status <= 499;
}

/**
 * Whether an answer with this status carries the Error schema: the status of the response it is read
 * from, or, for `4XX` and `default`, a 4xx status the document does not list by number.
 */
export function carriesError(refusal: RefusalStatus, status: number): boolean {
  if (/^4\d\d$/.test(refusal.documented)) return status === refusal.status;
  return status >= 400 && status <= 499 && !refusal.listed.includes(status);
}
