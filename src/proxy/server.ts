import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  ContractError,
  DEFAULT_SPEC_PATH,
  errorBody,
  loadContract,
  OPERATION,
  calledPlantsPath,
  operationPath,
  problem,
  requestPath,
  takesBearerToken,
  type Contract,
} from '../contract/index.js';
import type { CheckDefinition, JudgeContext } from '../runner/check.js';
import type { Report } from '../runner/report.js';
import { isTlsFailure, UNREACHABLE } from '../runner/http/transport-errors.js';
import { decodedBody } from './content-coding.js';
import { observedExchange, plainExchange } from './exchange.js';
import {
  serveConnection,
  type Annotate,
  type ConnectionOptions,
  type ExchangeHooks,
  type Forwarded,
} from './forward.js';
import { operationRouter, type MatchedOperation } from './document-operations.js';
import { judgeOperation, type OperationJudging } from './operation-verdict.js';
import { parameterReader } from './parameters.js';
import { FRESH_ID_CHECK, FreshIdRefusals } from './fresh-refusal.js';
import { idMemory } from './id-memory.js';
import { inferIntent, type IntentContext, type ObservedRequest } from './intent.js';
import { Observations } from './observations.js';
import { createRedactor, type Redactor } from './secrets.js';
import { Sweeper } from './sweep.js';
import { createUpstream, type Upstream } from './upstream.js';
import { headerValue, type RequestHead } from './wire.js';
import {
  annotation,
  hasFindings,
  judgeObserved,
  proxyChecks,
  verdictText,
  type AnswerCoding,
  type JudgedExchange,
} from './verdict.js';

/** Options of {@link createProxyServer}. */
export interface ProxyOptions {
  /** The implementation behind the proxy, e.g. `https://staging.example.com/api` (http or https). */
  readonly upstream: string;
  /** Interface to bind (default 127.0.0.1). */
  readonly host?: string | undefined;
  /** Port to bind (default 0: a free one). */
  readonly port?: number | undefined;
  /** The OpenAPI document of the contract (default: the package's openapi.yaml). */
  readonly spec?: string | undefined;
  /** No byte from the upstream for this long: 504 (default 30 000 ms). */
  readonly timeoutMs?: number | undefined;
  /** PEM certificates to trust for an https upstream instead of Node's (e.g. a staging CA). */
  readonly upstreamCa?: string | undefined;
  /** Add a `Plantstore-Violations` header to each judged answer (holds the answer until complete). */
  readonly annotate?: boolean | undefined;
  /**
   * The token clients should send (PLANTSTORE_TOKEN): redacted from everything the proxy writes, and
   * a bearer token other than it is judged a wrong credential. Never required.
   */
  readonly token?: string | undefined;
  /** Bytes of each body judged (default 1 MiB); bodies beyond are streamed whole, judged by form only. */
  readonly judgeBytes?: number | undefined;
  /**
   * Connections to the upstream open at most (default 256); exchanges beyond wait for one, within
   * `timeoutMs`.
   */
  readonly maxConnections?: number | undefined;
  /** The checks to judge with (default: the built-in ones that judge one exchange). */
  readonly checks?: readonly CheckDefinition[] | undefined;
  /** One line per exchange, already redacted, without a newline. */
  readonly onLog?: ((line: string) => void) | undefined;
}

/** A running proxy. */
export interface ProxyServer {
  readonly url: string;
  readonly port: number;
  readonly server: Server;
  /** The report of the traffic seen so far, in the shape `plantstore test` writes. */
  report(): Report;
  /** The secrets reports and logs must hide (for `writeReports`). */
  readonly secrets: readonly string[];
  /** Stops listening, ends open connections and the upstream pool. */
  close(): Promise<void>;
}

/** Bodies judged by default: far beyond any NewPlant a client means to send. */
export const DEFAULT_JUDGE_BYTES = 1024 * 1024;
export const DEFAULT_PROXY_TIMEOUT_MS = 30_000;

/**
 * Starts a transparent proxy in front of `upstream`: every request and answer forwarded byte for
 * byte, each POST /plants exchange judged by the runner's checks that apply to one exchange, and each exchange
 * of the document's other operations judged against the document (see `judgeOperation`).
 */
