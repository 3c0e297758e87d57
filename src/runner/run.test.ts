import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBearerCheck, errorBody, loadContract, readNewPlant } from '../contract/index.js';
import { createReferenceHandler, createReferenceServer, type ReferenceServer } from '../reference/server.js';
import { BUILT_IN_SUITES } from '../../suites/index.js';
import type { JudgeContext } from './check.js';
import { TargetUnreachableError } from './errors.js';
import type { Exchange } from './http/client.js';
import { reportExitCode } from '../reports/outcome.js';
import { runConformance } from '../index.js';
import { WENT_AWAY_DEFECT } from './went-away.js';

const TOKEN = 'sentinel-token-7f3a9c';
const contract = await loadContract();

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

/** A small target built on the contract module, with one twist given by `answer`. */
async function startTarget(answer: Handler): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => answer(req, res, Buffer.concat(chunks)));
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

const checkBearer = createBearerCheck([TOKEN]);

/** Conformant and stateless, except that it trims the name it echoes. */
const trimmingTarget: Handler = (req, res, body) => {
  const send = (status: number, text: string) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(text);
  const authProblem = checkBearer(req.headers.authorization);
  if (authProblem) return send(401, errorBody(authProblem));
  const read = readNewPlant(contract, req.headers['content-type'], body);
  if (!read.ok) return send(400, errorBody(read.problem));
  const { name, tag } = read.plant;
  const trimmed = typeof name === 'string' ? name.trim() : name;
  send(200, JSON.stringify(tag === undefined ? { name: trimmed } : { name: trimmed, tag }));
};

/** Conformant and stateless: echoes the name and tag as sent. */
const echoingTarget: Handler = (req, res, body) => {
  const send = (status: number, text: string) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(text);
  const authProblem = checkBearer(req.headers.authorization);
  if (authProblem) return send(401, errorBody(authProblem));
  const read = readNewPlant(contract, req.headers['content-type'], body);
  if (!read.ok) return send(400, errorBody(read.problem));
  const { name, tag } = read.plant;
  send(200, JSON.stringify(tag === undefined ? { name } : { name, tag }));
};

const QUICK = { runs: 12, concurrency: 4, timeoutMs: 3_000, budgetMs: 30_000 } as const;

describe('runConformance against the reference', () => {
  let reference: ReferenceServer;
  beforeAll(async () => {
    reference = await createReferenceServer({ tokens: [TOKEN] });
  });
  afterAll(() => reference.close());

  it('finds nothing wrong, judges every check, and never records the token', async () => {
    const report = await runConformance({ ...QUICK, seed: 42, baseUrl: reference.url, token: TOKEN });
    expect(report.checks.map((check) => [check.id, check.status])).toEqual(
      BUILT_IN_SUITES.flatMap((suite) => suite.checks).map((check) => [check.id, 'pass']),
    );
    expect(report.summary.failed).toBe(0);
    expect(report.seed).toBe(42);
    expect(JSON.stringify(report)).not.toContain(TOKEN);
  });

  it('reaches the same verdict when run again with the same seed against the same (stateful) server', async () => {
    const first = await runConformance({ ...QUICK, seed: 7, baseUrl: reference.url, token: TOKEN });
    const second = await runConformance({ ...QUICK, seed: 7, baseUrl: reference.url, token: TOKEN });
    // Fixed ids (2^63-1, 0, ...) stored by the first run come back 400 from this repeat-rejecting
    // server: a warning that says so, never a failure.
    const verdicts = (report: typeof first) =>
      report.checks.map((check) => [check.id, check.status === 'warn' ? 'pass' : check.status]);
    expect(verdicts(second)).toEqual(verdicts(first));
    expect(reportExitCode(second)).toBe(reportExitCode(first));
    for (const warning of second.checks.filter((check) => check.status === 'warn')) {
      expect(warning.failures[0]?.reason).toMatch(/already stored|holds plants from an earlier plantstore run/);
    }
  });

  it('starts and tests the embedded reference when no base URL is given', async () => {
    const report = await runConformance({ ...QUICK, seed: 3 });
    expect(report.target.embedded).toBe(true);
    expect(report.summary.failed).toBe(0);
  });
});

