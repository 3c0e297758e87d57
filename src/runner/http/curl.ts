import type { RecordedRequest } from '../report.js';
import { TOKEN_VARIABLE } from '../../contract/secrets.js';

/**
 * A ready-to-paste curl command reproducing a recorded request, for any POSIX shell. The credential
 * stays a shell expansion of `$PLANTSTORE_TOKEN`; bodies a quoted argument cannot carry exactly
 * (control, invisible or non-UTF-8 characters, which reports would spell `<U+XXXX>`) are piped in
 * from base64.
 */
export function curlLine(request: RecordedRequest, options: CurlOptions = {}): string {
  const { args, stdin } = curlArguments(request, options);
  const command = ['curl', ...args].join(' ');
  return stdin === undefined ? command : `printf '%s' ${shellQuote(stdin)} | base64 -d | ${command}`;
}

/** How a curl command waits. */
export interface CurlOptions {
  /**
   * `--max-time`: for a request the target never answered, so that the command ends as the runner's request
   * did (curl's exit 28, "Operation timed out") instead of waiting for ever.
   */
  readonly maxTimeSeconds?: number;
  /** `-w '\n'`: a newline after the answer, so that the next command's status line starts a line of its own. */
  readonly newlineAfter?: boolean;
}

/**
 * The requests of one case as curl commands: one command joined by `--next` when they must share a
 * connection (curl keeps it open between the URLs of one command), else one line each. One exact
 * body comes from stdin; with more, each is written to a file of a temporary folder first. A
 * request whose body the runner sent in two writes (`split`) is sent so by curl too.
 */
export function curlCommands(
  requests: readonly RecordedRequest[],
  sameConnection: boolean,
  split: readonly boolean[] = [],
  options: CurlOptions = {},
): string {
  const [only] = requests;
  if (requests.length === 1 && only !== undefined && split[0] === true && only.body !== null)
    return splitLine(only, only.body, options);
  // Every answer but the last ends with a newline: an answer body rarely does, and the next status line would follow it.
  const optionsOf = (index: number): CurlOptions =>
    index < requests.length - 1 ? { ...options, newlineAfter: true } : options;
  if (!sameConnection || requests.length < 2)
    return requests.map((request, index) => curlLine(request, optionsOf(index))).join('\n');
  const parts = requests.map((request, index) => curlArguments(request, optionsOf(index)));
  const piped = parts.filter((part) => part.stdin !== undefined);
  if (piped.length > 1) return withBodyFiles(parts);
  const command = ['curl', ...parts.flatMap((part, index) => [...(index > 0 ? ['--next'] : []), ...part.args])];
  const stdin = piped[0]?.stdin;
  return `${stdin === undefined ? '' : `printf '%s' ${shellQuote(stdin)} | base64 -d | `}${command.join(' ')}`;
}

/** Where {@link withBodyFiles} keeps the bodies: a shell variable unlikely to be the user's own. */
const BODY_DIR = 'plantstore_bodies';

/**
 * One command for requests that share a connection, when several bodies need their exact bytes:
 * curl reads stdin once, so each body is decoded into a file of a fresh temporary folder, sent with
 * `--data-binary @file`, and the folder removed afterwards.
 */
function withBodyFiles(parts: readonly { args: string[]; stdin?: string }[]): string {
  const writes: string[] = [];
  const args = parts.flatMap((part, index) => {
    const file = `"@$${BODY_DIR}/${index}"`;
    if (part.stdin !== undefined)
      writes.push(`printf '%s' ${shellQuote(part.stdin)} | base64 -d > "$${BODY_DIR}/${index}"`);
    const own = part.stdin === undefined ? part.args : part.args.map((arg) => (arg === '@-' ? file : arg));
    return [...(index > 0 ? ['--next'] : []), ...own];
  });
  return `${BODY_DIR}=$(mktemp -d) && ${writes.join(' && ')} && curl ${args.join(' ')}; rm -r "$${BODY_DIR}"`;
}

/**
 * A request whose body arrives in two writes, as the runner's split-body cases send it: each half
 * written by the shell {@link SPLIT_PAUSE} apart, streamed by curl as it comes (`-T -`, with the
 * Content-Length of the whole, no chunked encoding, no `Expect`).
 */
