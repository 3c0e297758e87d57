import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../contract/index.js';
import { createReferenceHandler } from '../reference/server.js';
import { runConformance } from '../index.js';
import { formatReplay, parseReplay } from './replay.js';
import type { Finding } from './report.js';
import type { CaseRun } from './execute.js';
import { AloneResends, UnansweredFailures } from './resend-alone.js';
import { BUILT_IN_SUITES } from '../../suites/index.js';
import { createArbitraryCache, generateCases } from './cases.js';
import { createFreshIds } from './generate/fresh-ids.js';
import { createTargetClient } from './http/client.js';
import { replayCase } from './replay-case.js';
import { selectChecks } from './selection.js';
import { judgeContextOf } from './target.js';
import type { CaseVerdict } from './verdicts.js';

const TOKEN = 'resend-alone-token-41c2';
const contract = await loadContract();

/**
 * What the twist does with a request (`post`: how many POSTs came so far, this one included): `pass` it to
 * the reference, else drop its connection, answer a gateway page, or `hold` it unanswered (until the server closes).
 */
type Twist = (post: number, req: IncomingMessage) => 'pass' | 'drop' | 'gateway' | 'hold';

const GATEWAY_PAGE =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n';

/**
 * The reference behind a twist, counting POSTs from 1 (the preflight's included): a connection dropped
 * as a process under load or a restart drops it, or nginx's 502 page while the service behind it is down.
 */
