import type { SchemaDialect } from './compiled-schema.js';

/** One schema of the law library: what the compiler must handle, in the shape swagger-parser gives. */
export interface LibrarySchema {
  readonly name: string;
  readonly dialect: SchemaDialect;
  readonly schema: object;
}

const plant = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', description: 'The name' }, tag: { type: 'string' } },
};

/** The seed's schemas, as `dereference` leaves them: NewPlant shares the Plant object. */
const seed: LibrarySchema[] = [
  { name: 'seed Plant', dialect: 'openapi-3.0', schema: plant },
  {
    name: 'seed NewPlant',
    dialect: 'openapi-3.0',
    schema: {
      allOf: [
        plant,
        { type: 'object', required: ['id'], properties: { id: field({ type: 'integer', format: 'int64' }) } },
      ],
    },
  },
  {
    name: 'seed Error',
    dialect: 'openapi-3.0',
    schema: {
      type: 'object',
      required: ['error', 'message'],
      properties: { error: { type: 'integer', format: 'int32' }, message: { type: 'string' } },
    },
  },
];

/**
 * A number schema as the required property `n` of an object: a number's exact text is kept only
 * inside an object or array (parseExactJson), and request bodies are objects.
 */
function field(schema: object): object {
  return { type: 'object', required: ['n'], properties: { n: schema }, additionalProperties: false };
}

/** A tree node that holds children of its own kind: a cyclic object graph. */
function treeSchema(): object {
  const node: Record<string, unknown> = {
    type: 'object',
    required: ['name'],
    properties: { name: { type: 'string', maxLength: 10 } },
    additionalProperties: false,
  };
  (node.properties as Record<string, unknown>).children = { type: 'array', items: node, maxItems: 3 };
  return node;
}

/** A linked list through an optional nullable property (3.1 type array). */
function listSchema(): object {
  const cell: Record<string, unknown> = {
    type: 'object',
    required: ['value'],
    properties: { value: { type: 'integer', minimum: 0, maximum: 100 } },
  };
  (cell.properties as Record<string, unknown>).next = { anyOf: [{ type: 'null' }, cell] };
  return cell;
}

