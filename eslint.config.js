// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["node_modules/", ".wrangler/", "bench/tmp/", "test-results/", "public/", "worker-configuration.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      // Type-aware rules: each file is checked with the tsconfig that builds it.
      parserOptions: {
        project: ["./tsconfig.json", "./scripts/tsconfig.json", "./test/e2e/tsconfig.json", "./src/page/tsconfig.json"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // Control characters are what the validators look for.
      "no-control-regex": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      // A promise nobody awaits fails silently (waitUntil, handlers, tests).
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/await-thenable": "error",
    },
  },
  {
    // Sizes a reader takes in at once (docs/architecture.md, "Habits"). Data files aside.
    files: ["**/*.ts"],
    ignores: ["scripts/import/generate/vocabulary*.ts"],
    rules: {
      "max-lines": ["error", { max: 300 }],
      complexity: ["error", 15],
    },
  },
  {
    files: ["src/**/*.ts", "scripts/**/*.ts", "test/**/*.ts"],
    rules: { "max-lines-per-function": ["error", { max: 60, skipBlankLines: true, skipComments: true }] },
  },
  {
    // This file configures the linter; no tsconfig builds it.
    files: ["eslint.config.js"],
    ...tseslint.configs.disableTypeChecked,
  },
);
