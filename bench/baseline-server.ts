import { createServer } from 'node:http';

/**
 * The ceiling on this machine: a bare node:http server that reads the body, parses it with
 * JSON.parse and echoes name and tag, with no authentication, validation or exact integers.
 */
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { name?: unknown; tag?: unknown };
      const text = JSON.stringify({ name: body.name, tag: body.tag });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    } catch {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":1,"message":"bad json"}');
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object')
    process.stdout.write(`baseline listening on http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
