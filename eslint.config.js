// Layer rules from docs: shared imports nothing of ours; the engine never imports
// electron, main, preload, cli or renderer; the renderer talks to the engine only
// through the contract in shared/. A wrong import fails CI instead of waiting for review.
import tseslint from 'typescript-eslint';

const restrict = (patterns, message) => ['error', { patterns: [{ group: patterns, message }] }];

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'build/**', 'test-results/**', 'playwright-report/**', 'scripts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(['**/electron/**', '**/renderer/**', '**/test/**', 'electron', 'node:*'], 'shared/ imports nothing of ours and no Node or Electron API: it runs in every process.'),
    },
  },
  {
    files: ['electron/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['electron', '**/main/**', '**/preload/**', '**/cli/**', '**/renderer/**', '**/test/**'],
        'The engine is plain Node: it must run in the app, the CLI and tests, so it never imports Electron or a host.',
      ),
    },
  },
  {
    files: ['electron/host/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['electron', '**/main/**', '**/preload/**', '**/cli/**', '**/renderer/**', '**/test/**'],
        'The engine host is plain Node: Electron\'s utility process, the dev/test WebSocket bridge and the tests run it unchanged.',
      ),
    },
  },
  {
    files: ['electron/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(['electron', '**/main/**', '**/preload/**', '**/renderer/**', '**/test/**'], 'The CLI hosts the engine without Electron.'),
    },
  },
  {
    files: ['electron/main/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(['**/renderer/**', '**/preload/**', '**/cli/**', '**/test/**'], 'main hosts the engine and brokers IPC; it does not reach into other hosts.'),
    },
  },
  {
    files: ['electron/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(['**/engine/**', '**/main/**', '**/renderer/**', '**/cli/**', 'node:*'], 'preload exposes exactly the contract from shared/, nothing else.'),
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict(['**/electron/**', 'electron', 'node:*', 'better-sqlite3', 'pdfjs-dist', 'ollama'], 'The renderer talks to the engine only through the contract in shared/.'),
    },
  },
);
