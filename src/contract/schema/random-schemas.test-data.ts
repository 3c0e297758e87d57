import fc from 'fast-check';

/** Small random schemas: every keyword kind, nested two levels, in both dialects. */
export function schemaArbitrary(): fc.Arbitrary<Record<string, unknown>> {
  const small = fc.integer({ min: 0, max: 6 });
  const string = fc.record(
    {
      type: fc.constant('string'),
      minLength: small,
      maxLength: small.map((value) => value + 2),
      pattern: fc.constantFrom(
        '^[a-z]*$',
        '[0-9]',
        '^x',
        'é',
        '^[A-Z]{3}-[0-9]{2,}$',
        '^[a-z]+(-[a-z]+)*$',
        '^(ab|c)+$',
        '^[A-Z]{3}$',
      ),
      format: fc.constantFrom('date', 'email', 'uuid', 'ipv4', 'password'),
      enum: fc.constantFrom(['cactus', 'fern'], ['a', 'bb', 'ccc']),
    },
    { requiredKeys: ['type'] },
  );
  const integer = fc.record(
    {
      type: fc.constant('integer'),
      minimum: fc.integer({ min: -50, max: 50 }),
      exclusiveMaximum: fc.integer({ min: 60, max: 200 }),
      multipleOf: fc.constantFrom(2, 3, 7),
      format: fc.constantFrom('int32', 'int64'),
    },
    { requiredKeys: ['type'] },
  );
  const number = fc.record(
    {
      type: fc.constant('number'),
      minimum: fc.constantFrom(-1.5, 0, 0.25),
      maximum: fc.constantFrom(2, 10.75),
      multipleOf: fc.constantFrom(0.25, 0.1, 0.01),
    },
    { requiredKeys: ['type'] },
  );
  const leaf = fc.oneof(
    string,
    integer,
    number,
    fc.constant({ type: 'boolean' }),
    fc.constant({ type: ['string', 'null'], maxLength: 3 }),
  );
  const array = (item: fc.Arbitrary<Record<string, unknown>>) =>
    fc.record(
      {
        type: fc.constant('array'),
        items: item,
        minItems: fc.integer({ min: 0, max: 2 }),
        maxItems: fc.integer({ min: 2, max: 4 }),
        uniqueItems: fc.boolean(),
      },
      { requiredKeys: ['type', 'items'] },
    );
  const object = (value: fc.Arbitrary<Record<string, unknown>>) =>
    fc
      .tuple(
        fc.dictionary(fc.constantFrom('a', 'b', 'c', 'constructor', 'x y'), value, { minKeys: 1, maxKeys: 3 }),
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
      )
      .map(([properties, closed, requireAll, maxProperties]) => ({
        type: 'object',
        properties,
        ...(requireAll ? { required: Object.keys(properties) } : {}),
        ...(closed ? { additionalProperties: false } : {}),
        ...(maxProperties === undefined ? {} : { maxProperties: maxProperties + Object.keys(properties).length }),
      }));
  return object(fc.oneof({ arbitrary: leaf, weight: 4 }, array(leaf), object(leaf)));
}