export async function createProxyServer(options: ProxyOptions): Promise<ProxyServer> {
  const url = parseUpstream(options.upstream);
  const contract = await loadContract(options.spec ?? DEFAULT_SPEC_PATH);
  await refuseForeignAuthentication(contract);
  const timeoutMs = options.timeoutMs ?? DEFAULT_PROXY_TIMEOUT_MS;
  const sweeper = new Sweeper(timeoutMs);
  const upstream = createUpstream(url, {
    timeoutMs,
    ca: options.upstreamCa,
    maxConnections: options.maxConnections,
    sweeper,
  });
  const redactor = createRedactor([options.token]);
  const observations = new Observations(options.checks ?? proxyChecks(), shownUrl(url));
  const settlements = new Settlements();
  const state: ProxyState = { contract, upstream, redactor, observations, settlements, sweeper, stopping: false };
  const connection = connectionOptions(options, state);
  // An http.Server for what it is to its users (listen, address, close), but each connection is read
  // by the proxy itself: forwarding bytes as they come costs a fraction of Node's request objects.
  const server = createServer();
  server.removeAllListeners('connection');
  // Accepted unread, so that serveConnection can read each connection into one shared buffer.
  (server as Server & { pauseOnConnect: boolean }).pauseOnConnect = true;
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => track(sockets, serveConnection(socket, connection)));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    server,
    secrets: redactor.secrets,
    report: () => (settlements.flush(), observations.report()),
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // The exchanges these sockets carry end because the proxy stops, not because their clients left;
      // each is settled on its socket's close, and the report taken after close counts it.
      state.stopping = true;
      const settled = [...sockets].map((socket) => new Promise((resolve) => socket.once('close', resolve)));
      for (const socket of sockets) socket.destroy();
      upstream.destroy();
      sweeper.stop();
      await Promise.all([closed, ...settled]);
      settlements.flush();
    },
  };
}

function parseUpstream(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`the upstream "${text.slice(0, 100)}" is not a URL: give one like http://127.0.0.1:8080`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`the upstream must be an http or https URL, got ${url.protocol}`);
  }
  return url;
}

/** The upstream URL as shown in logs and reports: no user, password, query or fragment. */
function shownUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
}

/** Keeps `socket` in `sockets` until it closes. */
function track(sockets: Set<Socket>, socket: Socket): void {
  sockets.add(socket);
  socket.once('close', () => sockets.delete(socket));
}

interface ProxyState {
  readonly contract: Contract;
  readonly upstream: Upstream;
  readonly redactor: Redactor;
  readonly observations: Observations;
  readonly settlements: Settlements;
  readonly sweeper: Sweeper;
  /** `close` was called: an exchange cut now was cut by the proxy. */
  stopping: boolean;
}

/**
 * Exchanges that are over, judged, recorded and logged together once the answers of this turn of
 * the event loop are on their way: judging never delays an answer, and runs warm, one exchange
 * after another. Faults are settled at once; reports and `close` take what is still waiting first.
 */
class Settlements {
  /** `setup, head, path, forwarded, judged` of each exchange waiting, flat: no object per exchange. */
  private waiting: unknown[] = [];
  private scheduled = false;
  private readonly flushNow = (): void => this.flush();

  add(setup: JudgeSetup, head: RequestHead, path: string, forwarded: Forwarded, judged?: JudgedRequest): void {
    // A fault is settled at once, after those before it: its log line comes before the client hears of it.
    if (forwarded.transportError !== undefined || forwarded.clientAborted) {
      this.flush();
      return settle(setup, head, path, forwarded, judged);
    }
    this.waiting.push(setup, head, path, forwarded, judged);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushNow);
    }
  }

  flush(): void {
    this.scheduled = false;
    const waiting = this.waiting;
    if (waiting.length === 0) return;
    this.waiting = [];
    for (let i = 0; i + 4 < waiting.length; i += 5) {
      settle(
        waiting[i] as JudgeSetup,
        waiting[i + 1] as RequestHead,
        waiting[i + 2] as string,
        waiting[i + 3] as Forwarded,
        waiting[i + 4] as JudgedRequest | undefined,
      );
    }
  }
}

/** Ids seen in valid requests, kept up to this many (then forgotten, oldest first). */
const REMEMBERED_IDS = 100_000;

const OPERATION_METHOD = OPERATION.method.toUpperCase();

/** A log line, redacted of the fixed secrets and of the exchange's own credential. */
type LogLine = (line: string, authorization?: string) => void;

