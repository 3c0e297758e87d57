import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);

/**
 * undici's `Client` and `Pool`, loaded from their own files with the request API their index adds to
 * every dispatcher: the index also loads fetch, WebSocket, caches, mocks and proxies (111 modules,
 * about 30 for these), which took a tenth of a default run's time to verdict. They are the classes
 * the index exports (`undici.test.ts`); should an undici release move the files, the index is loaded.
 */
const { Client, Pool, parseHeaders, headerNameToString } = loadDispatchers();
export { Client, headerNameToString, parseHeaders, Pool };
export type Client = Undici.Client;
export type Pool = Undici.Pool;

/** Response headers by lower-case name, as undici's `request()` gives them (repeats as arrays). */
type ParseHeaders = (rawHeaders: Buffer[]) => Record<string, string | string[] | undefined>;

/** A header name as `parseHeaders` keys it: lower case (well-known names through a lookup tree). */
type HeaderNameToString = (name: Buffer | string) => string;

interface UtilExports {
  parseHeaders: ParseHeaders;
  headerNameToString: HeaderNameToString;
}

function loadDispatchers(): Pick<typeof Undici, 'Client' | 'Pool'> & UtilExports {
  try {
    const dispatcher = require('undici/lib/dispatcher/dispatcher.js') as { prototype: object };
    // What undici's index does: request, stream, pipeline, upgrade and connect on every dispatcher.
    Object.assign(dispatcher.prototype, require('undici/lib/api/index.js') as object);
    return {
      Client: require('undici/lib/dispatcher/client.js') as typeof Undici.Client,
      Pool: require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool,
      ...utilOf(require('undici/lib/core/util.js') as UtilExports),
    };
  } catch {
    const undici = require('undici') as typeof Undici;
    return { Client: undici.Client, Pool: undici.Pool, ...utilOf(undici.util) };
  }
}

function utilOf({ parseHeaders, headerNameToString }: UtilExports): UtilExports {
  return { parseHeaders, headerNameToString };
}
