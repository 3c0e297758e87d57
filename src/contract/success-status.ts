/**
 * The success response of POST /plants, as the document writes it: the response a created Plant
 * comes with. The contract writes 200; vendors often write 201, another 2xx, or the range `2XX`.
 */
export interface SuccessStatus {
  /** The response key the Plant schema is read from, as written: `200`, `201`, … or `2XX`. */
  readonly documented: string;
  /** The status the reference and the mock answer with: the documented code, 200 for `2XX`. */
  readonly status: number;
  /** Whether every 2xx status is the success (`2XX` documented), not only `status`. */
  readonly anyTwoXX: boolean;
}

/** The success of a document that writes the response `key` (`201`, `2XX`, …). */
export function successStatusOf(key: string): SuccessStatus {
  const anyTwoXX = key.toUpperCase() === '2XX';
  return { documented: key, status: anyTwoXX ? 200 : Number(key), anyTwoXX };
}

/** Whether a response status is the document's success: its code, or any 2xx when it documents `2XX`. */
export function isSuccessStatus(success: SuccessStatus, status: number): boolean {
  return success.anyTwoXX ? status >= 200 && status <= 299 : status === success.status;
}