async function startTwisted(twist: Twist): Promise<{ url: string; close(): Promise<void> }> {
  const reference = createReferenceHandler(contract, { tokens: [TOKEN] });
  const sockets = new Set<Socket>();
  let posts = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST') posts++;
    const what = twist(posts, req);
    if (what === 'drop') return req.socket.destroy();
    if (what === 'hold') return req.resume();
    if (what === 'gateway')
      return req.resume().on('end', () => res.writeHead(502, { 'content-type': 'text/html' }).end(GATEWAY_PAGE));
    return reference(req, res);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

const run = (baseUrl: string) =>
  runConformance({ seed: 5, concurrency: 4, timeoutMs: 2_000, budgetMs: 60_000, baseUrl, token: TOKEN });

async function against(twist: Twist, body: (url: string) => Promise<void>): Promise<void> {
  const target = await startTwisted(twist);
  try {
    await body(target.url);
  } finally {
    await target.close();
  }
}

describe('a request that got no answer of the service', () => {
  it('is a note, not a finding, when it was one dropped connection and is answered sent again alone', () =>
    against(
      (post, req) => (post === 60 && req.method === 'POST' ? 'drop' : 'pass'),
      async (url) => {
        const report = await run(url);
        expect(report.findings, report.notes.join('\n')).toEqual([]);
        expect(report.verdict).toBe('conformant');
        const note = report.noteDetails?.find(({ code }) => code === 'answered-alone');
        expect(note?.message).toMatch(
          /^A case of the run got no answer of the service \(connection-reset ×1; case \d+ /,
        );
        expect(note?.options).toEqual(['runs']);
      },
    ));

  it.each<[string, Twist, RegExp]>([
    [
      'a few requests with its 502 page while the service restarted',
      (post, req) => (post >= 60 && post < 65 && req.method === 'POST' ? 'gateway' : 'pass'),
      /^5 cases of the run got no answer of the service \(status 502 ×5; cases \d+ to \d+ /,
    ],
    [
      'two bursts of requests far apart with its 502 page during a rolling restart of two instances',
      (post, req) =>
        ((post >= 60 && post < 64) || (post >= 200 && post < 204)) && req.method === 'POST' ? 'gateway' : 'pass',
      /^8 cases of the run got no answer of the service \(status 502 ×8; cases \d+ to \d+ /,
    ],
  ])('is a note when a gateway answered %s', (_, twist, note) =>
    against(twist, async (url) => {
      const report = await run(url);
      expect(report.findings, report.notes.join('\n')).toEqual([]);
      expect(report.verdict).toBe('conformant');
      expect(report.noteDetails?.find(({ code }) => code === 'answered-alone')?.message).toMatch(note);
    }),
  );

  it('is an outage whose cut cases are judged once sent again when a deploy behind the gateway answered 502 pages', () => {
    let downUntil = 0;
    return against(
      (post) => {
        if (post === 60) downUntil = Date.now() + 600;
        return Date.now() < downUntil ? 'gateway' : 'pass';
      },
      async (url) => {
        const report = await run(url);
        expect(report.findings, report.notes.join('\n')).toEqual([]);
        expect(report.verdict).toBe('conformant');
        const stopped = report.noteDetails?.find(({ code }) => code === 'unresponsive')?.message;
        expect(stopped).toMatch(
          /^The target stopped answering after \d+ cases \(status 502 ×\d+ in a row\) and answered again/,
        );
        expect(stopped).toMatch(
          /Sent again once it answered, (\d+) of the \1 cases cut then were answered and are judged \(0 not\); the run went on with the \d+ cases not yet sent/,
        );
      },
    );
  });

  it('waits out a deploy behind the gateway longer than a crashed process is waited for (three timeouts, not two)', () => {
    let downUntil = 0;
    return against(
      (post) => {
        if (post === 60) downUntil = Date.now() + 5_000;
        return Date.now() < downUntil ? 'gateway' : 'pass';
      },
      async (url) => {
        // timeoutMs 2 s: a process is waited for 4 s, a service behind a gateway 6 s.
        const report = await run(url);
        expect(report.findings, report.notes.join('\n')).toEqual([]);
        expect(report.verdict).toBe('conformant');
      },
    );
  });

  it('is the crash it is when the service behind the gateway goes down on the first requests and is restarted', async () => {
    // Down for 300 ms after each POST of more than 40 bytes (the preflight's first plant is one): nginx's 502
    // page meanwhile, to everything; the liveness request at the start found the service up.
    let downUntil = 0;
    const crashesOnLongBodies: Twist = (_post, req) => {
      if (Date.now() < downUntil) return 'gateway';
      if (req.method !== 'POST' || Number(req.headers['content-length'] ?? 0) <= 40) return 'pass';
      downUntil = Date.now() + 300;
      return 'gateway';
    };
    await against(crashesOnLongBodies, async (url) => {
      const report = await run(url);
      expect(report.couldNotJudge, report.notes.join('\n')).toBeUndefined();
      expect(report.verdict).toBe('not-conformant');
      expect(report.findings?.map(({ checks }) => checks)).toEqual([['no-server-error']]);
      const { request, response } = report.findings![0]!.counterexample;
      expect(response.status).toBe(502);
      // Shrunk only through candidates sent while the service was up: the request shown brings it down.
      expect(Buffer.byteLength(request.body ?? '')).toBeGreaterThan(40);
      expect(report.noteDetails?.find(({ code }) => code === 'unresponsive')?.message).toMatch(/stopped it again/);
    });
  });

  it('stays a finding, sent again alone with fresh ids, when it drops its connection every time', async () => {
    const dropsPlainText: Twist = (_post, req) =>
      /text\/plain/.test(req.headers['content-type'] ?? '') ? 'drop' : 'pass';
    let found: Finding | undefined;
    await against(dropsPlainText, async (url) => {
      const report = await run(url);
      expect(report.findings?.map(({ title }) => title)).toEqual([
        'connection-reset on a body with a missing or wrong Content-Type',
      ]);
      expect(report.noteDetails?.map(({ code }) => code)).not.toContain('answered-alone');
      found = report.findings?.[0];
    });
    // Its replay names the case with every id fresh, as it was sent again alone, and reproduces on a fresh instance.
    const rerun = found?.counterexample.rerun;
    expect(rerun?.replay).toMatch(/^[a-z-]+:\d+:~[\d.]*:[0-9a-f]+$/);
    await against(dropsPlainText, async (url) => {
      const replayed = await runConformance({ ...rerun!, baseUrl: url, token: TOKEN, timeoutMs: 2_000 });
      expect(replayed.findings?.map(({ title, counterexample }) => [title, counterexample.request.body])).toEqual([
        [found?.title, found?.counterexample.request.body],
      ]);
    });
  });

  it("is judged on its answer sent again alone when it timed out under the run's load (a small server's queue)", () =>
    against(
      (post, req) => ((post === 60 || post === 61 || post === 200) && req.method === 'POST' ? 'hold' : 'pass'),
      async (url) => {
        const report = await run(url);
        expect(report.findings, report.notes.join('\n')).toEqual([]);
        expect(report.verdict).toBe('conformant');
        const note = report.noteDetails?.find(({ code }) => code === 'timeouts-answered-alone');
        expect(note?.message).toMatch(
          /^3 requests of the run got no answer within the timeout \(2000 ms, `timeoutMs`\) while the run had up to 4 in flight; the \d+ sent again alone were answered within \d+ ms and judged on that answer, not as a hang\./,
        );
        expect(note?.options).toEqual(['timeoutMs', 'concurrency']);
      },
    ));

  it('stays a finding, its request still unanswered sent again alone, when the target hangs on an input', async () => {
    const hangsOnPlainText: Twist = (_post, req) =>
      req.method === 'POST' && /text\/plain/.test(req.headers['content-type'] ?? '') ? 'hold' : 'pass';
    await against(hangsOnPlainText, async (url) => {
      const report = await run(url);
      expect(report.findings?.map(({ title }) => title)).toEqual([
        'timeout on a body with a missing or wrong Content-Type',
      ]);
      const { response, curl } = report.findings![0]!.counterexample;
      expect(response.transportError).toBe('timeout');
      expect(curl).toMatch(/^curl -sS -i --max-time \d+ -X POST /);
      expect(report.noteDetails?.map(({ code }) => code)).not.toContain('timeouts-answered-alone');
    });
  });

  it('stays a finding when many requests spread over the run went unanswered, as from a target that drops some', () =>
    against(
      (post, req) => (post > 20 && post % 15 === 0 && req.method === 'POST' ? 'drop' : 'pass'),
      async (url) => {
        const report = await run(url);
        expect(report.verdict).toBe('not-conformant');
        expect(report.findings?.map(({ checks }) => checks)).toContainEqual(['no-server-error']);
        expect(report.noteDetails?.map(({ code }) => code)).not.toContain('answered-alone');
      },
    ));
});

describe('UnansweredFailures', () => {
  const response = { status: 0, headers: {}, body: null, durationMs: 1, transportError: 'connection-reset' };
  /** A check's tally of `cases` cases, one judged every `msPerCase` ms, those at `failing` orders cut. */
  const tally = (cases: number, failing: (order: number) => boolean, msPerCase = 1): UnansweredFailures => {
    const failures = new UnansweredFailures();
    for (let order = 0; order < cases; order++) {
      const verdict: CaseVerdict = { outcome: failing(order) ? 'fail' : 'pass', exchangeIndex: 0 };
      failures.add({ order, exchanges: [{ response }] } as unknown as CaseRun, verdict, order * msPerCase);
    }
    return failures;
  };

  it('are few or together: at most three bursts in time, each a lone failure or dense (one case in eight cut)', () => {
    // A rolling restart of two instances behind nginx at 1,000 cases a second: half of 1.5 s of cases cut, twice.
    const rolling = (order: number): boolean => order % 2 === 0 && ((order >= 500 && order < 2000) || order > 2600);
    expect(tally(3000, rolling).fewOrTogether(4)).toBe(true);
    // Three lone failures far apart, and a burst of every case for 40 ms (a restart cutting what was in flight).
    expect(tally(3000, (order) => [10, 2900].includes(order) || (order >= 1500 && order < 1540)).fewOrTogether(4)).toBe(
      true,
    );
  });

  it('are together however often requests are cut together at one moment, as by a gateway reloaded every 0.5 s', () => {
    // At 1,000 cases a second: every 500 ms, the next 5 cases of the 10 after it cut (the old workers' connections).
    const reloads = (order: number): boolean => order % 500 < 10 && order % 2 === 0 && order > 0;
    expect(tally(12_000, reloads).fewOrTogether(32)).toBe(true);
    // The same number of outages of 300 ms each (a service behind the gateway crashing and restarting): not together.
    const outages = (order: number): boolean => order % 1500 < 300 && order % 2 === 0 && order > 0;
    expect(tally(12_000, outages).fewOrTogether(32)).toBe(false);
  });

  it('are not when they are spread over the run: one long sparse burst, or many', () => {
    // One request in 15 dropped, at 1,000 cases a second (every failure within a second of the last) and at 1 a second.
    expect(tally(3000, (order) => order % 15 === 0).fewOrTogether(4)).toBe(false);
    expect(tally(300, (order) => order % 15 === 0, 1_000).fewOrTogether(4)).toBe(false);
    // Four lone failures, seconds apart.
    expect(tally(3000, (order) => [10, 1200, 2400, 2990].includes(order), 5).fewOrTogether(4)).toBe(false);
    // A burst of one in two that lasts longer than a deploy is waited for.
    expect(tally(4000, (order) => order % 2 === 0, 10).fewOrTogether(4)).toBe(false);
  });
});

describe('a replay string of a case sent again with fresh ids', () => {
  it('reads back as the case as generated, every id fresh', () => {
    const text = formatReplay({ probe: 'valid-plant', index: 3, path: [], alwaysFresh: true, nonce: 'ab12' });
    expect(text).toBe('valid-plant:3:~:ab12');
    expect(parseReplay(text)).toEqual({ probe: 'valid-plant', index: 3, path: [], alwaysFresh: true, nonce: 'ab12' });
    expect(parseReplay('valid-plant:3:-:ab12')).toMatchObject({ path: [], alwaysFresh: false });
  });
});

describe('a case sent again after an outage (ids of its own nonce), then sent again alone', () => {
  it('sends the bytes its replay string renders: its nonce, every id fresh', async () => {
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"x"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const client = createTargetClient({
      baseUrl: url,
      token: TOKEN,
      concurrency: 1,
      timeoutMs: 5_000,
      maxBodyBytes: 1e6,
    });
    try {
      const runFresh = createFreshIds('0123456789abcdef');
      const inputs = { contract, seed: 7, runs: 5, fresh: runFresh, arbitraries: createArbitraryCache(contract) };
      const generated = generateCases(selectChecks(BUILT_IN_SUITES).allProbes, inputs).find(
        (entry) => entry.probe.name === 'valid-plant',
      )!;
      const run: CaseRun = { generated, exchanges: [], order: 0, nonce: 'fedcba9876543210' };
      const resends = new AloneResends({
        contract,
        client,
        fresh: runFresh,
        judgeContext: judgeContextOf({ rejectsRepeats: undefined }, contract),
        steadyWaitMs: 0,
      });
      const check = BUILT_IN_SUITES.flatMap((suite) => suite.checks).find((each) => each.id === 'no-server-error')!;
      await resends.confirm(check, run, { outcome: 'fail', reason: 'dropped', exchangeIndex: 0 });
      const replayed = replayCase(parseReplay(`valid-plant:${generated.index}:~:${run.nonce}`), [generated], {
        ...inputs,
        fresh: createFreshIds(run.nonce),
      });
      expect(bodies).toContain(replayed.plans[0]?.body);
    } finally {
      await client.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