function splitLine(request: RecordedRequest, body: string, options: CurlOptions): string {
  const { args } = curlArguments({ ...request, body: null }, options);
  const bytes = request.bodyBase64 === undefined ? Buffer.from(body) : Buffer.from(request.bodyBase64, 'base64');
  const middle = Math.floor(bytes.length / 2);
  const half = (part: Buffer): string => `printf '%s' ${shellQuote(part.toString('base64'))} | base64 -d`;
  const framing = [`'Content-Length: ${bytes.length}'`, "'Expect:'", "'Transfer-Encoding:'"];
  const upload = [...framing.flatMap((header) => ['-H', header]), '-T', '-'];
  if (!('content-type' in request.headers)) upload.unshift('-H', shellQuote('Content-Type:'));
  const halves = `{ ${half(bytes.subarray(0, middle))}; sleep ${SPLIT_PAUSE}; ${half(bytes.subarray(middle))}; }`;
  return `${halves} | curl ${[...args, ...upload].join(' ')}`;
}

/**
 * The pause between the halves of a split body, in seconds: longer than the runner's (`SPLIT_BODY_PAUSE_MS` in client.ts, 150 ms),
 * since curl starts, connects and reads its input after the shell wrote the first half; on a loaded machine it read
 * both halves at once 150 ms apart, and a server reading its first read only answered the line as a whole body.
 */
const SPLIT_PAUSE = 1;

/** curl's arguments for one request (after `curl` or `--next`), and the base64 of a body sent on stdin. */
function curlArguments(request: RecordedRequest, options: CurlOptions): { args: string[]; stdin?: string } {
  const wait = options.maxTimeSeconds === undefined ? [] : ['--max-time', String(options.maxTimeSeconds)];
  const newline = options.newlineAfter === true ? ['-w', "'\\n'"] : [];
  const args = ['-sS', '-i', ...newline, ...wait, '-X', request.method, shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    // The runner's usual Accept (application/json) is what curl's */* gets too; a document's own types are kept.
    if ((name === 'accept' && value === 'application/json') || name === 'user-agent') continue;
    args.push('-H', headerArgument(name, value, request.lowerCaseNames === true));
  }
  if (request.body === null) return { args };
  // curl would add its own form Content-Type to a body sent without one.
  if (!('content-type' in request.headers)) args.push('-H', shellQuote('Content-Type:'));
  const bytes =
    request.bodyBase64 ?? (needsBase64(request.body) ? Buffer.from(request.body).toString('base64') : undefined);
  if (bytes === undefined) return { args: [...args, '--data-binary', shellQuote(request.body)] };
  return { args: [...args, '--data-binary', '@-'], stdin: bytes };
}

/**
 * The case-flipped token, `${PLANTSTORE_TOKEN~~}` in the record, is a bash-only expansion: in a
 * curl line it is spelled for any POSIX shell (dash, busybox sh) with `tr`.
 */
const CASE_FLIPPED = `\${${TOKEN_VARIABLE}~~}`;
const CASE_FLIPPED_POSIX = `$(printf '%s' "$${TOKEN_VARIABLE}" | tr 'A-Za-z' 'a-zA-Z')`;

/** `-H`'s argument; names as the runner wrote them on the wire (curl sends them as written). */
function headerArgument(name: string, value: string, lowerCase: boolean): string {
  const text = `${lowerCase ? name : displayName(name)}: ${value}`;
  // The token is a shell expansion: double quotes, with every other special character escaped.
  if (name === 'authorization' && value.includes(TOKEN_VARIABLE)) {
    return `"${text.replace(/["\\`]/g, '\\$&').replaceAll(CASE_FLIPPED, CASE_FLIPPED_POSIX)}"`;
  }
  return shellQuote(text);
}

function displayName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** Single-quoted for POSIX shells: nothing inside is expanded. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * Characters a quoted argument cannot show as they are: controls (C0, DEL, C1), invisible format
 * characters (zero-width, bidi, separators, BOM), noncharacters and lone surrogates. Reports spell
 * these `<U+XXXX>`, so a pasted line would send other bytes. Tab and newline too: report.html and
 * junit.xml spell them, and the console prefixes each line of a block, so a command is one line.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSHOWABLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufffe\uffff]/;

function needsBase64(text: string): boolean {
  return UNSHOWABLE.test(text) || !text.isWellFormed();
}
