type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * How the tested operation authenticates, from its security requirements (or the document's):
 * `bearer` when one way to call it needs only http bearer schemes; `none` when it declares no
 * requirement; `optional` when one alternative is the empty requirement `{}` (anonymous calls allowed);
 * otherwise, of the first alternative whose schemes all take bearer tokens (else the first), the type of its
 * first scheme that does not (`apiKey` for a bearer token and an API key together; `basic` for http basic),
 * else of its first scheme (`oauth2`).
 */
export type ContractAuth =
  'bearer' | 'none' | 'optional' | 'basic' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mutualTLS' | 'other';

/** Authentications whose credential travels as `Authorization: Bearer <token>` (or none is asked). */
const BEARER_LIKE: ReadonlySet<ContractAuth> = new Set(['bearer', 'oauth2', 'openIdConnect', 'none', 'optional']);

/** Whether a client sending `Authorization: Bearer <token>` (or nothing, where none is asked) meets `auth`. */
export function takesBearerToken(auth: ContractAuth): boolean {
  return BEARER_LIKE.has(auth);
}

/** The operation's authentication and the security scheme names it comes from. */
export interface OperationAuth {
  readonly auth: ContractAuth;
  /** Names under `components.securitySchemes` of the requirement chosen; empty for `none`/`optional`. */
  readonly schemes: readonly string[];
}

/** Reads what authentication an operation needs; never refuses (the runner and servers decide what to do). */
export function operationAuth(document: JsonObject, operation: JsonObject): OperationAuth {
  const requirements = requirementsOf(document, operation);
  if (requirements.length === 0) return { auth: 'none', schemes: [] };
  if (requirements.some(({ schemes }) => schemes.length === 0)) return { auth: 'optional', schemes: [] };
  const bearer = requirements.findIndex(({ kinds }) => kinds.every((kind) => kind === 'bearer'));
  const bearerTokens = requirements.findIndex(({ kinds }) => kinds.every((kind) => BEARER_TOKENS.has(kind)));
  const chosen = requirements[bearer !== -1 ? bearer : bearerTokens !== -1 ? bearerTokens : 0];
  return { auth: requirementKind(chosen?.kinds ?? []), schemes: chosen?.schemes ?? [] };
}

/**
 * Each alternative (OR) of the operation's security requirements as {@link operationAuth} reads one:
 * `[{bearerAuth: []}, {apiKeyAuth: []}]` gives a bearer alternative and an `apiKey` one. Empty when it
 * declares none; the empty requirement `{}` gives `optional`.
 */
export function securityAlternatives(document: JsonObject, operation: JsonObject): OperationAuth[] {
  return requirementsOf(document, operation).map(({ schemes, kinds }) =>
    schemes.length === 0 ? { auth: 'optional', schemes } : { auth: requirementKind(kinds), schemes },
  );
}

/** The operation's security requirements (or the document's): each one's scheme names and their kinds. */
function requirementsOf(
  document: JsonObject,
  operation: JsonObject,
): { readonly schemes: string[]; readonly kinds: ContractAuth[] }[] {
  const declared = operation.security ?? document.security;
  const requirements = Array.isArray(declared) ? declared.filter(isObject) : [];
  const components = isObject(document.components) ? document.components : {};
  const definitions = isObject(components.securitySchemes) ? components.securitySchemes : {};
  return requirements.map((requirement) => {
    const schemes = Object.keys(requirement);
    return { schemes, kinds: schemes.map((name) => kindOf(definitions[name])) };
  });
}

/** Kinds of scheme whose credential travels as `Authorization: Bearer <token>`. */
const BEARER_TOKENS: ReadonlySet<ContractAuth> = new Set(['bearer', 'oauth2', 'openIdConnect']);

/**
 * What one requirement needs: its schemes are required together (AND), so a requirement naming a bearer
 * scheme and an API key is met only with the key too, and is named by the key (the first kind that is not a
 * bearer token), not by its bearer part.
 */
function requirementKind(kinds: readonly ContractAuth[]): ContractAuth {
  return kinds.find((kind) => !BEARER_TOKENS.has(kind)) ?? kinds[0] ?? 'other';
}

/**
 * Security requirements that name a scheme `components.securitySchemes` does not declare, which OpenAPI
 * forbids (swagger-parser lets it pass): one problem per name, at the requirement that names it.
 */
export function undeclaredSchemes(
  document: JsonObject,
  operation: JsonObject,
  operationPointer: string,
): { pointer: string; message: string }[] {
  const own = operation.security !== undefined;
  const declared = own ? operation.security : document.security;
  const base = own ? `${operationPointer}/security` : '/security';
  const components = isObject(document.components) ? document.components : {};
  const definitions = isObject(components.securitySchemes) ? components.securitySchemes : {};
  const known = Object.keys(definitions);
  const requirements = Array.isArray(declared) ? declared : [];
  return requirements.flatMap((requirement: unknown, index) =>
    (isObject(requirement) ? Object.keys(requirement) : [])
      .filter((name) => !Object.hasOwn(definitions, name))
      .map((name) => ({
        pointer: `${base}/${index}`,
        message: `the security requirement names "${name}", which components.securitySchemes does not declare (${
          known.length === 0 ? 'it declares none' : `it declares ${known.join(', ')}`
        }): name a declared scheme, or declare "${name}" (an http bearer scheme for plantstore).`,
      })),
  );
}

function kindOf(scheme: unknown): ContractAuth {
  if (!isObject(scheme)) return 'other';
  // Swagger 2.0 had no bearer scheme: its documents (springfox, Swashbuckle) wrote an API key in the header
  // Authorization, whose clients send "Bearer <token>", and swagger2openapi converts it unchanged.
  if (scheme.type === 'apiKey' && scheme.in === 'header' && isAuthorization(scheme.name)) return 'bearer';
  if (scheme.type === 'http') {
    const name = typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : '';
    return name === 'bearer' ? 'bearer' : name === 'basic' ? 'basic' : 'other';
  }
  const known = ['apiKey', 'oauth2', 'openIdConnect', 'mutualTLS'] as const;
  return known.find((type) => type === scheme.type) ?? 'other';
}

/**
 * The path of the document's first server URL, its variables filled with their defaults: `/v1` for
 * `https://api.example.com/v1/`, `` for none, for `/`, or for a URL that cannot be read.
 */
export function serverBasePath(document: JsonObject): string {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const first: unknown = servers[0];
  if (!isObject(first) || typeof first.url !== 'string') return '';
  const variables = isObject(first.variables) ? first.variables : {};
  const url = first.url.replace(/\{([^}]*)\}/g, (whole, name: string) => {
    const variable = variables[name];
    return isObject(variable) && typeof variable.default === 'string' ? variable.default : whole;
  });
  if (url.includes('{')) return '';
  try {
    const path = new URL(url, 'http://relative.invalid').pathname;
    return path.replace(/\/+$/, '');
  } catch {
    return '';
  }
}

function isAuthorization(name: unknown): boolean {
  return typeof name === 'string' && name.toLowerCase() === 'authorization';
}
