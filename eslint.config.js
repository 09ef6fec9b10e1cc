// Flat config: typescript-eslint's recommended rules over every source folder.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // gateways/grpc/gen and web/src/api/openapi.gen.ts: generated at build time (infra/build-proto.sh, infra/build-web.sh).
  { ignores: ['dist/**', 'node_modules/**', '.svc/**', 'gateways/grpc/gen/**', 'web/src/api/openapi.gen.*', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The browser client: DOM globals, and no Node built-ins (they would not exist in the page).
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: 'the web client runs in a browser: no Node built-ins' },
            {
              regex: '^(\\.\\./)+(actors|gateways|workflows|accounts|errors|settings|store|media|config|server|cli|notifications|observability)/',
              message: 'the web client imports the contracts (contracts/), never server folders',
            },
          ],
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
      'workflows/index.ts',
      'workflows/*/workflow.ts',
      'workflows/*/messages.ts',
      'workflows/decision-gate.ts',
      'workflows/review-messages.ts',
      'workflows/ids.ts',
    ],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(?!(@temporalio/(workflow|common)|\\.\\.?/(ids|review-messages|decision-gate)\\.js|(\\.\\./)+contracts/review\\.js|\\./messages\\.js|' +
                '\\./(registration-review|room-review)/workflow\\.js|\\.\\./errors/app-error\\.js)$)',
              message: 'workflow code imports only @temporalio/workflow, @temporalio/common and the sandbox-safe workflow files',
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
);
