// ESLint flat config: type-aware rules everywhere, the import bans that keep the process
// boundaries honest (no electron in the renderer, no raw IPC outside the bridge), and the
// layering of docs/architecture.md (eslint/layers.js: which folder may import which).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

import { layers } from './eslint/layers.js';

const rawIpcBan = {
  paths: [
    {
      name: 'electron',
      importNames: ['ipcMain', 'ipcRenderer'],
      message:
        'Raw IPC belongs only in main/bridge.ts and preload/index.ts; add a call to common/contract.ts instead.',
    },
  ],
};

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'release/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      eqeqeq: ['error', 'always'],
      'no-restricted-imports': ['error', rawIpcBan],
    },
  },
  {
    files: ['main/**/*.ts', 'common/**/*.ts', 'preload/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    plugins: { layers },
    rules: { 'layers/walls': 'error' },
  },
  {
    // Money is never a float: parseFloat and Number() on amounts are banned in the gateway.
    files: ['main/gateway/**/*.ts', 'main/services/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'parseFloat', message: 'Money is never a float: use main/gateway/amount.ts.' },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'Number',
          property: 'parseFloat',
          message: 'Money is never a float: use main/gateway/amount.ts.',
        },
      ],
    },
  },
  {
    files: ['main/bridge.ts', 'preload/index.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer is sandboxed: use window.paydesk.' }],
          patterns: [
            {
              group: ['node:*'],
              message: 'The renderer has no Node: ask main through window.paydesk.',
            },
            { group: ['**/main/**'], message: 'The renderer cannot import main-process code.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
