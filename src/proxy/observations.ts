import { PACKAGE_VERSION, parseExactJson, stringifyExactJson } from '../contract/index.js';
import type { CheckDefinition } from '../runner/check.js';
import type { Exchange } from '../runner/http/client.js';
import { curlLine } from '../runner/http/curl.js';
import type { ExchangeVerdict } from '../runner/judge-exchange.js';
import type { CheckResult, Failure, Report } from '../runner/report.js';
import { failureFingerprint, findingsOf, withRootCausesFolded } from '../runner/findings.js';
import { runVerdict, summarize } from '../runner/run-report.js';
import { FRESH_ID_CHECK } from './fresh-refusal.js';

/** Counterexamples kept per check: the first of each distinct reason. */
const MAX_FAILURES = 5;

/** The proxy's own entry in the report: requests the contract does not describe as valid. */
export const CLIENT_CHECK = {
  id: 'client-requests',
  title: 'The client sends valid NewPlant requests',
  rule: 'The contract describes one valid request: POST /plants with `Authorization: Bearer <ACCESS_TOKEN>`, `Content-Type: application/json` and a valid NewPlant. Requests the proxy saw that are not are the client’s side of a broken contract (a warning: a test suite may send them on purpose).',
} as const;

interface Tally {
  readonly id: string;
  readonly title: string;
  readonly rule: string;
  cases: number;
  readonly failures: Failure[];
  readonly warnings: Failure[];
}

/** Counts of traffic that is not judged, for the report's notes. */
export interface TrafficCounts {
  outside: number;
  upstreamFaults: number;
  overCap: number;
  clientAborts: number;
  /** Exchanges cut because the proxy stopped (Ctrl-C, SIGTERM, `--duration`). */
  cutByStop: number;
  /** Exchanges whose upstream closed its connection while the request body was on its way. */
  uploadCuts: number;
  /** POST /plants exchanges that never reached the upstream (refused, not found, TLS): not judged. */
  unreached: number;
  /** POST /plants exchanges the upstream read and closed its connection on before answering (judged failures). */
  resetBeforeAnswer: number;
  /** Of the unreached POST /plants exchanges, those after such a reset: the upstream had stopped. */
  unreachedAfterReset: number;
}

/**
 * What the proxy saw, tallied as exchanges finish: per check a count and the first few distinct
 * failures and warnings, so memory stays flat however long the proxy runs.
 */
export class Observations {
  private readonly tallies: Map<string, Tally>;
  private exchanges = 0;
  readonly counts: TrafficCounts = {
    outside: 0,
    upstreamFaults: 0,
    overCap: 0,
    clientAborts: 0,
    cutByStop: 0,
    uploadCuts: 0,
    unreached: 0,
    resetBeforeAnswer: 0,
    unreachedAfterReset: 0,
  };
  private readonly startedAt = new Date();
  private readonly started = performance.now();

  constructor(
    checks: readonly CheckDefinition[],
    private readonly upstream: string,
  ) {
    this.tallies = new Map(
      [...checks, FRESH_ID_CHECK, CLIENT_CHECK].map((check) => [
        check.id,
        { id: check.id, title: check.title, rule: check.rule, cases: 0, failures: [], warnings: [] },
      ]),
    );
  }

  /** Adds one judged exchange: its verdicts, and the client's side when it broke the contract. */
  add(exchange: Exchange, verdicts: readonly ExchangeVerdict[], clientBreak: string | undefined): void {
    const number = ++this.exchanges;
    for (const { check, verdict } of verdicts) {
      const tally = this.tallies.get(check.id);
      if (!tally) continue;
      tally.cases++;
      if (verdict.outcome === 'pass') continue;
      const list = verdict.outcome === 'fail' ? tally.failures : tally.warnings;
      keep(list, exchange, { checkId: String(check.id), reason: verdict.reason ?? '', defect: verdict.defect }, number);
    }
    const client = this.tallies.get(CLIENT_CHECK.id);
    if (!client) return;
    client.cases++;
    if (clientBreak === undefined) return;
    keep(
      client.warnings,
      exchange,
      { checkId: CLIENT_CHECK.id, reason: `The client ${clientBreak.replace(/\.$/, '')}.` },
      number,
    );
  }

  /** The report of everything seen so far, in the shape `plantstore test` writes. */
  report(): Report {
    const checks = withRootCausesFolded([...this.tallies.values()].map(result));
    const summary = summarize(checks, this.exchanges, Math.round(performance.now() - this.started));
    return {
      tool: { name: 'plantstore', version: PACKAGE_VERSION },
      target: { baseUrl: this.upstream, embedded: false },
      seed: 0,
      source: 'proxy',
      startedAt: this.startedAt.toISOString(),
      summary,
      checks,
      notes: notes(this.exchanges, this.counts),
      verdict: runVerdict(checks, summary, undefined),
      findings: findingsOf(checks),
    };
  }
}

/** Why an exchange failed or warned, and the shape of its defect when its check named one. */
interface Finding {
  readonly checkId: string;
  readonly reason: string;
  readonly defect?: string | undefined;
}

