/**
 * The conformance suites `plantstore test` runs, in report order. Add a suite by writing a module
 * like ./authentication.ts and listing it here (or pass your own to `runConformance({ suites })`).
 */
import acceptance from './acceptance.js';
import authentication from './authentication.js';
import rejection from './rejection.js';
import responses from './responses.js';
import robustness from './robustness.js';

/** The built-in suites, in report order: what `plantstore test` and `runConformance` run by default. */
export const BUILT_IN_SUITES = [acceptance, responses, rejection, authentication, robustness] as const;
