import type { Contract } from '../contract/index.js';
import type { CheckDefinition, Suite } from './check.js';
import { ConformanceOptionsError } from './errors.js';
import type { Probe } from './probe.js';
import type { CheckResult } from './report.js';

/** Which checks run, which are skipped and why, and which probes that takes. */
export interface CheckSelection {
  readonly selected: readonly CheckDefinition[];
  /** Every check in report order: to run, or already decided as skipped. */
  readonly ordered: readonly (
    { readonly check: CheckDefinition } | { readonly skipReason: string; readonly result: CheckResult }
  )[];
  /** Every probe of every check, in a fixed order: always generated, so ids are claimed the same way. */
  readonly allProbes: readonly Probe<unknown>[];
  /** The probes whose cases are sent. */
  readonly sentProbes: ReadonlySet<Probe<unknown>>;
}

/**
 * Applies the `checks` and `skipChecks` options to the suites' checks (an unknown id is an options
 * error), and skips a check that says it does not apply to `contract`.
 */
export function selectChecks(
  suites: readonly Suite[],
  only: readonly string[] = [],
  skip: readonly string[] = [],
  contract?: Contract,
): CheckSelection {
  const all = suites.flatMap((suite) => suite.checks);
  const known = new Set(all.map((check) => check.id));
  const unknown = [...only, ...skip].filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new ConformanceOptionsError(
      `unknown check "${unknown.join('", "')}"; the checks are ${[...known].join(', ')}`,
      only.some((id) => !known.has(id)) ? 'checks' : 'skipChecks',
    );
  }
  const ordered = all.map((check) => {
    const reason =
      only.length > 0 && !only.includes(check.id)
        ? 'not selected (`checks`)'
        : skip.includes(check.id)
          ? 'skipped with `skipChecks`'
          : contract === undefined
            ? undefined
            : check.notApplicable?.(contract);
    if (reason === undefined) return { check };
    const result: CheckResult = {
      id: check.id,
      title: check.title,
      rule: check.rule,
      status: 'skip',
      cases: 0,
      failures: [],
      skipReason: reason,
    };
    return { skipReason: reason, result };
  });
  const selected = ordered.flatMap((entry) => ('check' in entry && entry.check ? [entry.check] : []));
  const probesOf = (checks: readonly CheckDefinition[]): Probe<unknown>[] => [
    ...new Set(
      checks.flatMap((check) => [...(check.probes === 'all' ? [] : check.probes), ...(check.alsoSends ?? [])]),
    ),
  ];
  const allProbes = probesOf(all);
  const needsAll = selected.some((check) => check.probes === 'all');
  return { selected, ordered, allProbes, sentProbes: new Set(needsAll ? allProbes : probesOf(selected)) };
}
