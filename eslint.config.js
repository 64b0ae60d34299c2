import fs from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const webFeatures = fs.readdirSync('apps/web/src/features');
const server = 'apps/server/src';

/**
 * Dependencies flow one way (docs/architecture.md): shared code → features → app on the web, where a
 * feature never imports another; on the server lib imports nothing of the app, and plugins no feature.
 */
const boundaries = [
  ...webFeatures.map((feature) => ({
    target: `apps/web/src/features/${feature}`,
    from: 'apps/web/src/features',
    except: [`./${feature}`],
    message: 'A feature does not import another feature: move what both need to src/components, src/lib or src/api.',
  })),
  {
    target: 'apps/web/src/features',
    from: 'apps/web/src/app',
    message: 'Features do not import the app shell.',
  },
  {
    target: ['apps/web/src/components', 'apps/web/src/lib', 'apps/web/src/api', 'apps/web/src/stores', 'apps/web/src/config'],
    from: ['apps/web/src/features', 'apps/web/src/app'],
    message: 'Shared web code does not import features or the app shell.',
  },
  {
    target: `${server}/plugins`,
    from: `${server}/features`,
    message: 'Plugins do not import features: a feature exposes what plugins need as a decorator.',
  },
  {
    target: `${server}/lib`,
    from: [
      `${server}/features`,
      `${server}/plugins`,
      `${server}/db`,
      `${server}/cli`,
      `${server}/config.ts`,
      `${server}/app.ts`,
      `${server}/server.ts`,
    ],
    message: 'lib imports nothing above it.',
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
  {
    files: ['apps/**/*.{ts,tsx}'],
    ignores: ['**/__tests__/**', 'apps/web/e2e/**'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['apps/server/tsconfig.json', 'apps/web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: boundaries }] },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
