import type { BaselineComparison, Finding, Report } from '../runner/report.js';
import { currentFingerprints, RETIRED_FINGERPRINTS, type RetiredFingerprints } from './retired-fingerprints.js';

/** One known finding in a baseline file: its fingerprint, and a title for the person reading the diff. */
export interface BaselineEntry {
  readonly fingerprint: string;
  readonly title: string;
  /** The checks it failed when the file was written: a run in which none of them judged anything cannot tell it is fixed. */
  readonly checks?: readonly string[];
}

/** The content of a baseline file (`plantstore test --write-baseline FILE`), committed by a team. */
export interface Baseline {
  readonly tool: 'plantstore';
  /** The format of this file; 1 today. */
  readonly baselineVersion: 1;
  /** Sorted by fingerprint, so the file changes only when findings do. */
  readonly findings: readonly BaselineEntry[];
}

/** The baseline of a report: its findings' fingerprints and titles, in a stable order. */
export function baselineOf(report: Report): Baseline {
  const findings = (report.findings ?? [])
    .map((finding) => ({ fingerprint: finding.fingerprint, title: finding.title, checks: finding.checks }))
    .sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0));
  return { tool: 'plantstore', baselineVersion: 1, findings };
}

/** The baseline file's text: pretty JSON with a final newline. */
export function baselineText(report: Report): string {
  return `${JSON.stringify(baselineOf(report), null, 2)}\n`;
}

/** What a fingerprint looks like: 16 hexadecimal digits, lower case in every file plantstore writes. */
const FINGERPRINT = /^[0-9a-f]{16}$/;

/**
 * Reads a baseline file's text; throws an Error naming what is wrong (the CLI shows it as a usage
 * error), so a mistyped file never silently excuses every finding or none. A hand edit's capitals or
 * spaces around a fingerprint are read as the fingerprint; a title may be left out.
 */
export function parseBaseline(text: string, file: string): Baseline {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not JSON: write it with --write-baseline.`);
  }
  const { findings, baselineVersion } = (value ?? {}) as { findings?: unknown; baselineVersion?: unknown };
  if (!Array.isArray(findings) || !findings.every(isEntry)) {
    throw new Error(
      `${file} is not a plantstore baseline (no "findings" list of fingerprints): write it with --write-baseline.`,
    );
  }
  if (baselineVersion !== undefined && baselineVersion !== 1) {
    throw new Error(
      `${file} is a baseline of format version ${JSON.stringify(baselineVersion)}; this plantstore reads version 1: write it again with --write-baseline.`,
    );
  }
  return {
    tool: 'plantstore',
    baselineVersion: 1,
    findings: findings.map((entry, index) => readEntry(entry, index, file)),
  };
}

function isEntry(entry: unknown): entry is { fingerprint: string; title?: string; checks?: string[] } {
  const { fingerprint, title, checks } = (entry ?? {}) as Partial<Record<keyof BaselineEntry, unknown>>;
  const checkList = checks === undefined || (Array.isArray(checks) && checks.every((id) => typeof id === 'string'));
  return typeof fingerprint === 'string' && (title === undefined || typeof title === 'string') && checkList;
}

/** One entry as written by --write-baseline; a fingerprint no finding can have is refused by its place. */
function readEntry(
  entry: { fingerprint: string; title?: string; checks?: string[] },
  index: number,
  file: string,
): BaselineEntry {
  const fingerprint = entry.fingerprint.trim().toLowerCase();
  if (!FINGERPRINT.test(fingerprint)) {
    throw new Error(
      `${file}: finding ${index + 1} has the fingerprint ${JSON.stringify(entry.fingerprint)}, not 16 hexadecimal digits, so no finding can match it: copy it from report.json (findings[].fingerprint) or write the file with --write-baseline.`,
    );
  }
  const read = { fingerprint, title: entry.title ?? '' };
  return entry.checks === undefined ? read : { ...read, checks: entry.checks };
}

/**
 * Which of the report's findings the baseline knows, which are new, and which it lists but no longer occur. An
 * entry written by an older plantstore under a fingerprint since retired ({@link RETIRED_FINGERPRINTS}: the same
 * defect, worded otherwise) knows the finding under its current one, and is listed under `renamed`.
 */
export function compareWithBaseline(
  report: Report,
  baseline: Baseline,
  file: string,
  retired: RetiredFingerprints = RETIRED_FINGERPRINTS,
): BaselineComparison {
  const seen = new Set((report.findings ?? []).map((finding: Finding) => finding.fingerprint));
  const today = new Map(baseline.findings.map((entry) => [entry, currentFingerprints(entry.fingerprint, retired)]));
  const known = new Set([...today.values()].flat());
  const found = [...seen];
  // A run that could not judge the target saw nothing: that fixes nothing.
  const unseen = baseline.findings.filter(
    (entry) => report.verdict !== 'could-not-judge' && !today.get(entry)?.some((print) => seen.has(print)),
  );
  const judged = new Set(report.checks.filter((check) => check.status !== 'skip').map((check) => String(check.id)));
  const unjudged = (entry: BaselineEntry): boolean =>
    entry.checks !== undefined && entry.checks.length > 0 && entry.checks.every((id) => !judged.has(id));
  const shown = ({ fingerprint, title }: BaselineEntry): { fingerprint: string; title: string } => ({
    fingerprint,
    title,
  });
  const notJudged = unseen.filter(unjudged).map(shown);
  const renamed = renamedEntries(today, seen);
  return {
    file,
    new: found.filter((fingerprint) => !known.has(fingerprint)),
    known: found.filter((fingerprint) => known.has(fingerprint)),
    fixed: unseen.filter((entry) => !unjudged(entry)).map(shown),
    ...(notJudged.length > 0 ? { unjudged: notJudged } : {}),
    ...(renamed.length > 0 ? { renamed } : {}),
  };
}

/** The entries listed under a retired fingerprint whose finding this run saw under a current one. */
function renamedEntries(
  today: ReadonlyMap<BaselineEntry, readonly string[]>,
  seen: ReadonlySet<string>,
): { fingerprint: string; current: string[] }[] {
  const renamed: { fingerprint: string; current: string[] }[] = [];
  for (const [{ fingerprint }, prints] of today) {
    const current = prints.filter((print) => print !== fingerprint && seen.has(print));
    if (current.length > 0 && !seen.has(fingerprint)) renamed.push({ fingerprint, current });
  }
  return renamed;
}