/** Keeps the first exchange of each defect (the same shape, whatever values it carried). */
function keep(list: Failure[], exchange: Exchange, { checkId, reason, defect }: Finding, number: number): void {
  const fingerprint = failureFingerprint(checkId, exchange.plan, reason, defect);
  if (list.length >= MAX_FAILURES || list.some((failure) => failure.fingerprint === fingerprint)) return;
  list.push({
    reason,
    ...(defect === undefined ? {} : { defect }),
    fingerprint,
    request: exchange.request,
    response: exchange.response,
    curl: curlLine(exchange.request),
    replay: replayOf(exchange, number),
    shrinkSteps: 0,
  });
}

/** Methods that change nothing on the server (RFC 9110, 9.2.1): repeating them shows the same answer. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * How to repeat an exchange. A POST the server accepted may have stored its id: sent again as it is, a server
 * that keeps plants answers it as a repeated id (400), not as the exchange was answered.
 */
function replayOf({ request, response }: Exchange, number: number): string {
  const seen = `exchange ${number} seen by plantstore proxy`;
  if (response.status < 200 || response.status > 299 || SAFE_METHODS.has(request.method)) {
    return `${seen}; send the curl line again to repeat it`;
  }
  if (request.method !== 'POST')
    return `${seen}; the server accepted it (${response.status}), so what it changed may stay changed (a deleted plant stays deleted): a repeat may be answered otherwise`;
  return `${seen}; the server accepted it (${response.status}), so it may keep ${idSent(request.body)} now: send the curl line again with another id to repeat it`;
}

/** The body's `id` as it was written (`id 501`), else a word for it. */
function idSent(body: string | null): string {
  try {
    const parsed = parseExactJson(body ?? '');
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && Object.hasOwn(parsed, 'id')) {
      return `id ${stringifyExactJson((parsed as Record<string, Parameters<typeof stringifyExactJson>[0]>).id ?? null)}`;
    }
  } catch {
    // Not JSON: the id, if any, is the client's to find.
  }
  return 'the id it sent';
}

function result(tally: Tally): CheckResult {
  const base = { id: tally.id, title: tally.title, rule: tally.rule, cases: tally.cases };
  if (tally.failures.length > 0) return { ...base, status: 'fail', failures: tally.failures };
  if (tally.warnings.length > 0) return { ...base, status: 'warn', failures: tally.warnings };
  if (tally.cases === 0) {
    return {
      ...base,
      status: 'skip',
      failures: [],
      skipReason: 'No exchange the proxy saw says anything about this check.',
    };
  }
  return { ...base, status: 'pass', failures: [] };
}

function notes(exchanges: number, counts: TrafficCounts): string[] {
  const notes = [
    `Observed traffic through plantstore proxy: ${exchanges} exchanges judged (POST /plants and the document's other operations), each on its own (checks that need a sequence of requests, such as repeated ids, are not judged). The seed does not apply; each failure's curl line repeats the exchange, with the credential the client sent read from $PLANTSTORE_TOKEN.`,
  ];
  // Requests that reached the proxy but not the upstream have notes of their own: the client is pointed right.
  if (exchanges === 0 && counts.cutByStop === 0 && counts.unreached === 0)
    notes.push(
      'No exchange of an operation the document defines (POST /plants among them) went through the proxy: there is nothing to judge. Is the client pointed at the proxy? A browser on another origin sends its POST only after the upstream accepts its OPTIONS preflight (CORS).',
    );
  if (counts.outside > 0)
    notes.push(
      `${counts.outside} requests to paths or methods the document does not define were forwarded and not judged: they are outside the contract.`,
    );
  if (counts.upstreamFaults > 0)
    notes.push(
      `${counts.upstreamFaults} requests met an unreachable or silent upstream: the proxy answered 502 or 504 itself.`,
    );
  if (counts.unreached > 0)
    notes.push(
      `${counts.unreached} POST /plants requests never reached the upstream (its connection refused, its host not found, or its TLS certificate not trusted): not judged. Check that the upstream runs at the URL the proxy forwards to, and that the proxy trusts its certificate's CA.`,
    );
  if (counts.resetBeforeAnswer > 0 && counts.unreachedAfterReset > 0)
    notes.push(
      `${counts.resetBeforeAnswer} POST /plants exchanges ended with the upstream closing its connection before answering, and later requests found it unreachable: it stopped, from a crash these requests caused or from outside (SIGKILL, an out-of-memory kill, a restart that does not drain its requests). They stay no-server-error failures, since the proxy cannot send a POST again to tell the two apart: send their curl lines to the restarted upstream to tell.`,
    );
  if (counts.overCap > 0)
    notes.push(
      `${counts.overCap} request bodies were larger than the proxy judges: they were streamed through whole, and only the answer's form was judged.`,
    );
  if (counts.clientAborts > 0)
    notes.push(`${counts.clientAborts} clients went away before their exchange was complete: not judged.`);
  if (counts.uploadCuts > 0)
    notes.push(
      `${counts.uploadCuts} exchanges met an upstream that closed its connection while their request body was on its way, before any answer (a server refusing a body early does, and its answer is lost with the connection): not judged.`,
    );
  if (counts.cutByStop > 0)
    notes.push(`${counts.cutByStop} exchanges were in flight when the proxy stopped: not judged.`);
  return notes;
}
