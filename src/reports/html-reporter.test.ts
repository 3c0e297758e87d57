/* eslint-disable no-control-regex -- these tests look for control characters in the output */
import { describe, expect, it } from 'vitest';
import { escapeHtml, renderHtmlReport } from './html-reporter.js';
import { passingReport, sampleReport } from '../fixtures/sample-reports.js';

describe('report.html', () => {
  const html = renderHtmlReport(sampleReport());

  it('escapes every piece of content: a <script> in a response body stays text', () => {
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;html&gt;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('skipped with --skip-check repeated-id &lt;b&gt;');
  });

  it('loads nothing from anywhere and needs no script', () => {
    expect(html).not.toMatch(/\b(src|href)="(?!#)/i);
    expect(html).not.toMatch(/url\(|@import/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
    expect(html).toContain('<style>');
  });

  it('shows control characters and lone surrogates instead of writing them raw', () => {
    expect(html).toContain('NUL&lt;U+0000&gt;');
    expect(html).toContain('lone-high&lt;U+D800&gt;');
    expect(html).not.toMatch(/[\u0000\u0001\u001b\ud800-\udfff\ufffe]/u);
  });

  it('has the verdict, the seed and a summary row per check linking to its section', () => {
    expect(html).toContain('<p class="verdict fail">NOT CONFORMANT</p>');
    expect(html).toContain('<dd>42 (replay: plantstore test --seed 42)</dd>');
    expect(html).toContain('<dd>2 failed, 1 warned, 1 passed, 1 skipped</dd>');
    for (let index = 1; index <= 5; index++) {
      expect(html).toContain(`<a href="#check-${index}">`);
      expect(html).toContain(`id="check-${index}"`);
    }
  });

  it('shows each counterexample with reason, request, response, curl and replay', () => {
    const section = html.slice(html.indexOf('id="check-1"'), html.indexOf('id="check-2"'));
    expect(section).toContain('Counterexample 1 of 2 <small>(after 7 shrink steps)</small>');
    expect(section).toContain('Counterexample 2 of 2 <small>(after 1 shrink step)</small>');
    expect(section).toContain('<pre>POST http://127.0.0.1:4010/plants\nauthorization: Bearer $PLANTSTORE_TOKEN');
    expect(section).toContain('<pre>HTTP 500 after 12 ms');
    expect(section).toContain('<h4>curl</h4>\n<pre>curl -sS -X POST &#39;http://127.0.0.1:4010/plants&#39;');
    expect(section).toContain('<pre>plantstore test --seed 42 --replay positive-acceptance:17:0.3</pre>');
  });

  it('shows a case of several requests as one curl command a line, ready to paste', () => {
    const report = sampleReport();
    const [first, ...others] = report.checks;
    const curl = `curl -sS 'http://127.0.0.1:4010/plants' --data-binary '{"id":1}'\ncurl -sS 'http://127.0.0.1:4010/plants'`;
    const failures = first ? [{ ...first.failures[0]!, curl }] : [];
    const rendered = renderHtmlReport({ ...report, checks: [{ ...first!, failures }, ...others] });
    expect(rendered).toContain(`<pre>${escapeHtml(curl)}</pre>`);
  });

  it('says so when the transport failed or the runner cut a body', () => {
    expect(html).toContain('no HTTP response (timeout) after 5000 ms');
    expect(html).toContain('body cut short by the runner');
  });

  it('calls a run without failures conformant', () => {
    expect(renderHtmlReport(passingReport())).toContain('<p class="verdict pass">CONFORMANT</p>');
  });
});

describe('escapeHtml', () => {
  it('escapes the five characters that matter in content and attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;',
    );
  });
});

describe('report.html of a run without a verdict', () => {
  it('says INCOMPLETE, not CONFORMANT, when planned cases went unsent and nothing failed (exit 2)', () => {
    const passing = passingReport();
    const report = { ...passing, verdict: 'incomplete' as const, summary: { ...passing.summary, unsent: 40 } };
    const html = renderHtmlReport(report);
    expect(html).toContain('<p class="verdict warn">INCOMPLETE</p>');
    expect(html).not.toContain('>CONFORMANT<');
    expect(html).toContain('<title>plantstore test: INCOMPLETE:');
  });

  it('says INCOMPLETE when no check judged anything', () => {
    const passing = passingReport();
    const checks = passing.checks.map((check) => ({ ...check, status: 'skip' as const, failures: [] }));
    expect(renderHtmlReport({ ...passing, checks })).toContain('<p class="verdict warn">INCOMPLETE</p>');
  });
});

describe('report.html of a run under a baseline', () => {
  const underBaseline = (fresh: string[]) =>
    sampleReport({ baseline: { file: 'b.json', new: fresh, known: ['0123456789abcdef'], fixed: [] } });

  it('counts the new findings in the banner as the console does, in the colour of a failed job when there are some', () => {
    const html = renderHtmlReport(underBaseline(['fedcba9876543210']));
    expect(html).toContain('<p class="verdict fail">NOT CONFORMANT, 1 new finding</p>');
    expect(html).toContain('<title>plantstore test: NOT CONFORMANT, 1 new finding:');
  });

  it('says 0 new findings, not in the colour of a failed job, when the baseline lists every finding (exit 0)', () => {
    const html = renderHtmlReport(underBaseline([]));
    expect(html).toContain('<p class="verdict warn">NOT CONFORMANT, 0 new findings</p>');
    expect(html).not.toContain('verdict fail');
  });
});

describe('report.html of plantstore proxy', () => {
  it('names the proxy and the upstream, and offers no seed to replay (the traffic was not generated)', () => {
    const html = renderHtmlReport({ ...sampleReport(), source: 'proxy', seed: 0 });
    expect(html).toContain('<title>plantstore proxy: NOT CONFORMANT:');
    expect(html).toContain('<h1>plantstore proxy report</h1>');
    expect(html).toContain('<dt>Upstream</dt>');
    expect(html).not.toContain('<dt>Seed</dt>');
    expect(html).toContain('<dt>Exchanges</dt>');
  });
});
