import fc from 'fast-check';
import { parameterValuesWith } from '../../contract/parameters.js';
import {
  invalidParameterArbitrary,
  parameterBreaksOf,
  parameterFault,
  type InvalidParameter,
} from '../generate/invalid-parameter.js';
import { newPlantArbitrary, renderPlant, type PlantDraft } from '../generate/new-plant.js';
import { defineProbe, PLANTS_PATH } from '../probe.js';

/**
 * A valid NewPlant with a valid token whose request leaves out one required header, query or cookie
 * parameter, or gives one parameter a value its schema refuses. No cases for a document without parameters.
 */
export const invalidParameters = defineProbe<{ draft: PlantDraft; invalid: InvalidParameter }>({
  name: 'invalid-parameter',
  title: 'a valid NewPlant with a missing or invalid parameter',
  share: 0.1,
  variants: (contract) => parameterBreaksOf(contract).length,
  arbitrary: (contract, variant) =>
    fc.record({ draft: newPlantArbitrary(contract), invalid: invalidParameterArbitrary(contract, variant) }),
  plan: ({ draft, invalid }, { contract, fresh, salt }) => {
    const { fault, what, parameter } = parameterFault(contract, invalid);
    const values = parameterValuesWith(contract, `${salt}:0`, fault);
    return [
      {
        method: 'POST',
        path: values.query === '' ? PLANTS_PATH : `${PLANTS_PATH}?${values.query}`,
        auth: { kind: 'token', scheme: 'Bearer' },
        contentType: 'application/json',
        body: renderPlant(draft, fresh, salt).text,
        headers: values.headers,
        intent: { kind: 'invalid-parameter', what, parameter },
      },
    ];
  },
});
