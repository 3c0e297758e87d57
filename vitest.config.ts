import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Examples written for users import 'plantstore': inside the repo that is the source entry.
  resolve: {
    alias: [{ find: /^plantstore$/, replacement: fileURLToPath(new URL('./src/index.ts', import.meta.url)) }],
  },
  test: {
    include: ['src/**/*.test.ts', 'suites/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
