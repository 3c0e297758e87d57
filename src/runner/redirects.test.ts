import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { reportExitCode, runConformance } from '../index.js';

const TOKEN = 'redirect-token';
const QUICK = { runs: 12, concurrency: 4, timeoutMs: 3_000, budgetMs: 30_000, token: TOKEN } as const;

/** nginx 1.22's page for a status, as its default `error_page` writes it. */
function nginxPage(status: number, text: string): string {
  return `<html>\r\n<head><title>${status} ${text}</title></head>\r\n<body>\r\n<center><h1>${status} ${text}</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n`;
}

/** A target that reads each request whole and answers it with `answer`. */
async function startTarget(
  answer: (req: IncomingMessage, res: ServerResponse, url: string) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let url = '';
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(req, res, url));
  });
  server.on('connection', (socket: Socket) => (sockets.add(socket), socket.on('close', () => sockets.delete(socket))));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

describe('a target whose POST /plants is redirected to /plants/', () => {
  it('is one finding whatever was sent (Django APPEND_SLASH: 301, no body)', async () => {
    const target = await startTarget((req, res) =>
      res.writeHead(301, { location: `${req.url ?? '/'}/`, 'content-length': '0' }).end(),
    );
    try {
      const report = await runConformance({ ...QUICK, baseUrl: target.url });
      expect(reportExitCode(report)).toBe(1);
      expect(report.findings?.map((finding) => finding.title)).toEqual(['status 301, a redirect (not followed)']);
    } finally {
      await target.close();
    }
  }, 60_000);

  it('is judged as Django is when the redirect is an HTML page (nginx, location /plants/)', async () => {
    const target = await startTarget((req, res, url) => {
      const page = nginxPage(301, 'Moved Permanently');
      res.writeHead(301, { location: `${url}${req.url ?? '/'}/`, 'content-type': 'text/html' }).end(page);
    });
    try {
      const report = await runConformance({ ...QUICK, baseUrl: target.url });
      expect(report.couldNotJudge).toBeUndefined();
      expect(report.verdict).toBe('not-conformant');
      expect(report.findings?.map((finding) => finding.title)).toEqual(['status 301, a redirect (not followed)']);
    } finally {
      await target.close();
    }
  }, 60_000);
});

describe('a gateway whose service behind it is down', () => {
  it('could not judge, and says the gateway answers for a service that failed (nginx 502 pages)', async () => {
    const target = await startTarget((_req, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end(nginxPage(502, 'Bad Gateway')),
    );
    try {
      const report = await runConformance({ ...QUICK, baseUrl: target.url });
      expect(reportExitCode(report)).toBe(2);
      expect(report.couldNotJudge).toMatchObject({ code: 'html' });
      expect(report.couldNotJudge?.reason).toContain('says the service behind it failed or did not answer');
      expect(report.couldNotJudge?.reason).toContain('Start the service');
    } finally {
      await target.close();
    }
  }, 60_000);
});

describe('a sign-in gateway in front of the service', () => {
  it('could not judge, and says every request was redirected to a login page (an SSO gateway)', async () => {
    const target = await startTarget((_req, res) =>
      res
        .writeHead(302, { location: '/login?next=%2Fplants', 'content-type': 'text/html' })
        .end('<html><body><a href="/login">Sign in</a></body></html>'),
    );
    try {
      const report = await runConformance({ ...QUICK, baseUrl: target.url });
      expect(reportExitCode(report)).toBe(2);
      expect(report.couldNotJudge).toMatchObject({ code: 'html' });
      expect(report.couldNotJudge?.reason).toContain('(statuses 302)');
      expect(report.couldNotJudge?.reason).toContain('a sign-in gateway (SSO, an OAuth proxy)');
      expect(report.couldNotJudge?.options).toEqual(['baseUrl']);
    } finally {
      await target.close();
    }
  }, 60_000);
});
