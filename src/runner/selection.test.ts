import { describe, expect, it } from 'vitest';
import { writeFileSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILT_IN_SUITES } from '../../suites/index.js';
import { DEFAULT_SPEC_PATH, loadContract } from '../contract/index.js';
import { selectChecks } from './selection.js';

/** The bundled document with its security requirement and scheme taken out. */
function withoutSecurity(): string {
  return readFileSync(DEFAULT_SPEC_PATH, 'utf8')
    .replace('security:\n  - bearerAuth: []\n', '')
    .replace(/ {2}securitySchemes:\n {4}bearerAuth:\n {6}type: http\n {6}scheme: bearer\n/, '');
}

describe('selectChecks', () => {
  it('runs auth-enforced on a document that asks for no credential (it judges that none is demanded)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-selection-'));
    try {
      const spec = join(dir, 'no-auth.yaml');
      writeFileSync(spec, withoutSecurity());
      const contract = await loadContract(spec);
      expect(contract.auth).toBe('none');
      const selection = selectChecks(BUILT_IN_SUITES, [], [], contract);
      expect(selection.ordered.every((entry) => 'check' in entry)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('skips integer-spellings on a document whose id is a string', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'plantstore-selection-'));
    try {
      const spec = join(dir, 'string-id.yaml');
      const text = readFileSync(DEFAULT_SPEC_PATH, 'utf8');
      writeFileSync(
        spec,
        text.replace('type: integer\n              format: int64', 'type: string\n              format: int64'),
      );
      const selection = selectChecks(BUILT_IN_SUITES, [], [], await loadContract(spec));
      const skipped = selection.ordered.flatMap((entry) => ('result' in entry ? [entry.result] : []));
      expect(skipped.map((result) => result.id)).toEqual(['integer-spellings']);
      expect(skipped[0]?.skipReason).toMatch(/^Not applicable: the document's NewPlant has no integer id/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs every built-in check on the bundled document, which declares bearer authentication', async () => {
    const contract = await loadContract(DEFAULT_SPEC_PATH);
    const selection = selectChecks(BUILT_IN_SUITES, [], [], contract);
    expect(selection.ordered.every((entry) => 'check' in entry)).toBe(true);
  });
});
