import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'docs/out/**', 'docs/.next/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Screens call their hooks in the same order on every render, and an effect lists everything it reads (a value
  // read on purpose as it stood at some moment goes through a ref, which says so).
  {
    files: ['**/*.tsx', 'frontend-host/src/**/*.ts', 'plugins/*/frontend/src/**/*.ts', 'sdk/src/ui/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  // Addons meet through typed service references: another addon is imported only through its api entry.
  {
    files: ['plugins/**/*.ts', 'plugins/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^@pipewright/plugin-[\\w-]+(/(?!api$).*)?$',
              message: "Import another addon only through its api entry ('@pipewright/plugin-<name>/api').",
            },
          ],
        },
      ],
    },
  },
  // Scripts and configs run on Node.
  { files: ['**/*.mjs', '**/*.js', '**/*.cjs'], languageOptions: { globals: globals.node } },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
