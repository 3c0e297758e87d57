import { describeDocumentLibrary } from '../http/document-library.case.js';
import { describeSpecFollowing } from '../http/spec-following.case.js';
import { createReferenceServer } from './server.js';

describeSpecFollowing('the reference', (spec, token) => createReferenceServer({ spec, tokens: [token] }));

describeDocumentLibrary('the reference', (spec, token) => createReferenceServer({ spec, tokens: [token] }));