/**
 * Refuses a document whose POST /plants takes an API key, Basic or mutual TLS, as `plantstore test` does: the
 * proxy reads the credential as a bearer token, so it would call every request the client's break.
 */
async function refuseForeignAuthentication(contract: Contract): Promise<void> {
  if (takesBearerToken(contract.auth)) return;
  const { foreignAuthentication } = await import('../runner/run-settings.js');
  const problem = foreignAuthentication(contract) ?? `POST /plants authenticates with ${contract.auth}`;
  throw new ContractError(`${contract.source}: ${problem}`);
}

/** What judging needs, the same for every exchange. */
interface JudgeSetup {
  readonly state: ProxyState;
  readonly checks: readonly CheckDefinition[];
  readonly context: JudgeContext;
  readonly intentContext: IntentContext;
  /** The upstream's URL: reports' curl lines send POST /plants to it, at the path the client called. */
  readonly upstreamUrl: string;
  readonly annotate: boolean;
  /** The most of an answer's body judged, decoded from its Content-Encoding too. */
  readonly judgeBytes: number;
  readonly log: LogLine | undefined;
  /** The session's credentials that got a valid NewPlant accepted, for {@link FRESH_ID_CHECK}. */
  readonly freshIds: FreshIdRefusals;
}

function connectionOptions(options: ProxyOptions, state: ProxyState): ConnectionOptions {
  const cap = options.judgeBytes ?? DEFAULT_JUDGE_BYTES;
  const { onLog } = options;
  const knownToken = state.redactor.secrets[0];
  const readParameters = parameterReader(state.contract);
  const setup: JudgeSetup = {
    state,
    checks: options.checks ?? proxyChecks(),
    context: { contract: state.contract, targetRejectsRepeats: undefined },
    intentContext: {
      contract: state.contract,
      ...(knownToken === undefined ? {} : { knownToken }),
      rememberId: idMemory(REMEMBERED_IDS),
      ...(readParameters === undefined ? {} : { readParameters }),
    },
    upstreamUrl: shownUrl(state.upstream.url),
    annotate: options.annotate === true,
    judgeBytes: cap,
    freshIds: new FreshIdRefusals(state.contract.refusal, state.contract.auth === 'none', state.contract.success),
    log: onLog && ((line, authorization) => onLog(state.redactor.text(line, authorization))),
  };
  // `/plants/` too when the document writes the operation with its trailing slash.
  const called = calledPlantsPath(state.contract.operationPath);
  // A client built from the document calls the operation under its server's path (/v1/plants),
  // unless the upstream URL already ends with that path: /v1/plants would then reach /v1/v1/plants.
  const { basePath } = state.contract;
  const underBase = basePath !== '' && !state.upstream.basePath.endsWith(basePath) ? basePath : '';
  const matchOperation = otherOperations(state, setup, underBase);
  const onRequest = (head: RequestHead): ExchangeHooks => {
    const path = head.target === OPERATION.path ? OPERATION.path : requestPath(head.target);
    const below = path === OPERATION.path ? path : operationPath(path, underBase);
    const judged = head.method === OPERATION_METHOD && (below === OPERATION.path || below === called);
    if (judged) return new JudgedRequest(head, path, setup);
    const matched = matchOperation?.(head.method, path);
    if (matched !== undefined) return new JudgedRequest(head, path, setup, matched);
    return { settled: (forwarded) => state.settlements.add(setup, head, path, forwarded) };
  };
  return {
    upstream: state.upstream,
    sweeper: state.sweeper,
    cap,
    fault: (status, transportError) => faultAnswer(state.upstream, status, transportError),
    onRequest,
  };
}

/**
 * The matcher of the document's other operations (GET /plants/{id}, …), or `undefined` when it has none: a
 * request path is tried below the first server's path (`/v1/plants/5` is `/plants/5` for `servers: /v1`), then as
 * it is (a document whose paths carry the prefix, `/api/v1/plants/{id}`).
 */
