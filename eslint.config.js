import fs from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const webFeatures = fs.readdirSync('apps/web/src/features');

/**
 * The server's modules, lowest first (docs/architecture.md): a module may import only those before it.
 * Top-level composition (app.ts, server.ts, main.ts, cli/, seed/, testing/) may import every module.
 */
const serverModules = ['platform', 'identity', 'content', 'organisation', 'identifiers', 'insights'];

/** `no-restricted-imports` with one message per forbidden pattern (regular expressions on the import). */
/** The platform's own decorators, named by the thing they are (app.ts, platform/plugins, platform/sms). */
const PLATFORM_DECORATORS = [
  'config',
  'database',
  'caches',
  'outbound',
  'smsSender',
  'privateFileStorage',
  'pageSecurityHeaders',
  'badRequestPage',
  'pageRendererState',
  'metrics',
];

const forbid = (...patterns) => ['error', { patterns: patterns.map(([regex, message]) => ({ regex, message })) }];
const NO_APP = ['^@/app/', 'Features and shared web code do not import the app shell.'];

// Dependencies flow one way (docs/architecture.md): shared code → features → app on the web, where a
// feature never imports another; on the server a module imports only the modules below it, and lib nothing.
const boundaries = [
  // Tests may reach across (they render the app around a page).
  ...webFeatures.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    ignores: ['**/__tests__/**'],
    rules: {
      'no-restricted-imports': forbid(
        [
          `^@/features/(?!${feature}/)`,
          'A feature does not import another feature: move what both need to src/components, src/lib or src/api.',
        ],
        ['^\\.\\./\\.\\./', 'A feature imports its own files relatively and shared code through @/.'],
        NO_APP,
      ),
    },
  })),
  {
    files: ['apps/web/src/{components,lib,api,stores,config,hooks}/**/*.{ts,tsx}'],
    ignores: ['**/__tests__/**'],
    rules: { 'no-restricted-imports': forbid(['^@/features/', 'Shared web code does not import features.'], NO_APP) },
  },
  ...serverModules.map((module, rank) => {
    const above = serverModules.slice(rank + 1);
    return {
      files: [`apps/server/src/${module}/**/*.ts`],
      ignores: ['**/__tests__/**'],
      rules: {
        'no-restricted-imports': forbid(
          ...(above.length
            ? [
                [
                  `^(\\.\\./)+(${above.join('|')})/`,
                  `${module} may import only ${serverModules.slice(0, rank).join(', ') || 'packages'}: move what both need down, or let the upper module provide it at registration.`,
                ],
              ]
            : []),
          ['^(\\.\\./)+(app|server|main)\\.js$|^(\\.\\./)+(cli|seed|testing)/', 'Modules do not import the composition above them.'],
        ),
      },
    };
  }),
  {
    // The zones read import declarations: a module imports other server files statically, so lint sees every edge.
    files: serverModules.map((module) => `apps/server/src/${module}/**/*.ts`),
    ignores: ['**/__tests__/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          // A package may be loaded when first needed (`await import('exceljs')`); a project path may not.
          selector: 'ImportExpression > Literal[value=/^(\\.|\\/|@portal\\/)/], ImportExpression > TemplateLiteral',
          message: 'Import server files statically (the module zones check import declarations).',
        },
        {
          // One naming rule for what `app.<name>` holds (docs/architecture.md, "Rules lint enforces").
          selector: `CallExpression[callee.property.name='decorate'][arguments.0.value!=/^(\\w+(Repository|Service)|authenticate|require[A-Z]\\w*|${PLATFORM_DECORATORS.join('|')})$/]`,
          message:
            'Name a decorator by what it is: <what>Repository (its SQL), <what>Service (its rules), a guard by what it requires (authenticate, require…), or one of the platform’s own (config, database, caches…).',
        },
      ],
    },
  },
  {
    files: ['apps/server/src/platform/lib/**/*.ts'],
    ignores: ['**/__tests__/**'],
    rules: { 'no-restricted-imports': forbid(['^\\.\\./', 'lib imports nothing above it.']) },
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-ssr/**', '**/node_modules/**', 'data/**', 'reports/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: [
      'apps/server/**/*.ts',
      'packages/shared/**/*.ts',
      'scripts/**/*.mjs',
      '*.config.{js,ts}',
      'apps/web/e2e/**/*.ts',
      'apps/web/vite.config.ts',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  ...boundaries,
  {
    // Any import cycle between the server's files fails lint (type-only imports are erased and do not count).
    files: ['apps/server/src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