describe('runConformance against a faulty target', () => {
  it('reports a shrunk counterexample that still fails, and replays the exact request', async () => {
    const target = await startTarget(trimmingTarget);
    try {
      const report = await runConformance({ ...QUICK, runs: 40, seed: 1, baseUrl: target.url, token: TOKEN });
      const failing = report.checks.filter((check) => check.status === 'fail').map((check) => check.id);
      expect(failing).toEqual(['echo']);
      const echo = report.checks.find((check) => check.id === 'echo');
      const failure = echo?.failures[0];
      if (!failure) throw new Error('no echo failure');
      expect(failure.curl).toContain('$PLANTSTORE_TOKEN');
      expect(JSON.stringify(report)).not.toContain(TOKEN);

      // The shrunk counterexample, judged again, still fails.
      const check = BUILT_IN_SUITES.flatMap((suite) => suite.checks).find((c) => c.id === 'echo');
      const context: JudgeContext = { contract, targetRejectsRepeats: undefined };
      const sent = JSON.parse(failure.request.body ?? '{}') as { name: string; tag?: string };
      const strings = sent.tag === undefined ? { name: sent.name } : { name: sent.name, tag: sent.tag };
      const exchange = {
        plan: { body: failure.request.body, intent: { kind: 'valid', strings, idMayRepeat: false } },
        request: failure.request,
        response: failure.response,
      } as unknown as Exchange;
      expect(check?.judge(exchange, context, [exchange])?.outcome).toBe('fail');

      // The runner speaks options, not flags: the failure says how code runs the case again.
      const rerun = failure.rerun;
      if (!rerun) throw new Error('no rerun options');
      expect(rerun).toMatchObject({ seed: 1, runs: 40, baseUrl: target.url });
      expect(failure.replay).toBe(
        `runConformance({ seed: 1, runs: 40, baseUrl: "${target.url}", replay: "${rerun.replay}" })`,
      );
      const again = await runConformance({ ...QUICK, ...rerun, token: TOKEN });
      const replayed = again.checks.find((c) => c.id === 'echo');
      expect(replayed?.status).toBe('fail');
      expect(replayed?.failures[0]?.request.body).toBe(failure.request.body);
      expect(again.summary.cases).toBe(1);
    } finally {
      await target.close();
    }
  });

  it('finishes within its budget against a target that never answers', async () => {
    const target = await startTarget(() => undefined);
    try {
      const report = await runConformance({
        runs: 5,
        concurrency: 4,
        timeoutMs: 200,
        budgetMs: 4_000,
        baseUrl: target.url,
        token: TOKEN,
      });
      expect(report.checks.find((check) => check.id === 'no-server-error')?.status).toBe('fail');
      expect(report.checks.find((check) => check.id === 'no-server-error')?.failures[0]?.response.transportError).toBe(
        'timeout',
      );
      expect(report.summary.durationMs).toBeLessThan(10_000);
    } finally {
      await target.close();
    }
  });

  it('refuses to test a base URL without a token, or with an empty one', async () => {
    await expect(runConformance({ ...QUICK, baseUrl: 'http://127.0.0.1:9' })).rejects.toThrow(/No token/);
    await expect(runConformance({ ...QUICK, baseUrl: 'http://127.0.0.1:9', token: '' })).rejects.toThrow(/empty/);
  });

  it('throws TargetUnreachableError when nothing listens', async () => {
    const target = await startTarget(() => undefined);
    const { url } = target;
    await target.close();
    await expect(runConformance({ ...QUICK, baseUrl: url, token: TOKEN })).rejects.toBeInstanceOf(
      TargetUnreachableError,
    );
  });

  it('could not judge an https URL whose server speaks plain HTTP, and says to use http://, as data', async () => {
    const target = await startTarget((_req, res) => res.writeHead(200).end('{}'));
    try {
      const https = target.url.replace('http://', 'https://');
      const report = await runConformance({ ...QUICK, baseUrl: https, token: TOKEN });
      expect(report.verdict).toBe('could-not-judge');
      expect(report.couldNotJudge).toMatchObject({ code: 'tls', options: ['baseUrl'] });
      expect(report.couldNotJudge?.reason).toMatch(/TLS failed on every request to https:.*tls-.*use http:\/\//);
      // No finding blames the server for a handshake the client made, and no outage is waited out.
      expect(report.findings).toEqual([]);
      expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
      expect(report.notes.join('\n')).not.toMatch(/stopped answering/);
    } finally {
      await target.close();
    }
  });

  it('could not judge a URL where the operation is not found (404): points at the baseUrl option, as data', async () => {
    const target = await startTarget((_req, res) =>
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":404,"message":"Not Found"}'),
    );
    try {
      const report = await runConformance({ ...QUICK, baseUrl: `${target.url}/api`, token: TOKEN });
      // Every valid NewPlant answered 404: not a Plant Store there, so no verdict on the contract.
      expect(reportExitCode(report)).toBe(2);
      expect(report.verdict).toBe('could-not-judge');
      expect(report.couldNotJudge).toMatchObject({ code: 'not-found', options: ['baseUrl'] });
      expect(report.couldNotJudge?.reason).toMatch(
        /\/api\/plants was answered 404.*base path of `baseUrl` \(is \/api right/,
      );
      expect(report.notes.join('\n')).toMatch(/\/api\/plants was answered 404 Not Found.*`baseUrl` is probably wrong/);
      expect(report.noteDetails?.map((note) => note.message)).toEqual(report.notes);
      expect(report.noteDetails?.find((note) => note.code === 'not-found')?.options).toEqual(['baseUrl']);
      expect(report.notes.join('\n')).not.toContain('--');
    } finally {
      await target.close();
    }
  });

  it('could not judge a URL whose every POST is redirected to another origin (http:// to https://)', async () => {
    const target = await startTarget((req, res) =>
      res.writeHead(301, { location: `https://plants.example.com${req.url ?? '/'}` }).end(),
    );
    try {
      const report = await runConformance({ ...QUICK, baseUrl: target.url, token: TOKEN });
      expect(reportExitCode(report)).toBe(2);
      expect(report.couldNotJudge).toMatchObject({ code: 'redirected', options: ['baseUrl'] });
      expect(report.couldNotJudge?.reason).toContain(
        'redirected to https://plants.example.com/plants: the service answers at https://plants.example.com, not at the URL given. Use that origin in `baseUrl`',
      );
    } finally {
      await target.close();
    }
  });

  it('judges a target that redirects POST /plants to /plants/ (Django APPEND_SLASH), saying so once in the notes', async () => {
    const target = await startTarget((req, res) =>
      res.writeHead(301, { location: `${req.url ?? '/'}/`, 'content-length': '0' }).end(),
    );
    try {
      const report = await runConformance({ ...QUICK, baseUrl: target.url, token: TOKEN });
      expect(report.verdict).toBe('not-conformant');
      expect(reportExitCode(report)).toBe(1);
      const redirected = report.noteDetails?.filter((note) => note.code === 'redirected') ?? [];
      expect(redirected.map((note) => note.message)).toEqual([
        `A valid NewPlant sent to ${target.url}/plants was answered 301, a redirect to ${target.url}/plants/ (the same path with a trailing slash, as Django with APPEND_SLASH and routers with strict slashes answer). The contract's operation is POST /plants itself, and a client following it may send the POST again as a GET without its body (RFC 9110, 15.4): each case is judged by the redirect it got.`,
      ]);
      expect(report.noteDetails?.some((note) => note.code === 'preflight-refused')).toBe(false);
    } finally {
      await target.close();
    }
  });
});

/**
 * A correct target whose process dies while it handles a request `crashes` picks: every connection is
 * cut and none accepted, as when an uncaught exception ends a Node server; `restartMs` later (if given)
 * it listens again on the same port, as under a supervisor, with what it stored kept (as in a database).
 * Once restarted, it answers 500 to the requests `brokenOnceBack` picks (a deploy bringing a defect).
 */
async function startMortalTarget(
  crashes: (req: IncomingMessage) => boolean,
  restartMs?: number,
  brokenOnceBack: (req: IncomingMessage) => boolean = () => false,
): Promise<{ url: string; close(): void }> {
  const reference = createReferenceHandler(contract, { tokens: [TOKEN] });
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let closed = false;
  let port = 0;
  let restarted = false;
  const listen = async (): Promise<void> => {
    const current = createServer((req, res) => {
      if (restarted && brokenOnceBack(req)) return void req.resume().on('end', () => res.writeHead(500).end());
      if (!crashes(req)) return reference(req, res);
      if (!current.listening) return;
      current.close();
      for (const socket of sockets) socket.destroy();
      if (restartMs !== undefined) setTimeout(() => void (closed || ((restarted = true), listen())), restartMs);
    });
    current.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    server = current;
    await new Promise<void>((done) => current.listen(port, '127.0.0.1', done));
    port = (current.address() as AddressInfo).port;
  };
  await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      closed = true;
      for (const socket of sockets) socket.destroy();
      server?.close();
    },
  };
}

