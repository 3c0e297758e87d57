import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { renderJunitReport } from './junit-reporter.js';
import { NASTY, passingReport, sampleReport } from '../fixtures/sample-reports.js';
import { escapeXml, escapeXmlText, xmlSafe } from './xml.js';

interface XmlNode {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly children: XmlNode[];
  text: string;
}

/** Parses with saxes, a strict XML 1.0 parser: any well-formedness or character error throws. */
function parseStrict(xml: string): XmlNode {
  const parser = new SaxesParser();
  const root: XmlNode = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    const node: XmlNode = { name: tag.name, attributes: tag.attributes, children: [], text: '' };
    stack.at(-1)!.children.push(node);
    stack.push(node);
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (text) => (stack.at(-1)!.text += text));
  parser.write(xml).close();
  return root.children[0]!;
}

function childrenNamed(node: XmlNode, name: string): XmlNode[] {
  return node.children.filter((child) => child.name === name);
}

// Every code unit, including lone surrogates, and astral characters.
const anyText = fc.string({
  unit: fc.oneof(
    fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
    fc.integer({ min: 0x10000, max: 0x10ffff }).map((point) => String.fromCodePoint(point)),
    fc.constantFrom('<', '&', ']]>', '"', "'", '\u0000', '\r\n'),
  ),
  maxLength: 40,
});

describe('xml escaping', () => {
  it('gives well-formed XML that reads back as the text without forbidden characters, for any text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const node = parseStrict(`<a b="${escapeXml(text)}">${escapeXmlText(text)}</a>`);
        expect(node.attributes.b).toBe(xmlSafe(text));
        expect(node.text).toBe(xmlSafe(text));
      }),
      { numRuns: 500 },
    );
  });

  it('removes NUL, other C0 controls, lone surrogates and U+FFFE/FFFF, and keeps tab, newline and astral characters', () => {
    expect(xmlSafe('a\u0000\u0001\u000b\udfff\ud800\ufffe\uffff\t\n😀b')).toBe('a\t\n😀b');
  });
});

describe('junit.xml', () => {
  const xml = renderJunitReport(sampleReport());
  const suites = parseStrict(xml);
  const suite = childrenNamed(suites, 'testsuite')[0]!;
  const cases = childrenNamed(suite, 'testcase');

  it('is valid XML 1.0 even with control characters, lone surrogates and markup in the report', () => {
    expect(suites.name).toBe('testsuites');
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  });

  it('has one testsuite with the counts CI systems read', () => {
    expect(childrenNamed(suites, 'testsuite')).toHaveLength(1);
    for (const node of [suites, suite]) {
      expect(node.attributes).toMatchObject({ tests: '5', failures: '2', errors: '0', skipped: '1', time: '3.210' });
    }
    expect(suite.attributes.timestamp).toBe('2026-01-01T00:00:00.000Z');
  });

  it('has one testcase per check, classname plantstore, named by id and title', () => {
    expect(cases.map((c) => c.attributes.classname)).toEqual(Array(5).fill('plantstore'));
    expect(cases.map((c) => c.attributes.name)).toEqual([
      'positive-acceptance: Valid plants are accepted',
      'response-schema: Responses match their schema',
      'echo: The Plant echoes name and tag',
      'repeated-id: A repeated id gets a documented answer',
      'no-server-error: No server errors',
    ]);
  });

  it('gives a failed check a failure with the reason as message and the counterexamples in the body', () => {
    const failure = childrenNamed(cases[0]!, 'failure');
    expect(failure).toHaveLength(1);
    expect(failure[0]!.attributes.message).toContain('Expected 200, got 500 for name');
    expect(failure[0]!.attributes.message).toContain('<script>alert(1)</script>');
    const body = failure[0]!.text;
    expect(body).toContain('Counterexample 1 of 2');
    expect(body).toContain('Counterexample 2 of 2');
    expect(body).toContain('POST http://127.0.0.1:4010/plants');
    expect(body).toContain('HTTP 500');
    expect(body).toContain('<html><script>alert("x")</script>');
    expect(body).toContain("curl: curl -sS -X POST 'http://127.0.0.1:4010/plants'");
    expect(body).toContain('replay: plantstore test --seed 42 --replay positive-acceptance:17:0.3');
    expect(body).toContain('NUL<U+0000>');
  });

  it('marks a skipped check skipped, with its reason', () => {
    const skipped = childrenNamed(cases[3]!, 'skipped');
    expect(skipped[0]?.attributes.message).toBe('skipped with --skip-check repeated-id <b>');
    expect(childrenNamed(cases[3]!, 'failure')).toHaveLength(0);
  });

  it('passes a warned check and puts the warning in system-out', () => {
    expect(childrenNamed(cases[2]!, 'failure')).toHaveLength(0);
    const out = childrenNamed(cases[2]!, 'system-out')[0]!.text;
    expect(out).toContain('WARNING (not a failure of the contract)');
    expect(out).toContain('trailing whitespace trimmed');
  });

  it('leaves a passing check empty and keeps run facts and notes', () => {
    expect(cases[1]!.children).toHaveLength(0);
    const properties = childrenNamed(childrenNamed(suite, 'properties')[0]!, 'property');
    expect(Object.fromEntries(properties.map((p) => [p.attributes.name, p.attributes.value]))).toEqual({
      target: 'http://127.0.0.1:4010',
      embedded: 'false',
      seed: '42',
      tool: 'plantstore 0.1.0',
    });
    expect(childrenNamed(suite, 'system-out')[0]!.text).toContain('note: The overall budget ran out');
  });

  it('counts a conformant run as all passing', () => {
    const suitesOfPass = parseStrict(renderJunitReport(passingReport()));
    expect(suitesOfPass.attributes).toMatchObject({ tests: '1', failures: '0', skipped: '0' });
  });

  it('stays valid when every string of the report is hostile', () => {
    const hostile = sampleReport({
      target: { baseUrl: `http://x/${NASTY}`, embedded: true },
      startedAt: NASTY,
      checks: sampleReport().checks.map((check) => ({
        ...check,
        id: `${check.id}${NASTY}`,
        title: NASTY,
        rule: NASTY,
      })),
    });
    expect(() => parseStrict(renderJunitReport(hostile))).not.toThrow();
  });
});

