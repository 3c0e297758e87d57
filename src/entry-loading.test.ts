import { describe, expect, it, vi } from 'vitest';

// Records whether anything in the module graph asks for Prism, and still hands it over when asked.
const prism = vi.hoisted(() => ({ loaded: false }));
vi.mock('@stoplight/prism-http', async (importOriginal) => {
  prism.loaded = true;
  return importOriginal();
});

describe('what the package entry loads', () => {
  it('does not load Prism on import, nor to run the conformance runner', async () => {
    const { runConformance } = await import('./index.js');
    expect(prism.loaded).toBe(false);
    const report = await runConformance({ runs: 1, seed: 3, checks: ['echo'] });
    expect(report.checks.find((check) => check.id === 'echo')?.status).toBe('pass');
    expect(prism.loaded).toBe(false);
  });

  it('loads Prism when a mock starts', async () => {
    const { createMockServer } = await import('./index.js');
    const mock = await createMockServer({ port: 0 });
    try {
      expect(prism.loaded).toBe(true);
    } finally {
      await mock.close();
    }
  });
});
