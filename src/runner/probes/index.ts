export { authProbes, invalidBodies, isQueryTwin, queryMembers, wrongMediaTypes } from './rejections.js';
export { precisionPairs } from './precision-pairs.js';
export {
  boundaryPlants,
  exactIds,
  headerNameSpellings,
  integerSpellings,
  prototypeKeyPlants,
  repeatedIds,
  schemeSpellings,
  validPlants,
  validRequest,
} from './valid-plants.js';
export { unpairedSurrogates } from './unpredictable.js';
export { notUtf8Bodies } from './not-utf8.js';
export { mediaTypeSpellings, splitBodies, stringEscapes } from './spellings.js';
export { keepAliveAfterRefusal } from './keep-alive.js';
export { invalidParameters } from './invalid-parameters.js';
