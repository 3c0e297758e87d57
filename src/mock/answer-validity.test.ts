import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compileSchema,
  ContractError,
  loadContract,
  parseExactJson,
  stringifyExactJson,
  type Contract,
} from '../contract/index.js';
import { isObject } from '../contract/operations.js';
import { DEV_TOKEN } from './dev-token.js';
import { createMockServer, type MockServer } from './mock-server.js';
import { documentedResponse as responseOf } from '../contract/operations.js';
import { isDocumentedExample, responseSchemas } from './response-schemas.js';

type JsonObject = Record<string, unknown>;

const FOLDERS = [
  'src/mock/test-documents',
  'src/fixtures/documents',
  'src/fixtures/documents/reduced',
  'src/http/test-documents',
];
const DOCUMENTS = FOLDERS.flatMap((folder) =>
  readdirSync(folder)
    .filter((name) => /\.(ya?ml|json)$/.test(name))
    .map((name) => `${folder}/${name}`),
);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Asked {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly operation: JsonObject;
  readonly prefer: string | undefined;
  /** The status the Prefer asks for, when it asks for one. */
  readonly status: number | undefined;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

/** One valid text of a parameter's (or body's) schema, from the contract's generator. */
function validText(schema: unknown, contract: Contract): string | undefined {
  if (!isObject(schema)) return undefined;
  try {
    const compiled = compileSchema(schema, { dialect: contract.dialect, subject: 'a parameter' });
    const [value] = fc.sample(compiled.valid, { seed: 1, numRuns: 1 });
    return value === undefined ? undefined : stringifyExactJson(value);
  } catch {
    return undefined;
  }
}

/**
 * A valid NewPlant, one holding a value the Plant refuses where the document allows one (an id under the
 * Plant's minimum): its answer must still fit the Plant.
 */
function validNewPlant(contract: Contract): string | undefined {
  const samples = fc.sample(contract.compiled.newPlant.valid, { seed: 1, numRuns: 20 }).map(stringifyExactJson);
  const unfit = samples.find((text) =>
    contract.check.plant(parseExactJson(text)).some(({ message }) => !message.includes('required but missing')),
  );
  return unfit ?? samples[0];
}

/** Every request of the property: each operation, each documented status with and without dynamic, each example. */
function requestsOf(contract: Contract): Asked[] {
  const paths = (contract.document.paths ?? {}) as Record<string, JsonObject | undefined>;
  const asked: Asked[] = [];
  for (const [written, item] of Object.entries(paths)) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (!isObject(operation)) continue;
      const request = requestParts(written, item ?? {}, operation, contract);
      if (request === undefined) continue;
      const statuses = Object.keys(isObject(operation.responses) ? operation.responses : {}).filter((key) =>
        /^\d{3}$/.test(key),
      );
      const prefers: [string | undefined, number | undefined][] = [
        [undefined, undefined],
        ['dynamic=true', undefined],
      ];
      for (const key of statuses) {
        const status = Number(key);
        prefers.push([`code=${status}`, status], [`code=${status}, dynamic=true`, status]);
        for (const name of exampleNames(operation, status)) prefers.push([`code=${status}, example=${name}`, status]);
      }
      for (const [prefer, status] of prefers) {
        asked.push({ label: `${method.toUpperCase()} ${written}`, method, operation, prefer, status, ...request });
      }
      // Without a credential: the 401 must be the operation's own documented 401 (or 4XX, or default).
      const anonymous = Object.fromEntries(
        Object.entries(request.headers).filter(([name]) => name !== 'authorization'),
      );
      asked.push({
        label: `${method.toUpperCase()} ${written} without a credential`,
        method,
        operation,
        prefer: undefined,
        status: 401,
        ...request,
        headers: anonymous,
      });
    }
  }
  return asked;
}

function exampleNames(operation: JsonObject, status: number): string[] {
  const response = responseOf(operation, status);
  if (!isObject(response) || !isObject(response.content)) return [];
  return Object.values(response.content).flatMap((media) =>
    isObject(media) && isObject(media.examples) ? Object.keys(media.examples) : [],
  );
}

