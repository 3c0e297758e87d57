// A CommonJS consumer ("type": "commonjs"): TypeScript emits require('plantstore'), which Node
// 22.12+ serves from the ES module package (require(esm)).
import { createReferenceServer, reportExitCode, runConformance, type Report } from 'plantstore';

async function main(): Promise<void> {
  const token = 'consumer-smoke-token';
  const server = await createReferenceServer({ tokens: [token], port: 0, host: process.env.PLANTSTORE_SMOKE_HOST });
  try {
    const report: Report = await runConformance({
      baseUrl: server.url,
      token,
      runs: 20,
      seed: 1,
      spec: process.env.PLANTSTORE_SMOKE_SPEC,
    });
    const failed = report.checks.filter((check) => check.status === 'fail').map((check) => check.id);
    if (reportExitCode(report) !== 0) throw new Error(`the reference failed checks: ${failed.join(', ')}`);
    process.stdout.write(
      `cjs: runConformance judged ${report.summary.cases} cases against createReferenceServer: pass\n`,
    );
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
});
