/**
 * Just enough XML writing for junit.xml. A library (xmlbuilder2) would add a DOM implementation and
 * four packages for what is two functions here; the property that matters, valid XML 1.0 for any
 * input, is pinned by tests that parse the output with a real XML parser.
 */

// Everything XML 1.0's Char production excludes: C0 controls other than tab, newline and carriage
// return, lone surrogates, and U+FFFE/U+FFFF.
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const NOT_XML_CHAR = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/gu;

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // Kept as references so attribute-value normalisation and line-end handling leave them intact.
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** `text` without the characters XML 1.0 forbids. */
export function xmlSafe(text: string): string {
  return text.replace(NOT_XML_CHAR, '');
}

/** `text` made safe for XML character data and attribute values: forbidden characters removed, markup escaped. */
export function escapeXml(text: string): string {
  return xmlSafe(text).replace(/[&<>"'\t\n\r]/g, (char) => ENTITIES[char] ?? char);
}

/** `text` for element content, where newlines and tabs may stay literal. */
export function escapeXmlText(text: string): string {
  return xmlSafe(text).replace(/[&<>\r]/g, (char) => ENTITIES[char] ?? char);
}

/** An element with escaped attributes; `children` is already-escaped XML (or undefined for an empty element). */
export function xmlElement(name: string, attributes: Record<string, string | number>, children?: string): string {
  const attrs = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${escapeXml(String(value))}"`)
    .join('');
  return children === undefined ? `<${name}${attrs}/>` : `<${name}${attrs}>${children}</${name}>`;
}
