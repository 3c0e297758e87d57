import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createBearerCheck, errorBody, loadContract, readNewPlant } from '../contract/index.js';
import { listenOnLoopback } from '../fixtures/target-fixture.js';
import { runConformance } from '../index.js';
import { WENT_AWAY_DEFECT } from '../runner/went-away.js';
import { failureDetails, findingsSection } from './console-format.js';

const TOKEN = 'console-format-token-5e1';
const MODE = { live: false, color: false, width: 120 };

/**
 * A Node app with no supervisor that dies on a name holding NUL once it holds one more request besides (so
 * two or more are in flight when it goes): until then it stores nothing and answers as the contract says.
 */
async function startDying() {
  const contract = await loadContract();
  const checkBearer = createBearerCheck([TOKEN]);
  const answer = (req: IncomingMessage, res: ServerResponse, body: Buffer): void => {
    const send = (status: number, text: string): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(text);
    };
    const authProblem = checkBearer(req.headers.authorization);
    if (authProblem) return send(401, errorBody(authProblem));
    const read = readNewPlant(contract, req.headers['content-type'], body);
    if (!read.ok) return send(400, errorBody(read.problem));
    const { name, tag } = read.plant;
    send(200, JSON.stringify(tag === undefined ? { name } : { name, tag }));
  };
  const held: ServerResponse[] = [];
  let dying = false;
  const target = await listenOnLoopback(
    createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (body.toString().includes('\\u0000')) dying = true;
        if (!dying) return answer(req, res, body);
        held.push(res);
        if (held.length >= 2) void target.close();
      });
    }),
    TOKEN,
  );
  return target;
}

describe('the console of a run whose target went away with several requests in flight', () => {
  it("prints every candidate's curl line and replay under the counterexample, as the outage note names them", async () => {
    const target = await startDying();
    try {
      const report = await runConformance({
        baseUrl: target.url,
        token: TOKEN,
        seed: 5,
        runs: 100,
        concurrency: 4,
        timeoutMs: 500,
        budgetMs: 60_000,
      });
      expect(report.findings?.map((finding) => finding.title)).toEqual([WENT_AWAY_DEFECT]);
      const candidates = report.findings?.[0]?.counterexample.candidates ?? [];
      expect(candidates.length).toBeGreaterThanOrEqual(2);
      const printed = failureDetails(report, MODE) + findingsSection(report, MODE);
      const note = report.noteDetails?.find((each) => each.code === 'unresponsive')?.message ?? '';
      candidates.forEach((candidate, index) => {
        expect(printed).toContain(`curl ${index + 1}   | ${candidate.curl.split('\n')[0]}`);
        expect(printed).toContain(`replay ${index + 1} | ${candidate.replay}`);
        const named = /[a-z0-9-]+:\d+:[~\d.-]+:[0-9a-f]+/.exec(candidate.replay)?.[0];
        expect(named).toBeDefined();
        expect(note).toContain(named);
      });
    } finally {
      await target.close();
    }
  }, 60_000);
});
