/**
 * Headers on their way through: everything as sent, names in their own letter case and order,
 * except the hop-by-hop ones (RFC 9110, 7.6.1), which belong to one connection only.
 */

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Headers the proxy itself sets or has answered on the way to the upstream. */
const REQUEST_ONLY = new Set([...HOP_BY_HOP, 'host', 'expect']);

/** Lengths of the names REQUEST_ONLY holds (HOP_BY_HOP's among them): a name of another length is kept unread. */
const DROPPABLE_LENGTH: readonly boolean[] = [...REQUEST_ONLY].reduce<boolean[]>(
  (lengths, name) => ((lengths[name.length] = true), lengths),
  [],
);

/** Raw headers (`[name, value, name, value, …]`) without the hop-by-hop ones and those `Connection` names. */
export function endToEnd(raw: readonly string[]): string[] {
  return without(raw, HOP_BY_HOP, []);
}

/** `raw` without the headers `dropped` (HOP_BY_HOP or REQUEST_ONLY) names or `Connection` lists, appended to `kept`. */
function without(raw: readonly string[], dropped: ReadonlySet<string>, kept: string[]): string[] {
  const named = connectionNames(raw);
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    // Only a name as long as one that may be dropped is lower-cased and looked up.
    if (DROPPABLE_LENGTH[name.length] === true || named?.lengths[name.length] === true) {
      const lower = name.toLowerCase();
      if (dropped.has(lower) || named?.names.has(lower) === true) continue;
    }
    kept.push(name, raw[i + 1] ?? '');
  }
  return kept;
}

/** Header names a `Connection` header lists, lower-cased, and which lengths they have. */
interface ConnectionNames {
  readonly names: ReadonlySet<string>;
  readonly lengths: readonly boolean[];
}

/** The header names the `Connection` headers list (RFC 9110, 7.6.1), or `undefined` when there is none. */
function connectionNames(raw: readonly string[]): ConnectionNames | undefined {
  let named: ConnectionNames | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    if (name.length !== 10 || name.toLowerCase() !== 'connection') continue;
    const listed = namesIn(raw[i + 1] ?? '');
    named = named === undefined ? listed : namesOf([...named.names, ...listed.names]);
  }
  return named;
}

/** Names by `Connection` value: a server sends the same one (`keep-alive`) on every answer. */
const NAMES_BY_VALUE = new Map<string, ConnectionNames>();
const REMEMBERED_VALUES = 64;

/** The names one `Connection` value lists. */
function namesIn(value: string): ConnectionNames {
  let named = NAMES_BY_VALUE.get(value);
  if (named === undefined) {
    named = namesOf(value.split(',').map((token) => token.trim().toLowerCase()));
    if (NAMES_BY_VALUE.size >= REMEMBERED_VALUES) NAMES_BY_VALUE.clear();
    NAMES_BY_VALUE.set(value, named);
  }
  return named;
}

function namesOf(lowerNames: readonly string[]): ConnectionNames {
  const lengths: boolean[] = [];
  for (const name of lowerNames) lengths[name.length] = true;
  return { names: new Set(lowerNames), lengths };
}

/**
 * The request's headers for the upstream: end-to-end ones as sent, `Host` naming the upstream (a
 * virtual host must see its own name), and no `Expect`, which the proxy has already answered.
 */
export function upstreamRequestHeaders(raw: readonly string[], upstreamHost: string): string[] {
  return without(raw, REQUEST_ONLY, ['Host', upstreamHost]);
}
