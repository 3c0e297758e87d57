import { createRequire } from 'node:module';
import type { PrismHttpComponents } from '@stoplight/prism-http';

/**
 * Prism's own components, wrapped so that work which is the same for every request the mock hands
 * Prism is done once. Prism still makes each decision the first time it is needed.
 */

/**
 * Prism calls these levels (`success` is a custom pino level); a no-op logger whose `child` is
 * itself costs nothing per request, where pino would build a child logger every time.
 */
const noop = (): void => undefined;
export const silentLogger = {
  child: () => silentLogger,
  trace: noop,
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
  fatal: noop,
  success: noop,
};

type Mocker = PrismHttpComponents['mock'];
type Router = PrismHttpComponents['route'];

/** Prism's router component; required, as the mocker below. */
const prismRouter = createRequire(import.meta.url)('@stoplight/prism-http/dist/router/index.js') as {
  default: Router;
};

/**
 * Prism's own router, asked once per method, path and operation list: every request the mock hands
 * Prism is POST /plants against the same one operation, so Prism's choice is the same each time.
 */
export function memoizedRouter(): Router {
  const route = prismRouter.default;
  const choices = new WeakMap<object, Map<string, ReturnType<Router>>>();
  return (options) => {
    const key = `${options.input.method} ${options.input.url.path}`;
    let byPath = choices.get(options.resources);
    if (!byPath) {
      byPath = new Map();
      choices.set(options.resources, byPath);
    }
    let choice = byPath.get(key);
    if (!choice) {
      choice = route(options);
      byPath.set(key, choice);
    }
    return choice;
  };
}

/** Prism's mocker component; required, because ESM and test runners disagree on a CommonJS default. */
const prismMocker = createRequire(import.meta.url)('@stoplight/prism-http/dist/mocker/index.js') as {
  default: Mocker;
};

/** At most this many distinct static answers are kept (Accept and Prefer vary them; clients choose those). */
const STATIC_ANSWERS_KEPT = 64;

/**
 * Prism's own mocker, remembered where its answer is the same each time: a static (not dynamic)
 * answer to a request Prism found valid depends only on the preferred status, example and Accept,
 * never on the body. Prism still negotiates and builds it the first time; later requests reuse it,
 * skipping the negotiation, the sampling and the logging of a body no one reads.
 */
export function memoizedMocker(): Mocker {
  const mock = prismMocker.default;
  const answers = new Map<string, ReturnType<ReturnType<Mocker>>>();
  return (options) => {
    // Callbacks are requests Prism makes per answer: an operation with any is never remembered.
    if (options.config.dynamic || options.input.validations.length > 0 || options.resource.callbacks?.length) {
      return mock(options);
    }
    const { code, exampleKey } = options.config;
    const key = JSON.stringify([code, exampleKey, options.input.data.headers?.accept]);
    return (logger) => {
      const known = answers.get(key);
      if (known) return known;
      const answer = mock(options)(logger);
      if (answers.size < STATIC_ANSWERS_KEPT) answers.set(key, answer);
      return answer;
    };
  };
}