const constrained: LibrarySchema[] = [
  {
    name: 'constrained NewPlant 3.0',
    dialect: 'openapi-3.0',
    schema: {
      type: 'object',
      required: ['id', 'name'],
      additionalProperties: false,
      properties: {
        id: { type: 'integer', format: 'int64', minimum: 1, maximum: 999999 },
        name: { type: 'string', minLength: 1, maxLength: 20 },
        tag: { type: 'string', enum: ['cactus', 'fern', 'palm'], nullable: true },
        price: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 1000, multipleOf: 0.01 },
        code: { type: 'string', pattern: '^[A-Z]{2}-\\d{3}$' },
        example: { type: 'string', example: 'ignored', xml: { name: 'x' }, readOnly: true },
      },
    },
  },
  {
    name: 'constrained NewPlant 3.1',
    dialect: 'openapi-3.1',
    schema: {
      type: 'object',
      required: ['id', 'name', 'kind'],
      properties: {
        id: { type: 'integer', format: 'int32', exclusiveMinimum: 0 },
        name: { type: ['string', 'null'], minLength: 2, maxLength: 8 },
        kind: { const: 'plant' },
        height: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 2.5 },
        tags: { type: 'array', items: { type: 'string', maxLength: 5 }, maxItems: 4, uniqueItems: true },
      },
    },
  },
  { name: 'string lengths', dialect: 'openapi-3.1', schema: { type: 'string', minLength: 3, maxLength: 6 } },
  {
    name: 'string pattern',
    dialect: 'openapi-3.1',
    schema: { type: 'string', pattern: '^[a-z]+(-[a-z]+)*$', maxLength: 12 },
  },
  { name: 'unanchored pattern', dialect: 'openapi-3.1', schema: { type: 'string', pattern: 'ab+c', minLength: 4 } },
  {
    name: 'patterns with lookarounds',
    dialect: 'openapi-3.1',
    schema: {
      type: 'object',
      required: ['name', 'handle'],
      properties: {
        // No leading or trailing space, not blank; a handle with a letter in it, never "admin".
        name: { type: 'string', pattern: '^(?!\\s)[A-Za-z ]{1,30}(?<!\\s)$' },
        handle: { type: 'string', minLength: 3, maxLength: 12, pattern: '^(?!admin$)(?=.*[a-z])[a-z0-9]+$' },
      },
      patternProperties: { '^x-(?!internal)[a-z]+$': { type: 'string' } },
    },
  },
  { name: 'string enum', dialect: 'openapi-3.0', schema: { type: 'string', enum: ['cactus', 'fern'] } },
  {
    name: 'string formats',
    dialect: 'openapi-3.1',
    schema: {
      type: 'object',
      required: ['when', 'day', 'mail', 'site', 'uid', 'v4', 'v6', 'host', 'blob', 'at'],
      properties: {
        when: { type: 'string', format: 'date-time' },
        day: { type: 'string', format: 'date' },
        mail: { type: 'string', format: 'email' },
        site: { type: 'string', format: 'uri' },
        uid: { type: 'string', format: 'uuid' },
        v4: { type: 'string', format: 'ipv4' },
        v6: { type: 'string', format: 'ipv6' },
        host: { type: 'string', format: 'hostname' },
        blob: { type: 'string', format: 'byte' },
        at: { type: 'string', format: 'time' },
        secret: { type: 'string', format: 'password' },
        custom: { type: 'string', format: 'plant-code' },
      },
    },
  },
  {
    name: 'tuples and contains counts',
    dialect: 'openapi-3.1',
    schema: {
      type: 'object',
      required: ['pair', 'scores'],
      properties: {
        pair: {
          type: 'array',
          prefixItems: [
            { type: 'string', maxLength: 3 },
            { type: 'integer', minimum: 1 },
          ],
          items: { type: 'boolean' },
          minItems: 1,
          maxItems: 4,
        },
        scores: {
          type: 'array',
          items: { type: 'integer', minimum: 0, maximum: 20 },
          contains: { type: 'integer', minimum: 10 },
          minContains: 2,
          maxContains: 3,
          maxItems: 6,
        },
      },
    },
  },
  {
    name: 'contains a value items rarely are',
    dialect: 'openapi-3.1',
    schema: {
      type: 'object',
      required: ['tags', 'picks'],
      properties: {
        tags: { type: 'array', items: { type: 'string' }, contains: { const: 'featured' }, maxItems: 4 },
        picks: {
          type: 'array',
          items: { type: 'string', maxLength: 8 },
          contains: { type: 'string', pattern: '^top-' },
          minContains: 2,
          maxContains: 2,
          uniqueItems: true,
        },
      },
    },
  },
  {
    name: 'patterns with lengths',
    dialect: 'openapi-3.1',
    schema: {
      type: 'object',
      required: ['code', 'slug', 'word', 'pair', 'digit'],
      properties: {
        code: { type: 'string', maxLength: 9, pattern: '^[A-Z]{3}-[0-9]{2,}$' },
        slug: { type: 'string', minLength: 4, maxLength: 20, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' },
        word: { type: 'string', maxLength: 9, pattern: '^[A-Z]{3}$' },
        pair: { type: 'string', minLength: 3, maxLength: 7, pattern: '^(cactus|fern|abbb*)$' },
        digit: { type: 'string', maxLength: 5, pattern: '[0-9]' },
      },
    },
  },
  {
    name: 'formats with lengths',
    dialect: 'openapi-3.1',
    schema: {
      type: 'object',
      required: ['mail', 'site', 'uid', 'day', 'when', 'host', 'v4'],
      properties: {
        mail: { type: 'string', format: 'email', minLength: 6, maxLength: 30 },
        site: { type: 'string', format: 'uri', maxLength: 40 },
        uid: { type: 'string', format: 'uuid', maxLength: 36 },
        day: { type: 'string', format: 'date', minLength: 10, maxLength: 10 },
        when: { type: 'string', format: 'date-time', maxLength: 25 },
        host: { type: 'string', format: 'hostname', minLength: 3, maxLength: 16 },
        v4: { type: 'string', format: 'ipv4', maxLength: 12 },
      },
    },
  },
  {
    name: 'integer bounds beyond 2^53',
    dialect: 'openapi-3.1',
    schema: field({ type: 'integer', minimum: 9007199254740990n, maximum: 9007199254740993n }),
  },
  {
    name: 'integer multipleOf',
    dialect: 'openapi-3.1',
    schema: field({ type: 'integer', multipleOf: 7, minimum: -100, maximum: 100 }),
  },
  { name: 'int64 format', dialect: 'openapi-3.0', schema: field({ type: 'integer', format: 'int64' }) },
  {
    name: 'decimal multipleOf',
    dialect: 'openapi-3.1',
    schema: field({ type: 'number', multipleOf: 0.01, minimum: -5, maximum: 5 }),
  },
  {
    name: 'number exclusive bounds',
    dialect: 'openapi-3.0',
    schema: field({ type: 'number', minimum: 0, maximum: 1, exclusiveMinimum: true, exclusiveMaximum: true }),
  },
  {
    name: 'nested objects',
    dialect: 'openapi-3.1',
    schema: {
      type: 'object',
      required: ['plant'],
      properties: {
        plant: {
          type: 'object',
          required: ['name', 'pot'],
          properties: {
            name: { type: 'string', maxLength: 10 },
            pot: {
              type: 'object',
              required: ['size'],
              properties: { size: { type: 'integer', minimum: 1, maximum: 5 } },
              additionalProperties: false,
            },
          },
        },
      },
    },
  },
  {
    name: 'array of objects',
    dialect: 'openapi-3.0',
    schema: {
      type: 'array',
      minItems: 1,
      maxItems: 3,
      items: {
        type: 'object',
        required: ['id'],
        properties: { id: { type: 'integer', format: 'int32' }, note: { type: 'string', nullable: true } },
      },
    },
  },
  {
    name: 'tuple',
    dialect: 'openapi-3.1',
    schema: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: false, minItems: 1 },
  },
  {
    name: 'unique booleans',
    dialect: 'openapi-3.1',
    schema: { type: 'array', items: { type: 'boolean' }, uniqueItems: true, minItems: 2 },
  },
  {
    name: 'contains',
    dialect: 'openapi-3.1',
    schema: { type: 'array', items: { type: 'integer', minimum: 0, maximum: 10 }, contains: { const: 5 }, maxItems: 6 },
  },
  {
    name: 'patternProperties and propertyNames',
    dialect: 'openapi-3.1',
    schema: {
      type: 'object',
      propertyNames: { maxLength: 6 },
      patternProperties: { '^x-': { type: 'string' } },
      additionalProperties: { type: 'integer' },
      minProperties: 1,
      maxProperties: 4,
    },
  },
  {
    name: 'dependentRequired',
    dialect: 'openapi-3.1',
    schema: {
      type: 'object',
      properties: { card: { type: 'string' }, billing: { type: 'string' } },
      dependentRequired: { card: ['billing'] },
      additionalProperties: false,
    },
  },
  {
    name: 'oneOf',
    dialect: 'openapi-3.1',
    schema: {
      oneOf: [
        {
          type: 'object',
          required: ['kind', 'leaves'],
          properties: { kind: { const: 'tree' }, leaves: { type: 'integer', minimum: 0 } },
        },
        { type: 'object', required: ['kind'], properties: { kind: { const: 'cactus' }, spines: { type: 'boolean' } } },
      ],
      discriminator: { propertyName: 'kind' },
    },
  },
  {
    name: 'overlapping oneOf',
    dialect: 'openapi-3.1',
    schema: {
      oneOf: [
        { type: 'integer', minimum: 0, maximum: 20 },
        { type: 'integer', minimum: 10, maximum: 30 },
      ],
    },
  },
  {
    name: 'anyOf scalars',
    dialect: 'openapi-3.1',
    schema: {
      anyOf: [
        { type: 'string', maxLength: 3 },
        { type: 'integer', minimum: 10 },
      ],
    },
  },
  {
    name: 'nullable $ref and oneOf in 3.0',
    dialect: 'openapi-3.0',
    schema: {
      type: 'object',
      required: ['pot', 'kind'],
      properties: {
        pot: {
          nullable: true,
          allOf: [{ type: 'object', required: ['size'], properties: { size: { type: 'integer', minimum: 1 } } }],
        },
        kind: {
          nullable: true,
          oneOf: [
            { type: 'string', enum: ['tree'] },
            { type: 'integer', minimum: 0 },
          ],
        },
      },
    },
  },
  { name: 'not', dialect: 'openapi-3.1', schema: { type: 'string', maxLength: 4, not: { const: 'x' } } },
  { name: 'untyped', dialect: 'openapi-3.1', schema: { description: 'anything' } },
  { name: 'recursive tree', dialect: 'openapi-3.1', schema: treeSchema() },
  { name: 'recursive list', dialect: 'openapi-3.1', schema: listSchema() },
  {
    // A tree needs its height; read as anyOf: [allOf: [if, then], allOf: [not: if, else]].
    name: 'if/then/else',
    dialect: 'openapi-3.1',
    schema: {
      type: 'object',
      required: ['name'],
      properties: { name: { type: 'string' }, tag: { enum: ['herb', 'tree'] }, height: { type: 'number', minimum: 0 } },
      if: { properties: { tag: { const: 'tree' } }, required: ['tag'] },
      then: { required: ['height'] },
      else: { not: { required: ['height'] } },
    },
  },
  {
    // 3.1's way to close a composed object: the allOf part's properties count as evaluated.
    name: 'unevaluatedProperties over allOf',
    dialect: 'openapi-3.1',
    schema: {
      type: 'object',
      allOf: [{ type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 3 } } }],
      required: ['id'],
      properties: { id: { type: 'integer', minimum: 1 } },
      unevaluatedProperties: false,
    },
  },
  {
    name: 'allOf that cannot merge',
    dialect: 'openapi-3.1',
    schema: {
      allOf: [
        { type: 'string', pattern: '^[a-z]+$' },
        { type: 'string', pattern: '[aeiou]' },
      ],
      maxLength: 6,
    },
  },
];

