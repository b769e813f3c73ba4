import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const web = 'packages/web/src';
const features = readdirSync(new URL(`./${web}/features`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/*
 * The web's import zones, as in bulletproof-react: app/ composes features; a feature uses shared
 * code (api/, components/, config/, lib/) and never another feature or app/; shared code never
 * reaches up into a feature or app/. lib/testing/ is the exception: it renders the whole app.
 */
const webZones = [
  ...features.map((name) => ({
    target: `${web}/features/${name}`,
    from: `${web}/features`,
    except: [`./${name}`],
    message: 'Features must not import other features: move what both need to api/, components/ or lib/.',
  })),
  { target: `${web}/features`, from: `${web}/app`, message: 'Features must not import app/.' },
  {
    target: [`${web}/api/**`, `${web}/components/**`, `${web}/config/**`, `${web}/lib/!(testing)/**`, `${web}/lib/*.*`],
    from: [`${web}/features`, `${web}/app`],
    message: 'Shared code must not import features or app/.',
  },
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/.data/**', 'coverage/**', 'e2e/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['packages/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['packages/web/src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // The TypeScript parser reads the imported files too (no-cycle follows them); imports name
      // their files with the extension, so the node resolver finds them.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [createNodeResolver()],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: webZones }],
      'import-x/no-cycle': 'error',
    },
  },
  {
    files: [
      '**/scripts/**',
      '**/*.test.ts',
      '**/*.test.tsx',
      'e2e/**',
      '**/seed-demo.ts',
      '**/verify-cli.ts',
      '**/simulate-cli.ts',
    ],
    rules: { 'no-console': 'off' },
  },
);
