import { ConformanceOptionsError } from './errors.js';

/**
 * A parsed replay string (the `replay` option): `<probe>:<case index>:<shrink path or ->:<nonce>`. A path starting with
 * `~` was shrunk with every id fresh (the target had stored the original case).
 */
export interface ReplaySpec {
  readonly probe: string;
  readonly index: number;
  readonly path: readonly number[];
  readonly alwaysFresh: boolean;
  /** The nonce the fresh ids were made from; absent: fresh ids new to the target. */
  readonly nonce?: string;
}

/** The replay string of a case, as failures record it. */
export function formatReplay(spec: ReplaySpec & { readonly nonce: string }): string {
  // `~` alone: the case as generated, with every id fresh (it was sent again after the target may have stored it).
  const path = `${spec.alwaysFresh ? '~' : ''}${spec.path.join('.')}` || '-';
  return `${spec.probe}:${spec.index}:${path}:${spec.nonce}`;
}

/** Reads a replay string; a malformed one is a `ConformanceOptionsError`. */
export function parseReplay(text: string): ReplaySpec {
  const match = /^([a-z0-9-]+):(\d+):(-|~|~?\d+(?:\.\d+)*)(?::([0-9a-f]+))?$/.exec(text.trim());
  if (!match) {
    throw new ConformanceOptionsError(
      `\`replay\` "${text}" is not a replay string (expected e.g. valid-plant:17:0.3:9f86d081884c7d65, as printed with a failure).`,
      'replay',
    );
  }
  const [, probe = '', index = '0', path = '-', nonce] = match;
  return {
    probe,
    index: Number(index),
    path: path === '-' || path === '~' ? [] : path.replace('~', '').split('.').map(Number),
    alwaysFresh: path.startsWith('~'),
    ...(nonce === undefined ? {} : { nonce }),
  };
}
