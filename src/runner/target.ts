import { randomBytes } from 'node:crypto';
import type { Contract } from '../contract/index.js';
import { createReferenceServer } from '../reference/server.js';
import { ConformanceOptionsError, TargetUnreachableError } from './errors.js';
import type { FreshIds } from './generate/fresh-ids.js';
import { renderPlant, type DraftField, type PlantDraft } from './generate/new-plant.js';
import { schemaFields } from './generate/schema-fields.js';
import type { Exchange, TargetClient } from './http/client.js';
import { errorCodeOf, messageShapeOf } from './judge.js';
import { isTlsFailure, UNREACHABLE } from './http/transport-errors.js';
import { validRequest } from './probes/valid-plants.js';

/** The implementation under test: where it is, its token, and how to let it go. */
export interface Target {
  readonly baseUrl: string;
  readonly token: string;
  readonly embedded: boolean;
  close(): Promise<void>;
}

/** The given target, or the reference started in-process with a random token on a free port. */
export async function openTarget(options: { baseUrl?: string; token?: string; spec?: string }): Promise<Target> {
  if (options.baseUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new ConformanceOptionsError(
        `"${options.baseUrl}" is not a URL: pass e.g. --base-url http://127.0.0.1:8080.`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new ConformanceOptionsError(`--base-url must be http:// or https://, got ${url.protocol}`);
    }
    // Without a token every case would be refused, and a correct target would look broken.
    if (options.token === undefined || options.token === '') {
      throw new ConformanceOptionsError(
        `${options.token === '' ? 'The token is empty' : 'No token'}: testing ${options.baseUrl} needs its bearer token (e.g. from PLANTSTORE_TOKEN).`,
      );
    }
    return {
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      token: options.token,
      embedded: false,
      close: async () => {},
    };
  }
  const token = options.token ?? randomBytes(24).toString('base64url');
  const server = await createReferenceServer({
    tokens: [token],
    ...(options.spec === undefined ? {} : { spec: options.spec }),
  });
  return { baseUrl: server.url, token, embedded: true, close: () => server.close() };
}

/** What the runner learns about the target before the run. */
export interface TargetTraits {
  /** The target answers a repeated id with 400 (true), 200 (false), or something else (undefined). */
  readonly rejectsRepeats: boolean | undefined;
  /** The `error` value of that 400, as written, when its body is an Error. */
  readonly repeatErrorCode?: string;
  /** Set when the first valid NewPlant was answered 404: the URL it went to, where no operation is. */
  readonly notFoundAt?: string;
  /** Set when the first valid NewPlant, with the token given, was answered 401 or 403: that status. */
  readonly credentialRefused?: number;
  /**
   * The target rejects repeats and refused the canary plant (id {@link CANARY_ID}, sent by every
   * run) as a repeat: it holds plants from an earlier run, so a fixed id may already be stored.
   */
  readonly holdsEarlierRun?: boolean;
  /**
   * The target's `error` value for a repeat differs from its answers to a missing and to a
   * string id: a 400 carrying the repeat value then means "I already hold this id".
   */
  readonly repeatCodeIsDistinct?: boolean;
  /** Its repeat answer's message, numbers as `#`, when that differs from its messages for bad ids. */
  readonly repeatMessageShape?: string;
}

/**
 * The id of the canary plant every run sends before its cases. A target that rejects repeated ids
 * and refuses the canary as one has kept an earlier run's plants; one that accepts it has not, and
 * then no fixed id (2^63-1, 0, ...) can have been stored before. An unremarkable int32 value, so no
 * id-range defect of a target decides it.
 */
export const CANARY_ID = 1_123_581_321n;

/**
 * Sends one fresh valid NewPlant, then the same id with another name. Nothing listening →
 * {@link TargetUnreachableError}; otherwise the second answer tells how the target treats repeated ids.
 */