/** A run long enough to meet the outage, waiting at most 2 s for the target to come back. */
const runUntilStopped = (baseUrl: string) =>
  runConformance({ ...QUICK, runs: 100, seed: 3, timeoutMs: 1_000, baseUrl, token: TOKEN });

describe('a target that stops answering mid-run', () => {
  it('is one finding on a request it had when it stopped, never one on a connection it refused', async () => {
    let handled = 0;
    const target = await startMortalTarget(() => ++handled >= 60);
    try {
      const report = await runUntilStopped(target.url);
      expect(report.verdict).toBe('not-conformant');
      expect(report.checks.filter((check) => check.status === 'fail').map((check) => check.id)).toEqual([
        'no-server-error',
      ]);
      expect(report.findings?.map((finding) => finding.title)).toEqual([WENT_AWAY_DEFECT]);
      const transportError = report.findings?.[0]?.counterexample.response.transportError;
      expect(transportError).toBeDefined();
      expect(transportError).not.toBe('connection-refused');
      const stopped = report.noteDetails?.find((note) => note.code === 'unresponsive');
      expect(stopped?.message).toMatch(
        /^The target stopped answering after \d+ cases \(.*connection-refused ×\d+.* in a row\) and did not answer again within [\d.]+ s:/,
      );
      expect(stopped?.options).toEqual(['replay']);
      expect(report.summary.unsent).toBeGreaterThan(0);
    } finally {
      target.close();
    }
  });

  it('that exits on one input and is not restarted fails with one went-away finding naming its requests in flight', async () => {
    // A Node app with no supervisor whose handler throws, uncaught, on a name holding NUL: the process is gone.
    const sockets = new Set<Socket>();
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (!body.toString().includes('\\u0000')) return echoingTarget(req, res, body);
        server.close();
        for (const socket of sockets) socket.destroy();
      });
    });
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const report = await runConformance({ ...QUICK, runs: 100, seed: 5, timeoutMs: 500, baseUrl: url, token: TOKEN });
      expect(reportExitCode(report), report.notes.join('\n')).toBe(1);
      expect(report.couldNotJudge).toBeUndefined();
      expect(report.findings?.map((finding) => finding.title)).toEqual([WENT_AWAY_DEFECT]);
      const reason = report.findings?.[0]?.counterexample.reason ?? '';
      expect(reason).toMatch(/stopped answering mid-run with (this one request|\d+ requests) in flight/);
      expect(reason).toContain('unless it was stopped from outside');
      const stopped = report.noteDetails?.find((note) => note.code === 'unresponsive');
      expect(stopped?.message).toContain(`It is one finding (no-server-error, "${WENT_AWAY_DEFECT}")`);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  it('that answered the first liveness request and died on the first plant is the went-away finding, not "no answer"', async () => {
    // Up (the liveness and capacity probes' empty objects are answered), then gone on the first body that is not `{}`.
    const sockets = new Set<Socket>();
    const server: Server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (body.toString() === '{}') return echoingTarget(req, res, body);
        server.close();
        for (const socket of sockets) socket.destroy();
      });
    });
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const report = await runConformance({ ...QUICK, timeoutMs: 500, baseUrl: url, token: TOKEN });
      expect(report.couldNotJudge, report.notes.join('\n')).toBeUndefined();
      expect(reportExitCode(report)).toBe(1);
      expect(report.findings?.map((finding) => finding.title)).toEqual([WENT_AWAY_DEFECT]);
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });

  it('is not called unreachable when it answered the preflight and stopped before any case', async () => {
    // The preflight's first plant is the first POST; the process dies on the second, a case's or the preflight's
    // own next request (they go side by side): a case in flight is judged, else the run is incomplete.
    let posts = 0;
    const target = await startMortalTarget((req) => req.method === 'POST' && ++posts >= 2);
    try {
      const report = await runConformance({
        ...QUICK,
        concurrency: 1,
        timeoutMs: 500,
        baseUrl: target.url,
        token: TOKEN,
      });
      expect(report.couldNotJudge).toBeUndefined();
      expect(['not-conformant', 'incomplete']).toContain(report.verdict);
      expect(report.findings).toHaveLength(report.verdict === 'not-conformant' ? 1 : 0);
    } finally {
      target.close();
    }
  });

  it('names a failure of a case a restart cut with the ids it was sent again with, and its replay reproduces', async () => {
    let handled = 0;
    const target = await startMortalTarget(
      () => ++handled === 60,
      300,
      (req) => req.method === 'POST',
    );
    try {
      const report = await runUntilStopped(target.url);
      // A 500 for a valid NewPlant and for an invalid body: two findings, as always (see findings.ts).
      const checks = new Set(report.findings?.flatMap((finding) => finding.checks));
      expect([...checks], report.notes.join('\n')).toEqual(['no-server-error']);
      // The cut cases come first in the run's order: a finding shows one, with its own nonce, every id fresh.
      const runNonce = /come from nonce ([0-9a-f]+)/.exec(report.notes.join('\n'))?.[1];
      const finding = report.findings?.find(({ counterexample }) => !counterexample.replay.endsWith(`:${runNonce}`));
      expect(finding?.counterexample.rerun?.replay).toMatch(/:~[\d.]*:[0-9a-f]{16}$/);
      const replayed = await runConformance({ ...finding!.counterexample.rerun!, baseUrl: target.url, token: TOKEN });
      expect(replayed.findings?.map(({ counterexample }) => counterexample.request.body)).toEqual([
        finding?.counterexample.request.body,
      ]);
    } finally {
      target.close();
    }
  });

  it('names the request that stops it again once it is back, with a reproduction that has it', async () => {
    // Crashes on a body sent without Content-Type (a handler that reads the type's parameters).
    const target = await startMortalTarget(
      (req) => req.method === 'POST' && req.headers['content-type'] === undefined,
      300,
    );
    try {
      const report = await runUntilStopped(target.url);
      expect(report.verdict, report.notes.join('\n')).toBe('not-conformant');
      expect(report.findings).toHaveLength(1);
      const counterexample = report.findings?.[0]?.counterexample;
      expect(counterexample?.request.headers['content-type']).toBeUndefined();
      expect(counterexample?.curl).not.toContain('Content-Type: application/json');
      const stopped = report.noteDetails?.find((note) => note.code === 'unresponsive');
      expect(stopped?.message).toMatch(
        /and answered again after [\d.]+ s; sent again alone, the request \S+ stopped it again/,
      );
    } finally {
      target.close();
    }
  });

  it('says a target slow on every POST (but answering otherwise) may only need a longer timeout', async () => {
    const target = await startTarget((req, res) => {
      if (req.method !== 'POST') return void res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
      const late = setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'), 2_000);
      res.on('close', () => clearTimeout(late));
    });
    try {
      const report = await runConformance({
        ...QUICK,
        concurrency: 1,
        timeoutMs: 200,
        baseUrl: target.url,
        token: TOKEN,
      });
      const stopped = report.noteDetails?.find((note) => note.code === 'unresponsive');
      expect(stopped?.message, report.notes.join('\n')).toMatch(
        /was cut again \(timeout\) while the target stayed up.*If the target is only slow .* raise `timeoutMs`/,
      );
    } finally {
      await target.close();
    }
  });

  it('judges the cases a restart cut on their answers once the target is back, and the run has a verdict', async () => {
    let handled = 0;
    // The plants it stored before the restart stay (one handler across restarts, as a database).
    const target = await startMortalTarget(() => ++handled === 60, 300);
    try {
      const report = await runUntilStopped(target.url);
      expect(
        report.findings?.map((finding) => finding.title),
        report.notes.join('\n'),
      ).toEqual([]);
      expect(report.verdict).toBe('conformant');
      const stopped = report.noteDetails?.find((note) => note.code === 'unresponsive');
      expect(stopped?.message).toMatch(/and answered again after [\d.]+ s; .*: the outage came from outside/);
      expect(stopped?.message).toMatch(
        /Sent again once it answered, (\d+) of the \1 cases cut then were answered and are judged \(0 not\); the run went on with the \d+ cases not yet sent\.$/,
      );
      expect(report.summary.unsent).toBe(0);
    } finally {
      target.close();
    }
  });
});

