// An ESM consumer ("type": "module"): top-level await, named imports.
// Options are given as `string | undefined` (unset variables), as a project under exactOptionalPropertyTypes may.
import { createReferenceServer, reportExitCode, runConformance, type Report } from 'plantstore';

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
    `esm: runConformance judged ${report.summary.cases} cases against createReferenceServer: pass\n`,
  );
} finally {
  await server.close();
}
