// Lint configuration: typescript-eslint's recommended rules for src and test.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '**/*.d.ts', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-restricted-imports': 'off',
      eqeqeq: ['error', 'smart'],
      curly: ['error', 'multi-line'],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      // `import { z } from 'zod'` keeps every member of zod (locales, JSON Schema conversion) in the bundle.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind='value'] > ImportSpecifier[imported.name='z']",
          message: "Use `import * as z from 'zod'`: a named `z` pulls all of zod into the bundle.",
        },
      ],
    },
  },
  {
    // src/api and src/schema stay free of `vscode` so they run in plain Node.
    files: ['src/api/**/*.ts', 'src/schema/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'vscode', message: 'src/api and src/schema must not depend on vscode.' }] },
      ],
    },
  },
  {
    // The HTTP clients stay readable in parts: no function longer than 150 lines (blank lines and comments count).
    files: ['src/api/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 150 }] },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
