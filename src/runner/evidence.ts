import { createHash } from 'node:crypto';
import { isRefusalStatus, refusalStatusOf, type RefusalStatus } from '../contract/refusal-status.js';
import { isSuccessStatus, successStatusOf, type SuccessStatus } from '../contract/success-status.js';
import { refusesAnInvalidBody, refusesAnObject } from './crash-groups.js';
import { FIELD, topMemberOf } from './defects.js';
import type { CaseRun } from './execute.js';
import type { Exchange } from './http/client.js';
import { isTlsFailure } from './http/transport-errors.js';
import { optionsNamedIn } from './option-text.js';
import type { CouldNotJudge } from './report.js';

/** How one answer is counted: its status, or its transport failure. */
function answerKey(exchange: Exchange): string {
  const { response } = exchange;
  return response.transportError ?? String(response.status);
}

/** An HTML page: markup, labelled HTML or opening like a page (a JSON body labelled text/html is not). */
function isHtml(exchange: Exchange): boolean {
  const type = exchange.response.headers['content-type'] ?? '';
  const body = exchange.response.body ?? '';
  return /^\s*</.test(body) && (/^\s*text\/html/i.test(type) || /^\s*<(!doctype html|html)/i.test(body));
}

/** An invalid body's id with a small fraction, as its description names it (`"id" set to N.5`). */
const SMALL_FRACTION = /^"[^"]+" set to (?:N\.5|-N\.25|1e-3|N1e-1)$/;

/**
 * What the run's answers were, counted as cases finish (nothing else kept, so memory stays flat):
 * enough to tell a URL that is not a Plant Store from one that breaks the contract, and to say
 * why a check had nothing to judge.
 */
export class RunEvidence {
  exchanges = 0;
  answered = 0;
  html = 0;
  /** Distinct HTML bodies, up to a few (hashes): one page for everything is a front proxy. */
  readonly htmlPages = new Set<string>();
  /** Answers to valid NewPlants (intent `valid`) by status or transport failure. */
  readonly valid = new Map<string, number>();
  /** Transport failures of every exchange, by name. */
  readonly transport = new Map<string, number>();
  /** Valid NewPlants accepted with the success status, and those of them whose id an earlier run may have sent. */
  validAccepted = 0;
  validAcceptedMayRepeat = 0;
  /** Valid NewPlants refused (400 or the document's refusal) whose id an earlier run may have sent. */
  validRefusedMayRepeat = 0;
  /** Ids with a small fraction (`N.5`, `1e-3`) sent in invalid bodies: refused, and accepted. */
  smallFractionRefused = 0;
  smallFractionAccepted = 0;
  /**
   * Top-level members (`care` for a break at `care.water`) of the invalid bodies refused with a 4xx: bounded by the
   * document's members.
   */
  readonly refusedIn = new Set<string>();
  /** Whether an invalid body that is a JSON object was refused with a 4xx ({@link refusesAnObject}), and any one. */
  objectRefused = false;
  invalidRefused = false;
  /** Answers per probe, by status or transport failure. */
  readonly byProbe = new Map<string, Map<string, number>>();

  /** `success` and `refusal`: the contract's statuses that count a valid NewPlant as accepted or refused. */
  constructor(
    readonly success: SuccessStatus = successStatusOf('200'),
    readonly refusal: RefusalStatus = refusalStatusOf('400', ['400']),
  ) {}

  add(run: CaseRun): void {
    const probe = run.generated.probe.name;
    const answers = this.byProbe.get(probe) ?? new Map<string, number>();
    this.byProbe.set(probe, answers);
    this.objectRefused ||= refusesAnObject(run.exchanges);
    this.invalidRefused ||= refusesAnInvalidBody(run.exchanges);
    for (const exchange of run.exchanges) {
      const key = answerKey(exchange);
      this.exchanges++;
      bump(answers, key);
      const { intent } = exchange.plan;
      if (intent.kind === 'valid') bump(this.valid, key);
      if (intent.kind === 'valid' && isSuccessStatus(this.success, exchange.response.status)) {
        this.validAccepted++;
        if (intent.idMayRepeat) this.validAcceptedMayRepeat++;
      }
      if (intent.kind === 'valid' && intent.idMayRepeat && this.refusedAsRepeat(exchange.response.status))
        this.validRefusedMayRepeat++;
      if (intent.kind === 'invalid-body' && SMALL_FRACTION.test(intent.what))
        this.countFraction(exchange.response.status);
      if (intent.kind === 'invalid-body' && isClientError(exchange.response.status)) {
        const member = topMemberOf(FIELD.exec(intent.what)?.[1] ?? '');
        if (member !== undefined) this.refusedIn.add(member);
      }
      if (exchange.response.transportError !== undefined) bump(this.transport, exchange.response.transportError);
      if (exchange.response.status === 0) continue;
      this.answered++;
      if (!isHtml(exchange)) continue;
      this.html++;
      if (this.htmlPages.size < 8) {
        this.htmlPages.add(
          createHash('sha256')
            .update(exchange.response.body ?? '')
            .digest('hex'),
        );
      }
    }
  }

