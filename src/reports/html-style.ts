/** The inline stylesheet of report.html: the file must open from a CI artifact with no other request. */
export const HTML_STYLE = `
:root { color-scheme: light dark; --pass: #1a7f37; --fail: #cf222e; --warn: #9a6700; --skip: #6e7781; --line: #d0d7de; }
/* Text from the target may be one long word (a generated tag, base64): it breaks rather than run off the side. */
body { font: 15px/1.5 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; overflow-wrap: break-word; }
h1 { margin-bottom: 0.25rem; }
dl.run { display: grid; grid-template-columns: max-content 1fr; gap: 0.1rem 1rem; }
dl.run dt { font-weight: 600; }
dl.run dd { margin: 0; overflow-wrap: anywhere; }
/* A table wider than a phone scrolls on its own; the page never runs off the side. */
.wide { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.first { overflow-wrap: anywhere; }
.status { font-weight: 700; font-family: ui-monospace, monospace; }
.pass .status, .status.pass { color: var(--pass); }
.fail .status, .status.fail { color: var(--fail); }
.warn .status, .status.warn { color: var(--warn); }
.skip .status, .status.skip { color: var(--skip); }
.verdict { font-size: 1.3rem; font-weight: 700; }
.verdict.fail { color: var(--fail); }
.verdict.pass { color: var(--pass); }
.verdict.warn { color: var(--warn); }
section.check { border-top: 2px solid var(--line); margin-top: 2rem; }
article.failure { border-left: 4px solid var(--fail); padding-left: 1rem; margin: 1rem 0; }
section.warn article.failure { border-left-color: var(--warn); }
pre { background: rgba(127, 127, 127, 0.12); padding: 0.6rem; overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; }
.rule { font-style: italic; }
`;
