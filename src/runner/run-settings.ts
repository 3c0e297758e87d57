import { randomInt } from 'node:crypto';
import { ContractError, DEFAULT_SPEC_PATH, loadContract, takesBearerToken, type Contract } from '../contract/index.js';
import { createFreshIds, type FreshIds } from './generate/fresh-ids.js';
import { DEFAULTS, type RunnerOptions } from './options.js';
import { parseReplay, type ReplaySpec } from './replay.js';
import { selectChecks, type CheckSelection } from './selection.js';

/** Everything a run is decided by, with every default applied. */
export interface RunSettings {
  readonly started: number;
  readonly contract: Contract;
  /** The document named by the caller; absent when the packaged openapi.yaml is followed. */
  readonly spec?: string;
  readonly seed: number;
  readonly runs: number;
  readonly concurrency: number;
  /** Set when the target serves only this many connections at once, so the run uses fewer. */
  readonly connectionLimit?: number;
  readonly timeoutMs: number;
  readonly budgetMs: number;
  /** `Date.now()` after which no case starts and no shrinking continues. */
  readonly deadline: number;
  readonly selection: CheckSelection;
  readonly replay?: ReplaySpec;
  readonly fresh: FreshIds;
}

/** Applies the defaults; unknown check ids and bad replay strings throw `ConformanceOptionsError`. */
export async function resolveSettings(options: RunnerOptions): Promise<RunSettings> {
  const started = Date.now();
  const contract = await loadContract(options.spec ?? DEFAULT_SPEC_PATH);
  refuseForeignAuthentication(contract);
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const budgetMs = options.budgetMs ?? Math.max(60_000, 6 * timeoutMs);
  const replay = options.replay === undefined ? undefined : parseReplay(options.replay);
  return {
    started,
    contract,
    ...(options.spec === undefined ? {} : { spec: options.spec }),
    seed: options.seed ?? randomInt(0, 2 ** 31 - 1),
    runs: options.runs ?? DEFAULTS.runs,
    concurrency: options.concurrency ?? DEFAULTS.concurrency,
    timeoutMs,
    budgetMs,
    deadline: started + budgetMs,
    selection: selectChecks(options.suites, options.checks, options.skipChecks, contract),
    ...(replay === undefined ? {} : { replay }),
    fresh: createFreshIds(replay?.nonce),
  };
}

/**
 * Why the runner cannot judge a document whose POST /plants authenticates some other way (an API
 * key, Basic, mutual TLS): every valid case would be refused for the credential alone, and the
 * target blamed for the runner's limits. `undefined` when its credentials travel as bearer tokens.
 */
export function foreignAuthentication(contract: Contract): string | undefined {
  if (takesBearerToken(contract.auth)) return undefined;
  const names = contract.authSchemes;
  const kind = FOREIGN_NAMES[contract.auth] ?? contract.auth;
  const how =
    names.length > 1
      ? `asks for ${names.join(' and ')} together (one security requirement naming them all), ${kind} among them`
      : `authenticates with ${kind}${names.length === 1 ? ` (${names[0]})` : ''}`;
  return `POST /plants ${how}, but plantstore sends bearer tokens only ("Authorization: Bearer <token>"). Declare an http bearer scheme for the operation to test it with plantstore.`;
}

/** How the schemes plantstore cannot send are named in its refusal. */
const FOREIGN_NAMES: Partial<Record<string, string>> = {
  apiKey: 'an API key',
  basic: 'HTTP Basic',
  mutualTLS: 'mutual TLS',
  other:
    'an http scheme other than bearer or basic (a token is sent as `bearer`: `scheme: JWT` is not a scheme HTTP knows)',
};

/** Refuses, before any case, a document the runner cannot judge for its authentication. */
function refuseForeignAuthentication(contract: Contract): void {
  const problem = foreignAuthentication(contract);
  if (problem !== undefined) throw new ContractError(`${contract.source}: ${problem}`);
}
