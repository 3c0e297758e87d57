export { authProbes, invalidBodies, wrongMediaTypes } from './rejections.js';
export { precisionPairs } from './precision-pairs.js';
export { exactIds, integerSpellings, repeatedIds, validPlants, validRequest } from './valid-plants.js';