describe('a run that could not judge the target', () => {
  const unjudged = (code: string, setupsDoing = true) => ({
    ...sampleReport(),
    verdict: 'could-not-judge' as const,
    couldNotJudge: {
      code,
      reason: 'Every valid NewPlant was answered 401: check the token.',
      options: ['token'],
      setupsDoing,
    },
  });
  const failures = (xml: string): string[] => [...xml.matchAll(/<failure [^>]*type="([^"]+)"/g)].map((m) => m[1]!);

  it('fails one testcase, the reason, and skips the checks its failed answers fail (the setup is to blame)', () => {
    const report = unjudged('credential-refused');
    expect(report.checks.some((check) => check.status === 'fail')).toBe(true);
    const xml = renderJunitReport(report);
    expect(failures(xml)).toEqual(['could-not-judge']);
    const root = parseStrict(xml);
    expect(root.attributes.failures).toBe('1');
    const skipped = childrenNamed(root, 'testsuite')
      .flatMap((suite) => childrenNamed(suite, 'testcase'))
      .flatMap((testcase) => childrenNamed(testcase, 'skipped'));
    expect(
      skipped.some((node) =>
        /^not judged: the run could not judge the target \(credential-refused\)/.test(node.attributes.message ?? ''),
      ),
    ).toBe(true);
    // The counterexamples are still there to read.
    expect(xml).toContain('<system-out>');
  });

  it('writes the reason as the failure text too, which GitLab shows as the output and Jenkins as the trace', () => {
    const root = parseStrict(renderJunitReport(unjudged('credential-refused')));
    const [findings] = childrenNamed(root, 'testsuite');
    const failure = childrenNamed(childrenNamed(findings!, 'testcase')[0]!, 'failure')[0]!;
    expect(failure.attributes.type).toBe('could-not-judge');
    expect(failure.text).toContain('Every valid NewPlant was answered 401: check the token.');
  });

  it('keeps the failures of a run whose valid ids were all taken, or that got no answer: as report.json does', () => {
    for (const code of ['ids-taken', 'no-answer']) {
      const xml = renderJunitReport(unjudged(code, false));
      expect(failures(xml).length, code).toBeGreaterThan(1);
    }
  });
});

describe('a run without a verdict (incomplete)', () => {
  it('fails one testcase saying so, so that a JUnit view is not green on exit 2', () => {
    const passing = passingReport();
    const report = {
      ...passing,
      verdict: 'incomplete' as const,
      summary: { ...passing.summary, unsent: 40 },
      notes: ['The budget ran out: raise --budget.'],
    };
    const root = parseStrict(renderJunitReport(report));
    expect(root.attributes.failures).toBe('1');
    const [first] = childrenNamed(root, 'testsuite');
    const testcase = childrenNamed(first!, 'testcase')[0]!;
    expect(testcase.attributes.name).toBe('incomplete: no verdict');
    const failure = childrenNamed(testcase, 'failure')[0]!;
    expect(failure.attributes.type).toBe('incomplete');
    expect(failure.attributes.message).toMatch(/40 planned cases were not sent or not judged/);
    expect(failure.text).toContain('The budget ran out: raise --budget.');
  });

  it('leaves a conformant run without that testcase', () => {
    expect(renderJunitReport(passingReport())).not.toContain('incomplete');
  });
});