function otherOperations(
  state: ProxyState,
  setup: JudgeSetup,
  underBase: string,
): ((method: string, path: string) => (MatchedOperation & { judging: OperationJudging }) | undefined) | undefined {
  const router = operationRouter(state.contract);
  if (router === undefined) return undefined;
  const { operationPath: written } = state.contract;
  const prefix = written.slice(0, written.length - calledPlantsPath(written).length);
  const serverPath = underBase.endsWith(prefix) ? underBase.slice(0, underBase.length - prefix.length) : underBase;
  const judging: OperationJudging = {
    checks: new Map(setup.checks.map((check) => [String(check.id), check])),
    context: setup.context,
    knownToken: setup.intentContext.knownToken,
  };
  return (method, path) => {
    const matched = router(method, operationPath(path, serverPath)) ?? router(method, path);
    return matched && { ...matched, judging };
  };
}

/**
 * A judged exchange, of POST /plants or (`matched`) of another operation of the document: judged once, when its
 * answer is annotated or when it is over.
 */
class JudgedRequest implements ExchangeHooks {
  readonly annotate: Annotate | undefined;
  /** The request's Authorization value, hidden from what is written about this exchange. */
  readonly authorization: string | undefined;
  private verdict: JudgedExchange | undefined;

  constructor(
    private readonly head: RequestHead,
    private readonly path: string,
    private readonly setup: JudgeSetup,
    private readonly matched?: MatchedOperation & { judging: OperationJudging },
  ) {
    this.authorization = headerValue(head.rawHeaders, 'authorization');
    this.annotate = setup.annotate
      ? // Exposed too, so a page's script can read it where the upstream answers across origins (CORS);
        // a browser joins this Access-Control-Expose-Headers line with the upstream's own.
        (partial) => [
          'Plantstore-Violations',
          annotation(this.judge(partial)),
          'Access-Control-Expose-Headers',
          'Plantstore-Violations',
        ]
      : undefined;
  }

  /** A POST /plants exchange, not one of another operation. */
  get plants(): boolean {
    return this.matched === undefined;
  }

  judge(forwarded: Forwarded): JudgedExchange {
    const { head, path, authorization, setup, matched } = this;
    return (this.verdict ??=
      matched === undefined
        ? judgeForwarded(head, path, authorization, forwarded, setup)
        : judgeOtherOperation(head, path, authorization, forwarded, setup, matched));
  }

  settled(forwarded: Forwarded): void {
    this.setup.state.settlements.add(this.setup, this.head, this.path, forwarded, this);
  }
}

/** The Error body of the proxy's own 502 or 504. */
function faultAnswer(upstream: Upstream, status: 502 | 504, transportError: string): { body: string } {
  const where = `plantstore proxy: the upstream ${shownUrl(upstream.url)}`;
  return {
    body: errorBody(
      status === 504
        ? problem('upstreamTimeout', `${where} sent nothing for ${upstream.timeoutMs} ms.`)
        : problem(
            'upstreamUnreachable',
            `${where} ${badGateway(transportError)} (${transportError})${tlsHint(transportError)}.`,
          ),
    ),
  };
}

/** Counts, judges and logs one exchange that is over; `judged` is absent for traffic outside the contract. */
function settle(
  setup: JudgeSetup,
  request: RequestHead,
  path: string,
  forwarded: Forwarded,
  judged: JudgedRequest | undefined,
): void {
  const { counts } = setup.state.observations;
  const { log } = setup;
  if (forwarded.answeredByProxy !== undefined) counts.upstreamFaults++;
  if (forwarded.clientAborted && setup.state.stopping) {
    counts.cutByStop++;
    return log?.(
      `${logHead(request, path, forwarded)} the proxy stopped before the exchange was complete (not judged)`,
    );
  }
  if (forwarded.clientAborted) {
    counts.clientAborts++;
    return log?.(`${logHead(request, path, forwarded)} client went away before the exchange was complete (not judged)`);
  }
  if (forwarded.uploadCut === true) {
    counts.uploadCuts++;
    return log?.(
      `${logHead(request, path, forwarded)} the upstream closed the connection while the request body was on its way, before any answer (a server refusing a body early does, its answer lost with the connection): not judged${faultText(forwarded)}`,
    );
  }
  if (forwarded.answeredByProxy === 502 && unreached(forwarded.transportError)) {
    // The note counts POST /plants requests: another path meeting a down upstream is not one of them.
    const plants = judged?.plants === true;
    if (plants) counts.unreached++;
    if (plants && counts.resetBeforeAnswer > 0) counts.unreachedAfterReset++;
    return log?.(
      `${logHead(request, path, forwarded)} upstream unreachable (${forwarded.transportError ?? '?'}${tlsHint(forwarded.transportError)}): the proxy answered 502; not judged, the request never reached it`,
    );
  }
  if (judged === undefined) {
    counts.outside++;
    return log?.(
      `${logHead(request, path, forwarded)} outside the contract (forwarded, not judged)${faultText(forwarded)}`,
    );
  }
  const result = judged.judge(forwarded);
  if (judged.plants && forwarded.answeredByProxy === 502 && forwarded.transportError === 'connection-reset')
    counts.resetBeforeAnswer++;
  record(setup.state, result, judged.authorization);
  log?.(`${logHead(request, path, forwarded)} ${verdictText(result)}${faultText(forwarded)}`, judged.authorization);
}

