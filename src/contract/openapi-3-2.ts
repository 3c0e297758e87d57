import type { DocumentProblem } from './contract-error.js';
import { escapePointer, isObject, plantsPathOf } from './operations.js';

type JsonObject = Record<string, unknown>;

/** Whether a document's `openapi` field names OpenAPI 3.2 (read as 3.1: the same Schema Object, JSON Schema 2020-12). */
export function isOpenApi32(document: JsonObject): boolean {
  return typeof document.openapi === 'string' && /^3\.2\.\d+$/.test(document.openapi);
}

/** Where a 3.2 document keeps the operations 3.1 has no field for (`query`, `additionalOperations`), by method. */
export const EXTRA_OPERATIONS = 'x-plantstore-operations';

const MEDIA_TYPES = 'x-plantstore-media-types';

/**
 * Rewrites, in place, the fields OpenAPI 3.2 added that 3.1's schema (swagger-parser's validator) refuses and
 * that do not change what POST /plants means: annotations (`$self`, a server's `name`, a tag's `summary`,
 * `parent` and `kind`, a response's `summary`, a security scheme's `deprecated` and `oauth2MetadataUrl`, an
 * OAuth device flow, `discriminator.defaultMapping`, `xml.nodeType`) are removed; an example's `dataValue` becomes
 * its `value`; the `query` and `additionalOperations` of a path item move under {@link EXTRA_OPERATIONS} (still
 * listed as not tested); `components.mediaTypes` is kept under another name, with the `$ref`s to it; a
 * `querystring` parameter of another operation is read as a query one (one on POST /plants is refused:
 * {@link openApi32Problems}).
 */
export function asOpenApi31(document: JsonObject): void {
  delete document.$self;
  for (const server of listOf(document.servers)) delete server.name;
  for (const tag of listOf(document.tags)) for (const key of ['summary', 'parent', 'kind']) delete tag[key];
  for (const items of [document.paths, document.webhooks]) {
    if (isObject(items)) for (const item of Object.values(items)) if (isObject(item)) moveExtraOperations(item);
  }
  const components = isObject(document.components) ? document.components : undefined;
  if (components && components.mediaTypes !== undefined) {
    components[MEDIA_TYPES] = components.mediaTypes;
    delete components.mediaTypes;
  }
  if (isObject(components?.pathItems)) {
    for (const item of Object.values(components.pathItems)) if (isObject(item)) moveExtraOperations(item);
  }
  for (const scheme of Object.values(isObject(components?.securitySchemes) ? components.securitySchemes : {})) {
    if (!isObject(scheme)) continue;
    delete scheme.deprecated;
    delete scheme.oauth2MetadataUrl;
    if (isObject(scheme.flows)) delete scheme.flows.deviceAuthorization;
  }
  rewriteNodes(document);
}

function listOf(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

function moveExtraOperations(item: JsonObject): void {
  const extra: JsonObject = isObject(item.additionalOperations) ? { ...item.additionalOperations } : {};
  if (isObject(item.query)) extra.QUERY = item.query;
  delete item.query;
  delete item.additionalOperations;
  if (Object.keys(extra).length > 0) item[EXTRA_OPERATIONS] = extra;
}

/** The walk for what may be anywhere: responses' summaries, examples, discriminators, xml, `$ref`s to media types. */
function rewriteNodes(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) rewriteNodes(item);
    return;
  }
  if (!isObject(node)) return;
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#/components/mediaTypes/')) {
    node.$ref = node.$ref.replace('#/components/mediaTypes/', `#/components/${MEDIA_TYPES}/`);
  }
  if (isObject(node.responses)) {
    for (const response of Object.values(node.responses)) if (isObject(response)) delete response.summary;
  }
  if (node.in === 'querystring') node.in = 'query';
  if ('dataValue' in node || 'serializedValue' in node) {
    if (node.value === undefined && 'dataValue' in node) node.value = node.dataValue;
    delete node.dataValue;
    delete node.serializedValue;
  }
  if (isObject(node.discriminator)) delete node.discriminator.defaultMapping;
  if (isObject(node.xml)) delete node.xml.nodeType;
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'example') rewriteNodes(value);
  }
}

/**
 * What OpenAPI 3.2 lets POST /plants say that plantstore cannot test, each refused at its place: a
 * `querystring` parameter (the whole query string as one value) and a streamed body (`itemSchema`: a
 * sequence of JSON values, not one NewPlant or Plant).
 */
export function openApi32Problems(document: JsonObject): DocumentProblem[] {
  const path = plantsPathOf(document);
  const paths = isObject(document.paths) ? document.paths : {};
  const item = isObject(paths[path]) ? paths[path] : undefined;
  const operation = item && isObject(item.post) ? item.post : undefined;
  if (!item || !operation) return [];
  const at = `/paths/${escapePointer(path)}`;
  const problems: DocumentProblem[] = [];
  const parameters = [
    ...listOf(item.parameters).map((parameter, index) => ({ parameter, pointer: `${at}/parameters/${index}` })),
    ...listOf(operation.parameters).map((parameter, index) => ({
      parameter,
      pointer: `${at}/post/parameters/${index}`,
    })),
  ];
  for (const { parameter, pointer } of parameters) {
    if (parameter.in !== 'querystring') continue;
    problems.push({
      pointer: `${pointer}/in`,
      message:
        'an OpenAPI 3.2 `querystring` parameter (the whole query string as one value) on POST /plants: plantstore ' +
        'tests query parameters one by one; declare them `in: query`, or remove it.',
    });
  }
  const bodies: [string, unknown][] = [[`${at}/post/requestBody/content`, contentOf(operation.requestBody)]];
  const responses = isObject(operation.responses) ? operation.responses : {};
  for (const [status, response] of Object.entries(responses)) {
    bodies.push([`${at}/post/responses/${escapePointer(status)}/content`, contentOf(response)]);
  }
  for (const [pointer, content] of bodies) {
    if (!isObject(content)) continue;
    for (const [type, media] of Object.entries(content)) {
      if (!isObject(media) || media.itemSchema === undefined) continue;
      problems.push({
        pointer: `${pointer}/${escapePointer(type)}/itemSchema`,
        message:
          'an OpenAPI 3.2 streamed body (`itemSchema`: a sequence of values) on POST /plants: plantstore sends and ' +
          'judges one JSON NewPlant and one Plant; give the media type a `schema` instead.',
      });
    }
  }
  return problems;
}

function contentOf(holder: unknown): unknown {
  return isObject(holder) ? holder.content : undefined;
}
