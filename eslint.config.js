// Layer rules from docs: shared imports nothing of ours; the engine never imports
// electron, main, preload, cli or renderer; the renderer talks to the engine only
// through the contract in shared/. A wrong import fails CI instead of waiting for review.
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const restrict = (patterns, message, ...more) => ['error', { patterns: [{ group: patterns, message }, ...more] }];

// Engine modules (pdf/, chunking/, llm/, store/...) meet only through their index.ts: a module's other files are
// its internals. These match `../<module>/<file>` from inside the engine and `engine/<module>/<file>` from a host.
const ENGINE_MODULE_INTERNALS = {
  regex: '^\\.\\./(?!\\.)[^/]+/(?!index$).+',
  message: "Import another engine module through its index.ts ('../store', not '../store/runs'): its other files are internals.",
};
const ENGINE_ROOT_INTERNALS = {
  regex: '^\\./[^/]+/(?!index$).+',
  message: "The engine's entry imports its modules through their index.ts ('./pipeline', not './pipeline/runner').",
};
const HOST_INTO_ENGINE_INTERNALS = {
  regex: '(^|/)engine/[^/]+/(?!index$).+',
  message: "Hosts use the engine's public surface: '../engine' or a module's index ('../engine/store'), never its internal files.",
};

// printed/ is what the document prints about itself, read by the stages (extract, merge, completeness, compare,
// reconcile, pipeline): it sits one floor below them and imports none, only util/ and rules/ (the ID patterns), which import
// no engine module. A stage's import there would let two stages reach each other through it again.
const PRINTED_FLOOR = {
  regex: '^\\.\\./(?!(util|rules)(/|$))[^./]',
  message:
    "printed/ is one floor below the stages: it imports only util/, rules/ and shared/, never a stage ('../extract', '../merge', '../completeness'...). Move what it needs down into printed/ instead.",
};

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
      'no-restricted-imports': restrict(
        ['**/electron/**', '**/renderer/**', '**/test/**', 'electron', 'node:*'],
        'shared/ imports nothing of ours and no Node or Electron API: it runs in every process.',
      ),
    },
  },
  {
    files: ['electron/engine/*/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['electron', '**/main/**', '**/preload/**', '**/cli/**', '**/renderer/**', '**/test/**'],
        'The engine is plain Node: it must run in the app, the CLI and tests, so it never imports Electron or a host.',
        ENGINE_MODULE_INTERNALS,
      ),
    },
  },
  {
    // After the engine block: a file matched by both takes this block's list, so it repeats the engine's rules.
    files: ['electron/engine/printed/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['electron', '**/main/**', '**/preload/**', '**/cli/**', '**/renderer/**', '**/test/**'],
        'The engine is plain Node: it must run in the app, the CLI and tests, so it never imports Electron or a host.',
        ENGINE_MODULE_INTERNALS,
        PRINTED_FLOOR,
      ),
    },
  },
  {
    files: ['electron/engine/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['electron', '**/main/**', '**/preload/**', '**/cli/**', '**/renderer/**', '**/test/**'],
        'The engine is plain Node: it must run in the app, the CLI and tests, so it never imports Electron or a host.',
        ENGINE_ROOT_INTERNALS,
      ),
    },
  },
  {
    files: ['electron/host/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['electron', '**/main/**', '**/preload/**', '**/cli/**', '**/renderer/**', '**/test/**'],
        "The engine host is plain Node: Electron's utility process, the dev/test WebSocket bridge and the tests run it unchanged.",
        HOST_INTO_ENGINE_INTERNALS,
      ),
    },
  },
  {
    files: ['electron/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['electron', '**/main/**', '**/preload/**', '**/renderer/**', '**/test/**'],
        'The CLI hosts the engine without Electron.',
        HOST_INTO_ENGINE_INTERNALS,
      ),
    },
  },
  {
    files: ['electron/main/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['**/renderer/**', '**/preload/**', '**/cli/**', '**/test/**'],
        'main hosts the engine and brokers IPC; it does not reach into other hosts.',
        HOST_INTO_ENGINE_INTERNALS,
      ),
    },
  },
  {
    // SQL lives in store modules (README, Layout): store/ and each module's store.ts. A statement anywhere else fails here.
    // A run's status changes only through the runner's rules (pipeline/runStatus.ts), never by the store call directly.
    files: ['electron/**/*.ts'],
    ignores: ['electron/engine/store/**', 'electron/engine/*/store.ts', 'electron/engine/pipeline/runStatus.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='setRunStatus']",
          message: "A run status changes through the runner's rules in pipeline/runStatus.ts (markRunning, markEnded, stopIdleRun, reopenRun).",
        },
        {
          selector: "CallExpression[callee.name='updateRunInput'] > ObjectExpression > Property[key.name='status']",
          message: "An input's status changes through the runner's rules in pipeline/runStatus.ts (startInput, endInput, stopInput, requeueInput).",
        },
        {
          selector: "CallExpression[callee.property.name='prepare']",
          message: "SQL belongs in a store module (store/ or the module's store.ts): call a named store function instead.",
        },
        {
          selector: "CallExpression[callee.property.name='exec'][callee.object.name=/^(db|database|store)$/]",
          message: "SQL belongs in a store module (store/ or the module's store.ts): call a named store function instead.",
        },
        {
          selector: "CallExpression[callee.property.name='exec'][callee.object.property.name='db']",
          message: "SQL belongs in a store module (store/ or the module's store.ts): call a named store function instead.",
        },
        {
          // store/statements.ts's cached prepare is a prepare too.
          selector: "CallExpression[callee.name='statement']",
          message: "SQL belongs in a store module (store/ or the module's store.ts): call a named store function instead.",
        },
      ],
    },
  },
  {
    files: ['electron/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['**/engine/**', '**/main/**', '**/renderer/**', '**/cli/**', 'node:*'],
        'preload exposes exactly the contract from shared/, nothing else.',
      ),
    },
  },
  {
    // The rules of hooks (and the React Compiler's checks that come with them) for every component and store.
    files: ['renderer/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    // Warnings, not errors, for now: the workspace's loading effects reset their state when their key changes, and the
    // run card reads the clock for its ETA. Both work; moving them to keyed children and a ticking store is open work.
    files: ['renderer/**/*.{ts,tsx}'],
    rules: { 'react-hooks/set-state-in-effect': 'warn', 'react-hooks/purity': 'warn' },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict(
        ['**/electron/**', 'electron', 'node:*', 'better-sqlite3', 'pdfjs-dist', 'pdfjs-dist/*', 'ollama'],
        'The renderer talks to the engine only through the contract in shared/.',
      ),
    },
  },
  {
    // Components call the engine only through the store (renderer/src/store): one place where the window's state
    // changes, so every view shows the same open document and no component holds engine data of its own.
    files: ['renderer/src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict(
        ['**/electron/**', 'electron', 'node:*', 'better-sqlite3', 'pdfjs-dist', 'pdfjs-dist/*', 'ollama'],
        'The renderer talks to the engine only through the contract in shared/.',
        {
          group: ['**/api', '**/api.ts'],
          message: 'Components call the engine through the store (store().…), never the transport: read state with useStore, act with its actions.',
        },
      ),
    },
  },
  {
    // The one renderer file that draws source pages: pdf.js only paints the bytes the host sent (documents.file); reading text stays in the engine.
    files: ['renderer/src/sourceCache.ts'],
    rules: {
      'no-restricted-imports': restrict(
        ['**/electron/**', 'electron', 'node:*', 'better-sqlite3', 'ollama'],
        'The renderer talks to the engine only through the contract in shared/.',
      ),
    },
  },
  // Layout is Prettier's (npm run format; lint checks it): no ESLint rule may disagree with it.
  prettier,
);
