/**
 * `plantstore proxy`: a transparent proxy in front of a Plant Store implementation that forwards
 * every exchange byte for byte and judges each POST /plants exchange with the runner's checks, and each
 * exchange of the document's other operations against the document.
 */
export {
  createProxyServer,
  DEFAULT_JUDGE_BYTES,
  DEFAULT_PROXY_TIMEOUT_MS,
  type ProxyOptions,
  type ProxyServer,
} from './server.js';
export { PROXY_CHECK_IDS, proxyChecks } from './verdict.js';
export { CLIENT_CHECK } from './observations.js';
