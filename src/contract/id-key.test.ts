import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readNewPlantBody, plantIdKey } from './new-plant-request.js';
import { idKeyOf } from './id-key.js';

/** A schema that accepts everything: the key, not validation, is under test. */
const accept = (): [] => [];

function accepted(body: string) {
  const result = readNewPlantBody(accept, Buffer.from(body));
  if (!result.ok) throw new Error(result.problem.message);
  return result;
}

const numberTexts = fc.oneof(
  fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
  fc.constantFrom(
    '0',
    '-0',
    '1.0',
    '1e2',
    '1E+2',
    '-1e0',
    '1.5',
    '2.50',
    '1e400',
    '-1e-7',
    '100e-2',
    '9223372036854775807',
  ),
  fc.constantFrom(
    '9223372036854775808',
    '-9223372036854775808',
    '-9223372036854775809',
    '1000000000000000000',
    '9999999999999999999',
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
);

describe('idKeyOf', () => {
  it('keys every accepted plant as plantIdKey does on its exact copy', () => {
    fc.assert(
      fc.property(numberTexts, (text) => {
        const plant = accepted(`{"name":"n","id":${text},"tag":"t"}`);
        expect(idKeyOf(plant)).toStrictEqual(plantIdKey(plant.plant));
      }),
      { numRuns: 2000 },
    );
  });

  it('keys ids that are not numbers, and a plant without id, as plantIdKey does', () => {
    for (const id of ['"12"', 'null', 'true', '[1,2.0]', '{"a":1e2}', '{"b":[1],"a":"x"}']) {
      const plant = accepted(`{"id":${id}}`);
      expect(idKeyOf(plant)).toStrictEqual(plantIdKey(plant.plant));
    }
    expect(idKeyOf(accepted('{"name":"no id"}'))).toBeUndefined();
  });
});