/**
 * Whether the upstream was never reached (refused, not found, TLS refused by the proxy): then nothing
 * is known of what it does with the request, and the fault is where it runs or how the proxy is pointed
 * at it, not the contract.
 */
/**
 * What to do about an upstream whose certificate the proxy does not trust (a staging CA, a local
 * dev server's mkcert or self-signed one): the CLI trusts Node's certificates and NODE_EXTRA_CA_CERTS.
 */
function tlsHint(transportError: string | undefined): string {
  return transportError !== undefined && isTlsFailure(transportError)
    ? ': the proxy does not trust its certificate; start it with NODE_EXTRA_CA_CERTS=<the PEM file of the certificate or its CA>'
    : '';
}

function unreached(transportError: string | undefined): boolean {
  return transportError !== undefined && (UNREACHABLE.has(transportError) || isTlsFailure(transportError));
}

/**
 * Whether the upstream's answer itself could not be forwarded (not HTTP, a header Node would refuse to
 * send, a framing HTTP forbids: named in words), rather than the connection ending before one came.
 */
function unforwardable(transportError: string | undefined): boolean {
  return (
    transportError === 'not-http' || transportError === 'unforwardable-header' || transportError?.includes(' ') === true
  );
}

/** What the upstream did that made the proxy answer 502, in words (its Error body and its log line say it). */
function badGateway(transportError: string | undefined): string {
  if (unreached(transportError)) return 'could not be reached';
  return unforwardable(transportError)
    ? 'answered with something that is not HTTP the proxy can forward'
    : 'closed the connection before a complete answer';
}

/** The start of an exchange's log line: method, path, status and time. */
function logHead(request: RequestHead, path: string, forwarded: Forwarded): string {
  return `${request.method.slice(0, 16)} ${printable(path)} ${forwarded.answeredByProxy ?? forwarded.status} ${forwarded.durationMs.toFixed(1)}ms`;
}

function faultText(forwarded: Forwarded): string {
  if (forwarded.answeredByProxy === 504) return ` (upstream silent: the proxy answered 504)`;
  if (forwarded.answeredByProxy === 502) {
    const { transportError } = forwarded;
    return unreached(transportError)
      ? ` (upstream unreachable, ${transportError ?? '?'}: the proxy answered 502)`
      : ` (the upstream ${badGateway(transportError)}, ${transportError ?? '?'}: the proxy answered 502)`;
  }
  return forwarded.transportError === undefined ? '' : ` (the upstream's answer was cut: ${forwarded.transportError})`;
}

function printable(text: string): string {
  return text.slice(0, 200).replace(/[^\x20-\x7e]/g, '?');
}

/** Judges an exchange of an operation of the document other than POST /plants (see `judgeOperation`). */
function judgeOtherOperation(
  head: RequestHead,
  path: string,
  authorization: string | undefined,
  forwarded: Forwarded,
  setup: JudgeSetup,
  matched: MatchedOperation & { judging: OperationJudging },
): JudgedExchange {
  const observed = observedRequest(head, authorization, forwarded);
  const answer = answerBody(forwarded, setup.judgeBytes);
  const response = {
    status: forwarded.status,
    rawHeaders: forwarded.rawHeaders,
    body: answer.body,
    // Over the cap, or in a coding the proxy cannot undo: the body is not judged.
    truncated: forwarded.responseBody?.over === true || answer.coding?.formOnly === true,
    transportError: forwarded.transportError,
    durationMs: forwarded.durationMs,
  };
  const request = { ...observed, method: head.method };
  const judged = judgeOperation(matched, `${setup.upstreamUrl}${path}`, request, response, matched.judging);
  return answer.coding === undefined ? judged : { ...judged, coding: answer.coding.note };
}

