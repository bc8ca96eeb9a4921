import js from "@eslint/js";
import svelte from "eslint-plugin-svelte";
import globals from "globals";
import ts from "typescript-eslint";

/** zod is configured (jitless, for the page's Content Security Policy) in one module that the others import. */
const ZOD_ONCE = {
  group: ["zod", "zod/*"],
  message: "import z from src/core/zod.ts, where it is configured for the CSP.",
};

export default ts.config(
  { ignores: ["dist/", "node_modules/", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    files: ["**/*.svelte", "**/*.svelte.ts"],
    languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: [".svelte"] } },
  },
  {
    files: ["src/**/*.ts", "src/**/*.svelte"],
    rules: { "no-restricted-imports": ["error", { patterns: [ZOD_ONCE] }] },
  },
  {
    files: ["src/core/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["svelte", "svelte/*", "d3", "d3-*", "idb-keyval", "@mariozechner/*", "node:*"],
              message: "src/core is pure: it runs in the browser worker, the CLI and tests alike.",
            },
            ZOD_ONCE,
          ],
        },
      ],
      "no-restricted-globals": ["error", "document", "window", "process"],
    },
  },
  {
    files: ["src/**/*.ts", "src/**/*.svelte"],
    ignores: ["src/core/zod.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector: "CallExpression[callee.property.name='safeParse']",
          message: "check data from outside with checkData (src/core/zod.ts): zod's safeParse can throw on it.",
        },
        {
          selector:
            "CallExpression:matches([callee.property.name=/^(push|unshift)$/], [callee.object.name='Math'][callee.property.name=/^(max|min)$/]) > SpreadElement:not([argument.type=/^(ArrayExpression|ConditionalExpression)$/])",
          message: "a spread call overflows the stack past ~120,000 arguments, which a long session has: loop instead.",
        },
      ],
    },
  },
  { files: ["src/core/zod.ts"], rules: { "no-restricted-imports": "off" } },
);
