import type { CheckDefinition } from './check.js';
import { countsText, type RunEvidence } from './evidence.js';
import type { CheckResult, CouldNotJudge, Finding } from './report.js';

/** Checks whose findings explain why no valid NewPlant was accepted, most telling first. */
const ACCEPTANCE_CHECKS = ['positive-acceptance', 'no-server-error', 'documented-status'];

/**
 * Why a check that ran judged nothing, exactly: which answers its cases got, and which finding (or
 * what about the URL) left it nothing to judge. The check's own words are kept when it was skipped
 * by selection or replay (it never ran).
 */
export function explainSkip(
  result: CheckResult,
  check: CheckDefinition,
  context: {
    readonly evidence: RunEvidence;
    readonly findings: readonly Finding[];
    readonly couldNotJudge: CouldNotJudge | undefined;
  },
): CheckResult {
  if (result.status !== 'skip' || result.cases > 0) return result;
  const { evidence, findings, couldNotJudge } = context;
  const answers = answersTo(check, evidence);
  const seen = answers.size === 0 ? 'none of its cases was sent' : `its cases were answered ${countsText(answers)}`;
  let why: string;
  if (couldNotJudge) {
    why = `Nothing to judge: ${seen}, and the URL does not answer like a Plant Store (${couldNotJudge.code}).`;
  } else if (answers.size > 0 && evidence.valid.size > 0 && evidence.validAccepted === 0) {
    const finding = ACCEPTANCE_CHECKS.map((id) => findings.find((f) => f.checks.includes(id))).find(Boolean);
    const because = finding ? `: finding ${finding.fingerprint} ("${finding.title}")` : '';
    why = `Nothing to judge: ${seen}. No valid NewPlant was accepted with ${evidence.success.documented} (they were answered ${countsText(evidence.valid)}${because}), and this check judges what follows an accepted plant.`;
  } else if (
    check.id === 'echo' &&
    evidence.validAccepted > 0 &&
    evidence.validAcceptedMayRepeat === evidence.validAccepted
  ) {
    why = `Nothing to judge: ${seen}. Every valid NewPlant accepted carried an id an earlier run may have sent (the document's id range is too narrow for ids of their own), and a target that answers a repeated id with 200 may answer with the plant it stored: no answer was the plant sent or that plant with a value changed as a server's code changes it, so what the answer must echo is open.`;
  } else {
    why = `Nothing to judge: ${seen}, and none of those answers is one this check judges.`;
  }
  return { ...result, skipReason: why };
}

/** The answers to the cases of the probes a check needs (every probe's for a check of `'all'`). */
function answersTo(check: CheckDefinition, evidence: RunEvidence): Map<string, number> {
  const names =
    check.probes === 'all'
      ? [...evidence.byProbe.keys()]
      : [...check.probes, ...(check.alsoSends ?? [])].map((probe) => probe.name);
  const total = new Map<string, number>();
  for (const name of new Set(names)) {
    for (const [key, count] of evidence.byProbe.get(name) ?? []) total.set(key, (total.get(key) ?? 0) + count);
  }
  return total;
}
