export { authProbes, invalidBodies, wrongMediaTypes } from './rejections.js';
export { precisionPairs } from './precision-pairs.js';
export { integerSpellings, repeatedIds, validPlants, validRequest } from './valid-plants.js';