export async function probeTarget(
  client: TargetClient,
  contract: Contract,
  fresh: FreshIds,
  baseUrl: string,
): Promise<TargetTraits> {
  const fields: DraftField[] = schemaFields(contract.schemas.newPlant)
    .filter((field) => field.required)
    .map((field) =>
      field.type === 'integer'
        ? { name: field.name, kind: 'id', shape: { anchor: 'anywhere', offset: 0n, fresh: true, position: 2n ** 61n } }
        : { name: field.name, kind: 'value', value: field.type === 'string' ? 'plantstore preflight' : true },
    );
  const request = validRequest(renderPlant({ fields, extras: [] }, fresh, 'preflight'));
  const first = await client.send(request);
  const failure = first.response.transportError;
  if (failure !== undefined && (UNREACHABLE.has(failure) || isTlsFailure(failure))) {
    throw new TargetUnreachableError(baseUrl, failure);
  }
  if (first.response.status === 0) return { rejectsRepeats: undefined };
  if (first.response.status === 404) return { rejectsRepeats: undefined, notFoundAt: first.request.url };
  if (first.response.status === 401 || first.response.status === 403) {
    return { rejectsRepeats: undefined, credentialRefused: first.response.status };
  }
  // The same id with another name: a target that answers an identical repeat with 200 (an idempotent
  // create) may still refuse a conflicting one, and then fixed ids from earlier runs meet that refusal.
  const conflicting = validRequest(renderPlant(named(fields, 'plantstore preflight again'), fresh, 'preflight'));
  const second = await client.send(conflicting);
  if (second.response.status === 400) {
    const code = errorCodeOf(second);
    const holdsEarlierRun = await refusesCanary(client, fields, fresh, code);
    const invalid = await invalidIdAnswers(client, fields, fresh);
    const shape = messageShapeOf(second);
    const distinctShape =
      shape !== undefined && invalid.every((answer) => answer !== undefined && messageShapeOf(answer) !== shape);
    const invalidCodes = invalid.map((answer) => (answer === undefined ? undefined : errorCodeOf(answer)));
    return {
      rejectsRepeats: true,
      holdsEarlierRun,
      ...(distinctShape ? { repeatMessageShape: shape } : {}),
      ...(code === undefined
        ? {}
        : {
            repeatErrorCode: code,
            repeatCodeIsDistinct: invalidCodes.every((other) => other !== undefined && other !== code),
          }),
    };
  }
  if (second.response.status === 200) return { rejectsRepeats: false };
  return { rejectsRepeats: undefined };
}

/** The target's 400 answers to a NewPlant without an id and with a string id (`undefined`: not a 400). */
async function invalidIdAnswers(
  client: TargetClient,
  fields: DraftField[],
  fresh: FreshIds,
): Promise<(Exchange | undefined)[]> {
  const idField = fields.find((field) => field.kind === 'id');
  if (!idField) return [undefined];
  const draft = { fields, extras: [] };
  const missing = validRequest(
    renderPlant({ ...draft, fields: fields.filter((field) => field !== idField) }, fresh, 'no-id'),
  );
  const stringId = validRequest(
    renderPlant(draft, fresh, 'string-id', new Map([[idField.name, `"${fresh.bits('string-id')}"`]])),
  );
  const answers: (Exchange | undefined)[] = [];
  for (const request of [missing, stringId]) {
    const exchange = await client.send(request);
    answers.push(exchange.response.status === 400 ? exchange : undefined);
  }
  return answers;
}

/** Sends the canary plant: refused like a repeat (same `error` value, when known) means seen before. */
async function refusesCanary(
  client: TargetClient,
  fields: DraftField[],
  fresh: FreshIds,
  repeatErrorCode: string | undefined,
): Promise<boolean> {
  const idField = fields.find((field) => field.kind === 'id');
  if (!idField) return false;
  // A name of this run's own, so a target that accepts identical repeats still refuses an earlier run's canary.
  const draft = named(fields, `plantstore canary ${fresh.nonce}`);
  const canary = await client.send(
    validRequest(renderPlant(draft, fresh, 'canary', new Map([[idField.name, CANARY_ID.toString()]]))),
  );
  if (canary.response.status !== 400) return false;
  const code = errorCodeOf(canary);
  return repeatErrorCode === undefined || code === undefined || code === repeatErrorCode;
}

/** The preflight's plant with its string fields set to `name`. */
function named(fields: readonly DraftField[], name: string): PlantDraft {
  return {
    fields: fields.map((field) =>
      field.kind === 'value' && typeof field.value === 'string' ? { ...field, value: name } : field,
    ),
    extras: [],
  };
}
