import { describeHostileRequests } from '../fixtures/hostile-requests.case.js';
import { createMockServer } from './mock-server.js';

describeHostileRequests('the mock', (options) => createMockServer(options));