/** The law library: every constraint kind the compiler honours, in both dialects. */
export const LIBRARY: readonly LibrarySchema[] = [...seed, ...constrained];

/** Constructs the compiler must refuse, with the keyword and pointer it must name. */
export const REFUSALS: readonly {
  readonly name: string;
  readonly schema: object;
  readonly keyword: string;
  readonly pointer: string;
}[] = [
  {
    name: '$dynamicRef',
    schema: { properties: { a: { $dynamicRef: '#node' } } },
    keyword: '$dynamicRef',
    pointer: '/properties/a/$dynamicRef',
  },
  {
    name: 'unevaluatedItems',
    schema: { type: 'array', unevaluatedItems: false },
    keyword: 'unevaluatedItems',
    pointer: '/unevaluatedItems',
  },
  {
    name: 'unevaluatedProperties beside oneOf',
    schema: {
      type: 'object',
      oneOf: [{ properties: { a: { type: 'string' } } }, { properties: { b: { type: 'string' } } }],
      unevaluatedProperties: false,
    },
    keyword: 'unevaluatedProperties',
    pointer: '/unevaluatedProperties',
  },
  {
    name: 'contentSchema',
    schema: { type: 'string', contentSchema: { type: 'object' } },
    keyword: 'contentSchema',
    pointer: '/contentSchema',
  },
  {
    name: 'backreference',
    schema: { type: 'object', properties: { p: { type: 'string', pattern: '(a)\\1' } } },
    keyword: 'pattern',
    pointer: '/properties/p/pattern',
  },
  { name: 'lookbehind', schema: { type: 'string', pattern: '(?<=a)b' }, keyword: 'pattern', pointer: '/pattern' },
  { name: 'invalid regex', schema: { type: 'string', pattern: '([a-z' }, keyword: 'pattern', pointer: '/pattern' },
  {
    name: 'minLength above maxLength',
    schema: { type: 'object', properties: { n: { type: 'string', minLength: 5, maxLength: 3 } } },
    keyword: 'maxLength',
    pointer: '/properties/n/maxLength',
  },
  {
    name: 'empty integer range',
    schema: { type: 'integer', minimum: 5, maximum: 4 },
    keyword: 'maximum',
    pointer: '/maximum',
  },
  {
    name: 'no enum value fits',
    schema: { type: 'string', enum: ['long text'], maxLength: 3 },
    keyword: 'enum',
    pointer: '/enum',
  },
  {
    name: 'more unique items than values',
    schema: { type: 'array', items: { type: 'boolean' }, uniqueItems: true, minItems: 3 },
    keyword: 'uniqueItems',
    pointer: '/uniqueItems',
  },
  {
    name: 'a property named __proto__ (ajv ignores it)',
    schema: { type: 'object', properties: JSON.parse('{"__proto__": {"type": "integer"}}') as object },
    keyword: 'properties',
    pointer: '/properties/__proto__',
  },
  {
    name: 'a pattern inside a merged allOf branch',
    schema: { allOf: [{ type: 'object' }, { properties: { p: { type: 'string', pattern: '(?<=a)b' } } }] },
    keyword: 'pattern',
    pointer: '/allOf/1/properties/p/pattern',
  },
  { name: 'infinite recursion', schema: infiniteSchema(), keyword: '$ref', pointer: '' },
  {
    name: 'required but forbidden',
    schema: { type: 'object', required: ['x'], additionalProperties: false },
    keyword: 'required',
    pointer: '/required',
  },
];

function infiniteSchema(): object {
  const node: Record<string, unknown> = { type: 'object', required: ['next'] };
  node.properties = { next: node };
  return node;
}
