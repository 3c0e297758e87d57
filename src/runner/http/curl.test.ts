import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../report.js';
import { curlCommands, curlLine } from './curl.js';

/** Runs a curl line in POSIX sh (dash) with `curl` replaced by a function that prints its arguments and stdin. */
function argumentsOf(line: string, token = 'T0KEN'): string[] {
  const script = `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; if [ "$*" != "\${*%@-}" ]; then printf 'STDIN:'; base64 -w0; printf '\\0'; fi; }\n${line}`;
  const output = execFileSync('dash', ['-c', script], {
    env: { PATH: process.env.PATH, PLANTSTORE_TOKEN: token },
  });
  return output.toString('utf8').split('\0').slice(0, -1);
}

const request = (body: string | null, headers: Record<string, string> = {}): RecordedRequest => ({
  method: 'POST',
  url: 'http://127.0.0.1:8080/plants',
  headers: { 'content-type': 'application/json', authorization: 'Bearer $PLANTSTORE_TOKEN', ...headers },
  body,
});

describe('curl lines', () => {
  it('write header names as the runner sent them: as curl writes them, or all in lower case for that twin', () => {
    const names = (lowerCase: boolean): string[] =>
      argumentsOf(curlLine({ ...request('{}'), ...(lowerCase ? { lowerCaseNames: true } : {}) }))
        .filter((arg) => arg.includes(': '))
        .map((arg) => arg.slice(0, arg.indexOf(':')));
    expect(names(false)).toEqual(['Content-Type', 'Authorization']);
    expect(names(true)).toEqual(['content-type', 'authorization']);
  });

  it('send the body byte for byte, quotes and all', () => {
    const body = `{"name":"it's \\"quoted\\" $HOME \`x\` \\\\ 🌱","id":1}`;
    const args = argumentsOf(curlLine(request(body)));
    expect(args[args.indexOf('--data-binary') + 1]).toBe(body);
  });

  it("keep an Accept naming a document's own media types, and leave out the usual application/json", () => {
    const vendor = 'application/vnd.plants+json, application/problem+json';
    expect(argumentsOf(curlLine(request('{}', { accept: vendor })))).toContain(`Accept: ${vendor}`);
    const usual = argumentsOf(curlLine(request('{}', { accept: 'application/json' })));
    expect(usual.some((argument) => argument.startsWith('Accept:'))).toBe(false);
  });

  it('expand the token from $PLANTSTORE_TOKEN and never contain it', () => {
    const line = curlLine(request('{}'));
    expect(line).toContain('$PLANTSTORE_TOKEN');
    expect(argumentsOf(line, 's3cret')).toContain('Authorization: Bearer s3cret');
  });

  it('rebuild damaged tokens from the variable', () => {
    const line = curlLine(request('{}', { authorization: 'Bearer ${PLANTSTORE_TOKEN%?}' }));
    expect(argumentsOf(line, 'abcd')).toContain('Authorization: Bearer abc');
  });

  it('rebuild every recorded form of a damaged token in a POSIX shell (no bash-only ${X~~})', () => {
    const forms = { '$PLANTSTORE_TOKEN-': 'aB3-', x$PLANTSTORE_TOKEN: 'xaB3', '${PLANTSTORE_TOKEN~~}': 'Ab3' };
    for (const [form, expected] of Object.entries(forms)) {
      const line = curlLine(request('{}', { authorization: `Bearer ${form}` }));
      expect(argumentsOf(line, 'aB3')).toContain(`Authorization: Bearer ${expected}`);
    }
  });

  it('pipe bodies with control characters through base64', () => {
    const body = '{"name":"a\u0001\u0000b"}';
    const line = curlLine(request(body));
    expect(line).toContain('base64 -d');
    const args = argumentsOf(line);
    expect(args.at(-1)).toBe(`STDIN:${Buffer.from(body).toString('base64')}`);
  });

  it('pipe bodies with C1 controls or invisible characters through base64, which reports would spell <U+XXXX>', () => {
    for (const body of ['{"name":"a\u0089b"}', '{"name":"a\u202eb"}', '{"name":"a\u200bb"}']) {
      const line = curlLine(request(body));
      expect(line, body).not.toContain(body);
      expect(argumentsOf(line).at(-1)).toBe(`STDIN:${Buffer.from(body).toString('base64')}`);
    }
  });

  it('pipe bodies with a tab or a newline through base64: every report shows each command on one line', () => {
    for (const body of ['{"name":"a\tb"}', '{"name":\n"ab"}']) {
      const line = curlLine(request(body));
      expect(line, body).not.toMatch(/[\t\n]/);
      expect(argumentsOf(line).at(-1)).toBe(`STDIN:${Buffer.from(body).toString('base64')}`);
    }
  });

  it('join requests that must share a connection into one command with --next', () => {
    const first = { ...request('hello'), headers: { 'content-type': 'text/plain' } };
    const line = curlCommands([first, request('{"id":1}')], true);
    expect(line.split('\n')).toHaveLength(1);
    const args = argumentsOf(line);
    expect(args.filter((arg) => arg === '--next')).toHaveLength(1);
    expect(args.slice(args.indexOf('--next'))).toContain('Authorization: Bearer T0KEN');
    expect(curlCommands([first, request('{}')], false).split('\n')).toHaveLength(2);
  });

  it('end every answer but the last with a newline, so the next status line starts its own line', () => {
    const first = { ...request('hello'), headers: { 'content-type': 'text/plain' } };
    for (const sameConnection of [true, false]) {
      const lines = curlCommands([first, request('{"id":1}'), request('{}')], sameConnection);
      const args = sameConnection ? [argumentsOf(lines)] : lines.split('\n').map((line) => argumentsOf(line));
      const transfers = sameConnection
        ? args[0]!
            .join('\0')
            .split('\0--next\0')
            .map((part) => part.split('\0'))
        : args;
      expect(transfers.map((transfer) => transfer.includes('-w') && transfer.includes('\\n'))).toEqual([
        true,
        true,
        false,
      ]);
    }
  });

  it('clear the Content-Type curl would add when the request had none', () => {
    const args = argumentsOf(curlLine({ ...request('{}'), headers: { authorization: 'Bearer $PLANTSTORE_TOKEN' } }));
    expect(args).toContain('Content-Type:');
  });
});