/** The path with its parameters filled, required headers and query, and a body where one is required. */
function requestParts(
  written: string,
  item: JsonObject,
  operation: JsonObject,
  contract: Contract,
): Pick<Asked, 'path' | 'headers' | 'body'> | undefined {
  const declared = [
    ...(Array.isArray(item.parameters) ? (item.parameters as unknown[]) : []),
    ...(Array.isArray(operation.parameters) ? (operation.parameters as unknown[]) : []),
  ].filter(isObject);
  let path = written;
  const query = new URLSearchParams();
  const headers: Record<string, string> = { authorization: `Bearer ${DEV_TOKEN}` };
  for (const parameter of declared) {
    if (parameter.required !== true && parameter.in !== 'path') continue;
    const text = validText(parameter.schema, contract);
    if (text === undefined) return undefined;
    const plain = text.startsWith('"') ? (JSON.parse(text) as string) : text;
    const name = String(parameter.name);
    if (parameter.in === 'path') path = path.replace(`{${name}}`, encodeURIComponent(plain));
    else if (parameter.in === 'query') query.set(name, plain);
    else if (parameter.in === 'header') headers[name.toLowerCase()] = plain;
    else return undefined;
  }
  const content = isObject(operation.requestBody) ? operation.requestBody.content : undefined;
  const [mediaType, media] = isObject(content) ? (Object.entries(content)[0] ?? []) : [];
  const posted = written === contract.operationPath && operation === item.post;
  const body = posted ? validNewPlant(contract) : isObject(media) ? validText(media.schema, contract) : undefined;
  if (mediaType !== undefined && body === undefined) return undefined;
  if (mediaType !== undefined) headers['content-type'] = mediaType;
  return { path: query.size > 0 ? `${path}?${query.toString()}` : path, headers, body };
}

/** What is wrong with one answer: its body against its status's schema, its documented required headers. */
function faultsOf(asked: Asked, status: number, response: Response, text: string, contract: Contract): string[] {
  const contentType = response.headers.get('content-type') ?? '';
  const faults: string[] = [];
  const compiled = responseSchemas(contract, asked.operation).schemaOf(status, contentType);
  if (compiled !== undefined && text !== '' && !isDocumentedExample(asked.operation, status, safeParse(text))) {
    let problems: readonly { message: string }[];
    try {
      problems = compiled.check(parseExactJson(text));
    } catch {
      problems = [{ message: 'not JSON' }];
    }
    if (problems.length > 0) faults.push(`body ${text.slice(0, 160)}: ${problems.map((p) => p.message).join('; ')}`);
  }
  const documented = responseOf(asked.operation, status);
  const declared = isObject(documented) && isObject(documented.headers) ? documented.headers : {};
  for (const [name, header] of Object.entries(declared)) {
    if (isObject(header) && header.required === true && response.headers.get(name) === null) {
      faults.push(`required header ${name} missing`);
    }
  }
  return faults;
}

/** Asks the mock every request of the document and lists the answers that break their own schema. */
async function brokenAnswers(document: string): Promise<{ asked: number; broken: string[] }> {
  let contract: Contract;
  try {
    contract = await loadContract(document);
  } catch {
    return { asked: 0, broken: [] };
  }
  const requests = requestsOf(contract);
  let mock: MockServer;
  try {
    mock = await createMockServer({ spec: document, seed: 5 });
  } catch (error) {
    // A document the mock refuses by name (an Error schema its own refusals cannot fit) answers nothing.
    if (error instanceof ContractError) return { asked: 0, broken: [] };
    throw error;
  }
  const broken: string[] = [];
  try {
    for (const asked of requests.slice(0, 200)) {
      const response = await fetch(`${mock.url}${asked.path}`, {
        method: asked.method.toUpperCase(),
        headers: { ...asked.headers, ...(asked.prefer === undefined ? {} : { prefer: asked.prefer }) },
        ...(asked.body === undefined ? {} : { body: asked.body }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await response.text();
      // Only the answers given as asked are the document's: a refusal of the request is the pipeline's Error.
      if (asked.status !== undefined && response.status !== asked.status) continue;
      if (asked.status === undefined && response.status >= 300) continue;
      for (const fault of faultsOf(asked, response.status, response, text, contract)) {
        broken.push(`${asked.label} [${asked.prefer ?? 'no Prefer'}] ${response.status}: ${fault}`);
      }
    }
  } finally {
    await mock.close();
  }
  return { asked: requests.length, broken };
}

describe('every answer of the mock fits the document', () => {
  it.each(DOCUMENTS)(
    '%s: every documented status asked for answers a body its schema accepts, with its required headers',
    async (document) => {
      const { broken } = await brokenAnswers(document);
      expect(broken).toEqual([]);
    },
    // Up to 200 requests, some generating and mending bodies: a loaded machine takes more than the default 30 s.
    90_000,
  );
});

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