  private countFraction(status: number): void {
    if (isSuccessStatus(this.success, status)) this.smallFractionAccepted++;
    else if (isRefusalStatus(this.refusal, status)) this.smallFractionRefused++;
  }

  /** A refusal a target may give a repeated id: a documented refusal, not an authentication or routing answer. */
  private refusedAsRepeat(status: number): boolean {
    return ![401, 403, 404, 405].includes(status) && isRefusalStatus(this.refusal, status);
  }
}

/** Whether a redirect goes to the same URL with a slash after its path (`/plants` to `/plants/`). */
function withTrailingSlash({ from, to }: { readonly from: string; readonly to: string }): boolean {
  const path = (url: string) => url.replace(/[?#].*$/s, '');
  return path(to) === `${path(from)}/`;
}

function isClientError(status: number): boolean {
  return status >= 400 && status < 500;
}

function bump(counts: Map<string, number>, key: string): void {
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** `201 ×40, 404 ×2`: counts, most frequent first. */
export function countsText(counts: ReadonlyMap<string, number>): string {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([key, count]) => `${key} ×${count}`)
    .join(', ');
}

/** Could-not-judge codes of a URL whose every request met another protocol or a failed TLS handshake. */
export const SPOKE_NO_HTTP: ReadonlySet<string> = new Set(['not-http', 'tls']);

/** Could-not-judge codes whose answers the setup made ({@link CouldNotJudge.setupsDoing}). */
const SETUPS_DOING = new Set([...SPOKE_NO_HTTP, 'credential-refused', 'not-found', 'redirected', 'html']);

function verdict(code: string, reason: string): CouldNotJudge {
  return { code, reason, options: optionsNamedIn(reason), setupsDoing: SETUPS_DOING.has(code) };
}

/**
 * Whether the evidence says the URL is not a Plant Store at all (so no verdict about the contract
 * can stand): no HTTP anywhere, TLS failing, HTML pages for everything, every valid NewPlant
 * answered 404/405, every one refused for the token given (401/403; `tokenSent` false: none was, the
 * document asks for none, and a 401 is the target's failure), or every one redirected to
 * another origin (`redirect`: the preflight's, e.g. http:// to https://). `undefined` when the target answers like a Plant Store (right or wrong).
 */
export function couldNotJudge(
  evidence: RunEvidence,
  baseUrl: string,
  basePath = '',
  redirect?: { readonly from: string; readonly to: string },
  tokenSent = true,
): CouldNotJudge | undefined {
  if (evidence.exchanges === 0) return undefined;
  const url = new URL(baseUrl);
  if (evidence.answered === 0) return noHttp(evidence, url);
  // A redirect of POST /plants to /plants/ (nginx's `location /plants/`) is judged as Django's is, HTML or not.
  if (evidence.html === evidence.answered && !(redirect !== undefined && withTrailingSlash(redirect))) {
    const pages = evidence.htmlPages.size === 1 ? 'the same HTML page' : 'an HTML page';
    const statuses = [...new Set(statusesOf(evidence))];
    return verdict(
      'html',
      `Every one of ${evidence.answered} answers from ${baseUrl} was ${pages} (statuses ${statuses.join(', ')}), never JSON: ${htmlCause(statuses, pathHint(url, basePath))}`,
    );
  }
  const validAnswers = [...evidence.valid].filter(([key]) => /^\d+$/.test(key) && key !== '0');
  const total = validAnswers.reduce((sum, [, count]) => sum + count, 0);
  const missing = validAnswers.filter(([key]) => key === '404' || key === '405');
  const refused = validAnswers.filter(([key]) => key === '401' || key === '403');
  // No token sent (the document asks for none): a 401 is the target's own demand, judged as a failure.
  if (tokenSent && total > 0 && refused.reduce((sum, [, count]) => sum + count, 0) === total) {
    const statuses = refused.map(([key]) => key).join(' or ');
    return verdict(
      'credential-refused',
      `Every valid NewPlant (${total}) sent to ${baseUrl}/plants with the token you gave was answered ${statuses}: the target refuses that token, so nothing it does with an accepted plant can be judged. Check the token (\`token\`): a wrong, expired or another environment's token is refused like this; if it is right, the target refuses valid credentials.`,
    );
  }
  const redirected = validAnswers.filter(([key]) => /^3\d\d$/.test(key));
  const elsewhere = redirect !== undefined && new URL(redirect.to).origin !== url.origin;
  if (total > 0 && elsewhere && redirected.reduce((sum, [, count]) => sum + count, 0) === total) {
    const statuses = redirected.map(([key]) => key).join(' or ');
    return verdict(
      'redirected',
      `Every valid NewPlant (${total}) sent to ${baseUrl}/plants was answered ${statuses}, redirected to ${redirect.to}: the service answers at ${new URL(redirect.to).origin}, not at the URL given. Use that origin in \`baseUrl\` (a redirect of a POST is not followed: a client may resend it as a GET without its body).`,
    );
  }
  if (total > 0 && evidence.validRefusedMayRepeat === total) {
    return verdict(
      'ids-taken',
      `Every valid NewPlant (${total}) sent to ${baseUrl}/plants was refused (${countsText(new Map(validAnswers))}), and every one carried an id an earlier run or another client may have stored: the document's id range is too narrow for ids of this run's own, and a target holding every id in it must refuse every valid plant. Start the target with an empty store (or remove the plants it holds) and run again; against an empty store these refusals would be a defect.`,
    );
  }
  if (total > 0 && missing.reduce((sum, [, count]) => sum + count, 0) === total) {
    const statuses = missing.map(([key]) => key).join(' or ');
    return verdict(
      'not-found',
      `Every valid NewPlant (${total}) sent to ${baseUrl}/plants was answered ${statuses}: no POST /plants there. Check the base path of \`baseUrl\`${pathHint(url, basePath)}; the runner appends /plants.`,
    );
  }
  return undefined;
}

/** What answers only HTML pages with these statuses, and what to do about it; `hint` says which base path to try. */
function htmlCause(statuses: readonly string[], hint: string): string {
  // Flask, Express, Spring's whitelabel and Django's debug page answer an unrouted path with an HTML 404 (405 for another method).
  if (statuses.every((status) => status === '404' || status === '405'))
    return `no POST /plants there: the page is a web framework's or web server's "not found". Check the base path and port of \`baseUrl\`${hint}; the runner appends /plants.`;
  if (statuses.every((status) => status === '502' || status === '504'))
    return 'a gateway or front proxy answers there and says the service behind it failed or did not answer (502 Bad Gateway, 504 Gateway Timeout). Start the service, or check the address the proxy forwards to; if the base path or port of `baseUrl` is wrong, fix that (the runner appends /plants).';
  // A sign-in gateway (SSO, an OAuth proxy) sends a request without its session cookie to its login page.
  if (statuses.every((status) => /^30[1-8]$/.test(status)))
    return "every request was redirected to an HTML page: a sign-in gateway (SSO, an OAuth proxy) in front of the service sending requests without its session to a login page, or the site's redirect to another base path. The runner sends only the bearer token and follows no redirect: point `baseUrl` at an address that reaches the service without signing in (inside the gateway), or fix its base path (the runner appends /plants).";
  return 'a web server or front proxy answers there, not the Plant Store API. Check the base path and port of `baseUrl` (the runner appends /plants).';
}

function statusesOf(evidence: RunEvidence): string[] {
  const statuses: string[] = [];
  for (const answers of evidence.byProbe.values()) {
    for (const key of answers.keys()) if (/^[1-9]\d\d$/.test(key)) statuses.push(key);
  }
  return statuses.sort();
}

/**
 * The document's server path when the URL does not end with it (`try http://host/api/v1`), else the
 * URL's own path, when it has one: the first thing to try without.
 */
function pathHint(url: URL, basePath: string): string {
  const path = url.pathname.replace(/\/+$/, '');
  if (basePath !== '' && !path.endsWith(basePath)) {
    return ` (the document puts POST /plants below ${basePath}: try ${url.origin}${path}${basePath})`;
  }
  return path === '' ? ' (is the API under a path, e.g. /api?)' : ` (is ${path} right? try without it)`;
}

/** Why not one request got an HTTP answer, and what to change. */
function noHttp(evidence: RunEvidence, url: URL): CouldNotJudge {
  const failures = [...evidence.transport];
  const only = (test: (name: string) => boolean): boolean => failures.every(([name]) => test(name));
  const where = `${url.protocol}//${url.host}`;
  if (only((name) => name === 'not-http')) {
    const scheme = url.protocol === 'http:' ? ' If the server speaks TLS on that port, use https:// in `baseUrl`.' : '';
    return verdict(
      'not-http',
      `${where} answered every request, but not in HTTP (another protocol listens on port ${url.port || (url.protocol === 'https:' ? '443' : '80')}): check the port of \`baseUrl\`.${scheme}`,
    );
  }
  if (only(isTlsFailure)) {
    return verdict(
      'tls',
      `TLS failed on every request to ${where} (${countsText(evidence.transport)}). If the server speaks plain HTTP, use http:// in \`baseUrl\`; if its certificate is signed by your own CA, point NODE_EXTRA_CA_CERTS at that CA's certificate.`,
    );
  }
  if (only((name) => name === 'timeout')) {
    return verdict(
      'no-answer',
      `${where} accepted connections but answered no request within \`timeoutMs\` (${countsText(evidence.transport)}): check the port of \`baseUrl\` (something else may listen there), or raise \`timeoutMs\` for a slow server.`,
    );
  }
  return verdict(
    'no-answer',
    `No request to ${where} got an HTTP answer (${countsText(evidence.transport)}): check the host, port and scheme of \`baseUrl\`, and that the server is running.`,
  );
}