function observedRequest(head: RequestHead, authorization: string | undefined, forwarded: Forwarded): ObservedRequest {
  const { requestBody } = forwarded;
  return {
    authorization,
    contentType: headerValue(head.rawHeaders, 'content-type'),
    body: requestBody.bytes(),
    bodyBytes: requestBody.total,
    overCap: requestBody.over,
    bodyCut: !forwarded.requestWhole,
    target: head.target,
    rawHeaders: head.rawHeaders,
  };
}

/** Infers the request's intent, builds the runner's `Exchange` and judges it. */
function judgeForwarded(
  head: RequestHead,
  path: string,
  authorization: string | undefined,
  forwarded: Forwarded,
  setup: JudgeSetup,
): JudgedExchange {
  const { responseBody } = forwarded;
  const observed = observedRequest(head, authorization, forwarded);
  const inferred = inferIntent(observed, setup.intentContext);
  const answer = answerBody(forwarded, setup.judgeBytes);
  // The path the client called (`/v1/plants` under a document's server path), as the upstream got it.
  const exchange = observedExchange(
    `${setup.upstreamUrl}${path}`,
    observed,
    inferred,
    {
      status: forwarded.status,
      rawHeaders: forwarded.rawHeaders,
      body: answer.body,
      // A large answer to a large request may be a fair echo; a flood answering a small one is not.
      truncated: responseBody?.over === true && !observed.overCap,
      transportError: forwarded.transportError,
      durationMs: forwarded.durationMs,
    },
    setup.intentContext.readParameters,
  );
  // A body cut short was not streamed whole, over the cap or not: said as cut.
  const bodyCut = observed.bodyCut === true;
  const judged = judgeObserved(
    exchange,
    inferred,
    observed.overCap && !bodyCut,
    setup.checks,
    setup.context,
    bodyCut,
    answer.coding,
  );
  if (observed.overCap || bodyCut) return judged;
  const fresh = setup.freshIds.judge(inferred.intent, authorization, forwarded.status);
  return fresh === undefined
    ? judged
    : { ...judged, verdicts: [...judged.verdicts, { check: FRESH_ID_CHECK, verdict: fresh }] };
}

/**
 * The answer's body as its client reads it: decoded when the upstream compressed it (`Content-Encoding`,
 * which a browser's `Accept-Encoding` asks for), with what kept it from being read as a note.
 */
function answerBody(forwarded: Forwarded, cap: number): { body: Buffer | null; coding?: AnswerCoding } {
  const { responseBody } = forwarded;
  if (responseBody === null) return { body: null };
  const contentEncoding = headerValue(forwarded.rawHeaders, 'content-encoding');
  if (contentEncoding === undefined) return { body: responseBody.bytes() };
  if (responseBody.over) {
    const note = `the answer's body (Content-Encoding ${contentEncoding}) is over the judging cap: only its form judged`;
    return { body: responseBody.bytes(), coding: { note, formOnly: true } };
  }
  const decoded = decodedBody(contentEncoding, responseBody.bytes(), cap);
  if (decoded.undecoded !== undefined) {
    return {
      body: responseBody.bytes(),
      coding: { note: `${decoded.undecoded}: only its form judged`, formOnly: true },
    };
  }
  if (decoded.corrupt !== undefined) return { body: decoded.body, coding: { note: decoded.corrupt, formOnly: false } };
  return { body: decoded.body };
}

/** Adds a judged exchange to the report, its texts redacted when anything of it is kept. */
function record(state: ProxyState, judged: JudgedExchange, authorization: string | undefined): void {
  if (judged.overCap) state.observations.counts.overCap++;
  if (!hasFindings(judged)) return state.observations.add(judged.exchange, judged.verdicts, undefined);
  const exchange = state.redactor.value(plainExchange(judged.exchange), authorization);
  const verdicts = judged.verdicts.map(({ check, verdict }) => ({
    check,
    verdict: state.redactor.value(verdict, authorization),
  }));
  const clientBreak =
    judged.clientBreak === undefined ? undefined : state.redactor.text(judged.clientBreak, authorization);
  state.observations.add(exchange, verdicts, clientBreak);
}
