import { expect, it } from 'vitest';
import {
  BUILT_IN_SUITES,
  defineCheck,
  defineSuite,
  fail,
  isJudgeable,
  PASS,
  responseJson,
  runConformance,
  validPlants,
} from '../src/index.js';

// The "Adding a suite" example of docs/checks.md, verbatim apart from the import path.
const tagLength = defineCheck({
  id: 'tag-length',
  title: 'Tags of any length are echoed',
  rule: 'tag is a string with no length limit',
  probes: [validPlants],
  judge(exchange) {
    const { plan, response } = exchange;
    if (plan.intent.kind !== 'valid' || !isJudgeable(response) || response.status !== 200) return undefined;
    const sent = plan.intent.strings.tag;
    const body = responseJson(exchange);
    if (sent === undefined || !body.ok) return undefined;
    return (body.value as { tag?: unknown }).tag === sent ? PASS : fail(`a tag of ${sent.length} characters changed`);
  },
});
const tags = defineSuite({ name: 'tags', description: 'Long tags survive.', checks: [tagLength] });

it('runs a user-defined suite beside the built-in ones', async () => {
  const report = await runConformance({ runs: 10, seed: 8, suites: [...BUILT_IN_SUITES, tags] });
  const result = report.checks.find((check) => check.id === 'tag-length');
  expect(result?.status).toBe('pass');
  expect(result?.cases).toBeGreaterThan(0);
  expect(report.summary.failed).toBe(0);
});

it('runs only the selected check, and sends only the probes it needs', async () => {
  const report = await runConformance({ runs: 10, seed: 8, suites: [tags], checks: ['tag-length'] });
  expect(report.checks.map((check) => check.id)).toEqual(['tag-length']);
  expect(report.summary.cases).toBe(10);
});
