import * as zlib from 'node:zlib';

/**
 * An answer's body as the client reads it, after its `Content-Encoding`: `body` decoded; or `undecoded`,
 * saying why the proxy cannot read it (a coding it does not know, or more than the judging cap once
 * decoded); or `corrupt`, why it does not decode, with an empty body: its client reads nothing of it either
 (a browser fails the request with ERR_CONTENT_DECODING_FAILED), so no check reads it as what it carries.
 */
export type DecodedBody =
  | { readonly body: Buffer; readonly undecoded?: undefined; readonly corrupt?: undefined }
  | { readonly undecoded: string; readonly body?: undefined; readonly corrupt?: undefined }
  | { readonly body: Buffer; readonly corrupt: string; readonly undecoded?: undefined };

type Decoder = (bytes: Buffer, options: zlib.ZlibOptions) => Buffer;

/** zstd where this Node has it (22.15 and later). */
const zstd = (zlib as { zstdDecompressSync?: Decoder }).zstdDecompressSync;

/** The codings browsers ask for (`Accept-Encoding: gzip, deflate, br, zstd`) and their decoders. */
const DECODERS: ReadonlyMap<string, Decoder> = new Map<string, Decoder>([
  ['gzip', zlib.gunzipSync],
  ['x-gzip', zlib.gunzipSync],
  // RFC 9110's deflate is zlib-wrapped; some servers send it raw, as browsers also accept.
  [
    'deflate',
    (bytes, options) =>
      (bytes[0] !== undefined && (bytes[0] & 0x0f) === 8 ? zlib.inflateSync : zlib.inflateRawSync)(bytes, options),
  ],
  ['br', zlib.brotliDecompressSync],
  ...(zstd === undefined ? [] : [['zstd', zstd] as [string, Decoder]]),
]);

/**
 * Decodes an answer's body by its `Content-Encoding` (the codings in the order they were applied,
 * undone last first), so that what is judged is what the client reads: a browser sends `Accept-Encoding`
 * on every request, and a compressed Plant is not a body that "is not JSON". At most `cap` bytes decoded.
 */
export function decodedBody(contentEncoding: string | undefined, body: Buffer, cap: number): DecodedBody {
  // No body to decode (a 401 or a 204 with the header a compressing middleware set anyway).
  if (contentEncoding === undefined || body.length === 0) return { body };
  const codings = contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  let decoded = body;
  for (const coding of codings.reverse()) {
    const decoder = DECODERS.get(coding);
    if (decoder === undefined) {
      return { undecoded: `the answer's Content-Encoding ${JSON.stringify(coding)} is not one the proxy decodes` };
    }
    try {
      decoded = decoder(decoded, { maxOutputLength: cap });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        return {
          undecoded: `the answer decodes (Content-Encoding ${coding}) to more than the judging cap of ${cap} bytes`,
        };
      }
      const reason = error instanceof Error ? error.message : String(error);
      return {
        body: Buffer.alloc(0),
        corrupt: `the answer's body does not decode as its Content-Encoding ${coding} says (${reason})`,
      };
    }
  }
  return { body: decoded };
}
