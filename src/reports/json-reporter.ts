import type { Report } from '../runner/report.js';
import type { Reporter } from './reporter.js';
import { writeReportFile } from './report-file.js';

/** The file name the JSON reporter writes. */
export const JSON_REPORT_FILE = 'report.json';

/** `report.json`: exactly the Report value, pretty-printed (its shape is documented in the README). */
export function renderJsonReport(report: Report): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** The JSON reporter: writes `report.json` into `outDir` when the run ends. */
export function createJsonReporter(options: { readonly outDir: string }): Reporter {
  return {
    name: 'json',
    file: JSON_REPORT_FILE,
    onRunEnd: (report) => writeReportFile(options.outDir, JSON_REPORT_FILE, renderJsonReport(report)),
  };
}
