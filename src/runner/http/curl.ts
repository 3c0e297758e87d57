import type { RecordedRequest } from '../report.js';
import { TOKEN_VARIABLE } from '../../contract/secrets.js';

/**
 * A ready-to-paste curl command reproducing a recorded request. The credential stays a shell
 * expansion of `$PLANTSTORE_TOKEN`; bodies a shell argument cannot carry (control characters)
 * are piped in from base64.
 */
export function curlLine(request: RecordedRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', request.method, shellQuote(request.url)];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'accept' || name === 'user-agent') continue;
    parts.push('-H', headerArgument(name, value));
  }
  if (request.body === null) return parts.join(' ');
  // curl would add its own form Content-Type to a body sent without one.
  if (!('content-type' in request.headers)) parts.push('-H', shellQuote('Content-Type:'));
  const bytes =
    request.bodyBase64 ?? (needsBase64(request.body) ? Buffer.from(request.body).toString('base64') : undefined);
  if (bytes === undefined) return [...parts, '--data-binary', shellQuote(request.body)].join(' ');
  return `printf '%s' ${shellQuote(bytes)} | base64 -d | ${[...parts, '--data-binary', '@-'].join(' ')}`;
}

function headerArgument(name: string, value: string): string {
  const text = `${displayName(name)}: ${value}`;
  // The token is a shell expansion: double quotes, with every other special character escaped.
  if (name === 'authorization' && value.includes(TOKEN_VARIABLE)) {
    return `"${text.replace(/["\\`]/g, '\\$&')}"`;
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

function needsBase64(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u0008\u000b-\u001f\u007f]/.test(text) || LONE_SURROGATE.test(text);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
