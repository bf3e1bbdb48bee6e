import { defineConfig } from 'vitest/config'

// Unit and integration tests run under plain Node: no Electron binary is needed (see docs/ARCHITECTURE.md).
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 30_000
  }
})