describe('a document served under a path', () => {
  it('names the path of its first server when the baseUrl leaves it out, with the URL to try', async () => {
    const spec = fileURLToPath(new URL('../http/test-documents/server-path-3.1.yaml', import.meta.url));
    const target = await startTarget((_req, res) =>
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":404,"message":"Not Found"}'),
    );
    try {
      const report = await runConformance({ ...QUICK, baseUrl: target.url, token: TOKEN, spec });
      expect(report.couldNotJudge?.code).toBe('not-found');
      expect(report.couldNotJudge?.reason).toContain(
        `(the document puts POST /plants below /api/v1: try ${target.url}/api/v1); the runner appends /plants.`,
      );
    } finally {
      await target.close();
    }
  });
});

describe('a wrong token', () => {
  it('is named in the notes as the first thing to check, and in the verdict; no check fails for the 401s it made', async () => {
    const reference = await createReferenceServer({ tokens: [TOKEN] });
    try {
      const report = await runConformance({ ...QUICK, baseUrl: reference.url, token: 'not-the-token' });
      expect(report.notes.join('\n')).toMatch(/answered 401.*check the token first/);
      expect(report.couldNotJudge?.reason).toMatch(/refuses that token.*Check the token/);
      // A correct server refusing a wrong token is blamed for nothing: a CI view shows the setup's reason only.
      expect(report.checks.filter((check) => check.status === 'fail')).toEqual([]);
      expect(report.findings).toEqual([]);
      const acceptance = report.checks.find((check) => check.id === 'positive-acceptance');
      expect(acceptance?.skipReason).toMatch(/does not answer like a Plant Store \(credential-refused\)/);
    } finally {
      await reference.close();
    }
  });
});

describe('judging with a short token', () => {
  it('judges what the target sent, not the redacted record: a tag equal to the token is no echo failure', async () => {
    const server = await createReferenceServer({ tokens: ['T'] });
    try {
      const report = await runConformance({ baseUrl: server.url, token: 'T', seed: 1015807328, runs: 100 });
      expect(report.checks.filter((check) => check.status === 'fail').map((check) => check.id)).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
