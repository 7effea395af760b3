// @ts-check
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'scratch/**', 'bench/results/**', 'drizzle/**', 'packages/*/dist/**', 'packages/*/.build-*/**', 'packages/sdk/src/generated/openapi.ts'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      // Off for tests, which read JSON answers loosely; on for everything that ships (below).
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['src/**/*.ts', 'web/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'error' },
  },
  {
    // The admin console runs in the browser and talks to the server over HTTP only.
    files: ['web/admin/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', '**/src/**', '../../*'], message: 'the console is browser code: no Node modules, no server modules (use /admin/api)' }] }],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'require'],
    },
  },
  {
    // Domain logic does not know the HTTP framework exists.
    files: ['src/domain/**/*.ts', 'src/db/**/*.ts', 'src/crypto/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['fastify', '@fastify/*', '**/http/**'], message: 'domain, db and crypto must not import the HTTP layer' }] }],
    },
  },
);
