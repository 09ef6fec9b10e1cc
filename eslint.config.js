// Flat config: typescript-eslint's type-checked recommended rules over every source folder.
// Type information comes from the project service: each file is checked with the tsconfig that
// includes it (tsconfig.json for the server and tests, web/tsconfig.json for the browser client,
// whose DOM lib the server's tsconfig lacks). Plain JavaScript files (this config, build and
// health-check scripts) belong to no tsconfig: they get the untyped rules only.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import i18next from 'eslint-plugin-i18next';
import regexp from 'eslint-plugin-regexp';
import surfaces from './lint/surfaces-plugin.js';

export default tseslint.config(
  // gateways/grpc/gen and web/src/api/openapi.gen.ts: generated at build time (infra/build-proto.sh, infra/build-web.sh).
  { ignores: ['dist/**', 'node_modules/**', '.svc/**', 'gateways/grpc/gen/**', 'web/src/api/openapi.gen.*', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
      // An async server leaks failures through promises nobody awaits: these are on in the
      // recommended set already; named here so that they stay on if the base set changes.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/require-await': 'error',
      // Passing on a rejection reason as it came (`(err: unknown) => reject(err)`) is allowed:
      // what it catches is a literal or a plain object made up here.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // A switch over a union without a default names every member: a new member (setting kind,
      // frame, event) is then a lint error at each such switch. A switch with a default says on
      // purpose that the other members fall there (most frame and event dispatchers handle a few
      // kinds and ignore the rest), so a default counts as exhaustive.
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // A regular expression that backtracks is a denial of service waiting for its input: one
    // 100,000-character subtitle line froze a gateway for seconds, and a crafted SDP line would
    // freeze a listener's tab. Every expression in shipped code (server and web client) must run
    // in linear time on any input; a pattern these rules cannot prove linear is rewritten (often
    // as a small scanner), not excused.
    files: ['**/*.{ts,tsx}'],
    ignores: ['test/**', 'bench/**'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    // No file reaches itself through imports, types included: a circle has no bottom floor to
    // read first (lint/import-graph.js reads the graph once per run).
    files: ['**/*.{ts,tsx}'],
    plugins: { surfaces },
    rules: { 'surfaces/no-import-cycle': 'error' },
  },
  {
    // Each top-level area is entered through its index.ts (docs/2026-11-29-public-surfaces.md):
    // what an area offers is one file to read, and its inside can move without touching its
    // users. contracts/ is open whole: every file there is a schema some party reads. Tests and
    // benchmarks reach inside on purpose (they measure units); the web client has its own fence.
    // `entries` are second, light entries for the CLI, which must not load a whole area to
    // check a password or talk to the management endpoint (accounts/index.ts alone takes 4 s), and
    // for the operator endpoints every role serves (server/operator-endpoints.ts), and the actors'
    // client side without the room's code (actors/client.ts).
    files: ['**/*.ts'],
    ignores: ['test/**', 'bench/**', 'web/**'],
    plugins: { surfaces },
    rules: {
      'surfaces/public-entry': [
        'error',
        { open: ['contracts'], entries: ['accounts/password-policy.ts', 'gateways/management/client.ts', 'gateways/management/server.ts', 'gateways/http/metrics-listener.ts', 'actors/client.ts'] },
      ],
    },
  },
  {
    // Plain scripts that benchmarks load into Chromium pages as they are.
    files: ['bench/**/page.mjs'],
    languageOptions: { globals: globals.browser },
  },
  {
    // The browser client: DOM globals, and no Node built-ins (they would not exist in the page).
    // It imports its own files and the contracts, nothing else of the repository: an allow-list,
    // so a server folder added later is fenced off without anyone remembering to list it.
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { surfaces },
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^node:', message: 'the web client runs in a browser: no Node built-ins' }] }],
      'surfaces/allowed-areas': ['error', { allow: ['web', 'contracts'] }],
    },
  },
  {
    // The web client speaks its reader's language: every word a view shows (text, and the
    // attributes a person reads or hears) comes from the catalogue (web/src/i18n), so a literal
    // left in a view is an error here, before it is an English word on a Chinese page.
    files: ['web/src/**/*.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': { include: ['aria-label', 'aria-description', 'aria-valuetext', 'aria-roledescription', 'title', 'placeholder', 'alt', 'label'], exclude: [] },
          // Punctuation, numbers, symbols and emoji only (the plugin's defaults, with typographic marks); and the product's name.
          words: { exclude: ['[0-9!-/:-@[-`{-~\\s—–·…×•✓✕▲▼←→“”‘’]+', '\\p{Emoji}+', 'svc'] },
        },
      ],
    },
  },
  {
    // The web client's sync engine is pure: compiled here for unit tests and bundled by Vite for
    // the browser, it imports only its own folder (types from the server's contracts are free).
    files: ['web/src/sync/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(?!\\./[a-z-]+\\.js$)', message: 'web/src/sync imports only ./<file>.js of its own folder', allowTypeImports: true }] },
      ],
    },
  },
  {
    // contracts/ is the leaf every party reads (server, web client, CLI): zod and its own files only.
    files: ['contracts/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!(zod|\\./.*)$)', message: 'contracts/ imports only zod and contracts/' }] }] },
  },
  {
    files: ['contracts/*/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!(zod|\\./.*|\\.\\./(?!\\.\\./).*)$)', message: 'contracts/ imports only zod and contracts/' }] }] },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox: it may import @temporalio/workflow,
    // @temporalio/common and the workflow contracts beside it, nothing with I/O (Node built-ins,
    // database or NATS clients, the worker or client SDKs, the rest of the server). Types are free.
    files: [
      'workflows/sandbox.ts',
      'workflows/*/workflow.ts',
      'workflows/*/messages.ts',
      'workflows/decision-gate.ts',
      'workflows/review-messages.ts',
      'workflows/review-metrics.ts',
      'workflows/ids.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(?!(@temporalio/(workflow|common)|\\.\\.?/(ids|review-messages|review-metrics|decision-gate)\\.js|(\\.\\./)+contracts/review\\.js|\\./messages\\.js|' +
                '\\./(registration-review|room-review)/workflow\\.js|\\.\\./errors/index\\.js)$)',
              message: 'workflow code imports only @temporalio/workflow, @temporalio/common and the sandbox-safe workflow files',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
);
