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

/** Raw headers (`[name, value, name, value, …]`) without the hop-by-hop ones and those `Connection` names. */
export function endToEnd(raw: readonly string[], drop: readonly string[] = []): string[] {
  const named = new Set(drop);
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]?.toLowerCase() !== 'connection') continue;
    for (const token of (raw[i + 1] ?? '').split(',')) named.add(token.trim().toLowerCase());
  }
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] ?? '';
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower)) continue;
    kept.push(name, raw[i + 1] ?? '');
  }
  return kept;
}

/**
 * The request's headers for the upstream: end-to-end ones as sent, `Host` naming the upstream (a
 * virtual host must see its own name), and no `Expect`, which the proxy has already answered.
 */
export function upstreamRequestHeaders(raw: readonly string[], upstreamHost: string): string[] {
  const kept = endToEnd(raw, ['host', 'expect']);
  return ['Host', upstreamHost, ...kept];
}
