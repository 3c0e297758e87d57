import type { IncomingMessage, ServerResponse } from 'node:http';
import { createBearerCheck, OPERATION, type Contract } from '../contract/index.js';
import { isJsonEssence, mediaTypeEssence } from '../contract/media-types.js';
import { requestAuthentication } from '../http/authentication.js';
import { createPipeline, type Answer, type Outcome } from '../http/pipeline.js';
import type { ServedContract } from '../http/served-contract.js';
import type { RequestLogEntry } from '../http/server-kit.js';
import { mockFailure } from './answers.js';
import { documentedExampleOf, documentedExampleTextOf } from './documented-examples.js';
import { createOtherOperations } from './other-operations.js';
import { parsePrefer } from './prefer.js';
import { renderDecision } from './prism-answer.js';
import type { PrismDecision, PrismEngine, PrismQuestion } from './prism-engine.js';

/** What the handler needs besides the request: the served contract, Prism, and the mock's settings. */
export interface MockHandlerSettings {
  readonly served: ServedContract;
  readonly engine: PrismEngine;
  readonly tokens: readonly string[];
  readonly anyToken: boolean;
  readonly dynamic: boolean;
  /** Base of the per-request seeds of generated bodies. */
  readonly seed: number;
  /** A schema-valid Plant generated from this seed, for when Prism's is not valid. */
  readonly generatePlant: (seed: number) => unknown;
  readonly bodyLimit: number;
  readonly onRequest?: (entry: RequestLogEntry) => void;
}

/**
 * The mock as a plain `node:http` request handler: the shared pipeline, with CORS, answered by Prism;
 * the document's other operations answered by Prism alone.
 */
export function createMockHandler(settings: MockHandlerSettings): (req: IncomingMessage, res: ServerResponse) => void {
  const bearer = createBearerCheck(settings.tokens, { anyToken: settings.anyToken });
  const other = createOtherOperations({
    served: settings.served,
    engine: settings.engine,
    checkBearer: bearer,
    dynamic: settings.dynamic,
    seed: settings.seed,
    ...(settings.onRequest ? { onRequest: settings.onRequest } : {}),
  });
  const pipeline = createPipeline({
    served: settings.served,
    authenticate: requestAuthentication(settings.served.contract, bearer),
    bodyLimit: settings.bodyLimit,
    cors: true,
    noun: 'mock',
    answer: askPrism(settings),
    ...(settings.onRequest ? { onRequest: settings.onRequest } : {}),
  });
  if (other === undefined) return pipeline;
  return (req, res) => {
    if (!other(req, res)) pipeline(req, res);
  };
}

/** Reads `Prefer`, asks Prism for what only Prism decides, and renders its decision. */
function askPrism(settings: MockHandlerSettings): Answer {
  const documentedStatuses = documentedStatusesOf(settings.served.contract);
  const vendorTypes = vendorJsonTypes(settings.served.contract);
  const exampled = documentedExampleOf(settings.served.contract);
  const exampleText = documentedExampleTextOf(settings.served.contract);
  let generated = 0;
  return (accepted, req) => {
    const prefer = parsePrefer(headerText(req.headers.prefer));
    if (!prefer.ok) return mockFailure('unsupportedPreference', prefer.message);
    const { preferences } = prefer;
    const dynamic = preferences.dynamic ?? settings.dynamic;
    // Prism's generator seed is process-wide: a seed per request keeps a run reproducible.
    const serial = dynamic ? generated++ : 0;
    // Written out rather than spread from several sources per request (see answerHeaders in the pipeline).
    const question: PrismQuestion = {
      accept: withVendorTypes(req.headers.accept, vendorTypes),
      preferences: {
        code: preferences.code,
        exampleKey: preferences.exampleKey,
        dynamic,
        seed: dynamic ? `${settings.seed}-${serial}` : undefined,
      },
    };
    const render = (decision: PrismDecision): Outcome =>
      renderDecision(decision, {
        served: settings.served,
        accepted,
        preferences,
        dynamic,
        documentedStatuses,
        generatedPlant: () => settings.generatePlant(settings.seed + serial),
        exampled,
        exampleText,
      });
    // A remembered decision is answered at once, without waiting a turn for a promise.
    const known = settings.engine.known(question);
    return known === undefined ? settings.engine.decide(question).then(render) : render(known);
  };
}

function documentedStatusesOf(contract: Contract): readonly string[] {
  const paths = contract.document.paths as Record<string, Record<string, { responses?: object }> | undefined>;
  return Object.keys(paths[contract.operationPath]?.[OPERATION.method]?.responses ?? {});
}

/** The JSON media types other than `application/json` the document answers POST /plants with. */
function vendorJsonTypes(contract: Contract): readonly string[] {
  const { plant, error } = contract.mediaTypes;
  const essences = new Set([plant, error].map(mediaTypeEssence));
  return [...essences].filter((type) => type !== 'application/json' && isJsonEssence(type));
}

/**
 * The mock always answers with `application/json`, so an Accept that admits it is satisfied even
 * when the document declares a vendor type (`application/vnd.plant+json`); Prism, which negotiates
 * on the document's types, is told that the client takes those too.
 */
function withVendorTypes(accept: string | undefined, vendorTypes: readonly string[]): string | undefined {
  if (accept === undefined || vendorTypes.length === 0) return accept;
  const admitsJson = accept.split(',').some((range) => {
    const [type = '', ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    return type === 'application/json' && !parameters.some((parameter) => /^q=0(\.0*)?$/.test(parameter));
  });
  return admitsJson ? `${accept}, ${vendorTypes.join(', ')}` : accept;
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
