import { describeHostileRequests } from '../fixtures/hostile-requests.case.js';
import { createReferenceServer } from './server.js';

describeHostileRequests('the reference', (options) => createReferenceServer(options));
