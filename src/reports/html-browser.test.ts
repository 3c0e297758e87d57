import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passingReport, sampleReport } from '../fixtures/sample-reports.js';
import type { Report } from '../runner/report.js';
import { renderHtmlReport } from './html-reporter.js';

const CHROMIUM = '/usr/bin/chromium';
const skipReason =
  !existsSync(CHROMIUM) && !process.env.CI
    ? `skipped: ${CHROMIUM} is missing (install it with: apt-get install -y chromium)`
    : undefined;

/** What a person opening report.html sees go wrong: console messages, and how far the page runs off sideways. */
async function open(browser: Browser, html: string, width: number): Promise<{ messages: string[]; overflow: number }> {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  const messages: string[] = [];
  page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => messages.push(String(error)));
  try {
    await page.setContent(html);
    // A string: the page's own globals, which this project's types (no DOM) do not know.
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    return { messages, overflow };
  } finally {
    await page.close();
  }
}

/** The sample run, its texts from the target one long word each: a generated tag has no space to break at. */
function withUnbrokenText(): Report {
  const word = 'sGVsbG8\\u0010'.repeat(30);
  const sample = sampleReport();
  const checks = sample.checks.map((check) => ({
    ...check,
    failures: check.failures.map((failure) => ({ ...failure, reason: `"tag" was sent as "${word}"`, defect: word })),
  }));
  return { ...sample, checks, notes: [word] };
}

describe.skipIf(skipReason !== undefined)(`report.html in Chromium ${skipReason ?? ''}`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens with no console message and never runs off the side, on a desktop or a phone', async () => {
    for (const report of [sampleReport(), passingReport(), withUnbrokenText()])
      for (const width of [1280, 390]) {
        const seen = await open(browser, renderHtmlReport(report), width);
        expect({ width, ...seen }).toEqual({ width, messages: [], overflow: 0 });
      }
  }, 60_000);
});
