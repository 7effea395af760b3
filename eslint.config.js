// @ts-check
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/** Libraries the server loads with their first use (docs/deployment.md#memory). */
const LOADED_ON_FIRST_USE = ['undici', 'ioredis', 'pinyin-pro', 'es-hangul', 'wanakana', 'fast-xml-parser', '@marcbachmann/cel-js'];

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
    // Limits that hold by themselves (docs/architecture.md#how-we-keep-the-house; test/lint-config.test.ts checks them).
    // A file over 260 lines of code has more than one job: split it along its seams.
    // The benches too: bench/webhooks.ts had grown to 974 lines outside the rule.
    files: ['src/**/*.ts', 'web/**/*.ts', 'packages/**/*.ts', 'packages/**/*.mjs', 'scripts/**/*.ts', 'scripts/**/*.mjs', 'bench/**/*.ts'],
    rules: { 'max-lines': ['error', { max: 260, skipBlankLines: true, skipComments: true }] },
  },
  {
    // No import cycles in the server: a cycle hides which module is the lower layer. The rule follows imports that
    // run; type-only ones, erased by tsc, it skips (propose <-> send-transaction was such a cycle: keep types apart too).
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    // The plugin's TypeScript settings (which parser reads .ts files), resolving `./x.js` to `./x.ts` as tsc does.
    settings: { 'import-x/parsers': importX.flatConfigs.typescript.settings['import-x/parsers'], 'import-x/resolver-next': [createTypeScriptImportResolver()] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Libraries only some deployments or requests use are loaded on first use (src/on-first-use.ts, issue 55): a
    // static import would put them back in every process's heap. Their types may still be imported.
    files: ['src/**/*.ts'],
    ignores: ['src/http/auth/redis-rate-counter.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { paths: LOADED_ON_FIRST_USE.map((name) => ({ name, allowTypeImports: true, message: 'load it with onFirstUse (src/on-first-use.ts): it stays out of the heap until used' })) }],
    },
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
