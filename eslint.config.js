// ESLint (flat config): JavaScript's and typescript-eslint's recommended rules with type information,
// the React hooks rules, and the layer rule that keeps imports running downward (scripts/lint/).
// Formatting is Prettier's job (.prettierrc.json); no rule here is about layout.
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import { defineConfig } from "eslint/config";
import tseslint from "typescript-eslint";
import layers from "./scripts/lint/import-direction.mjs";

// The portable layers run in the browser, a worker and Node: tsconfig.format.json gives them no DOM and
// no Node types; these globals are named here too so that the lint says so where the code is.
const HOST_GLOBALS = [
  "window",
  "document",
  "navigator",
  "location",
  "localStorage",
  "sessionStorage",
  "process",
  "Buffer",
  "require",
  "__dirname",
  "__filename",
  "global",
];

export default defineConfig(
  { ignores: ["dist/", "dist-cli/", "node_modules/", "test-results/", "playwright-report/", "test/fixtures/", "public/", "types/"] },
  js.configs.recommended,
  {
    files: ["**/*.ts", "**/*.tsx"],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Real bugs: a promise nobody awaits or handles, a promise where a value is expected.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      // With noUncheckedIndexedAccess on, this names exactly the casts that do nothing.
      "@typescript-eslint/no-unnecessary-type-assertion": "error",
    },
  },
  {
    // Tests parse the CLI's and the corpus's JSON: `any` is their input, checked by the assertions.
    files: ["**/*.test.ts", "e2e/**", "test/**"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-unsafe-call": "off",
    },
  },
  {
    files: ["src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  {
    files: ["src/**/*.{ts,tsx}", "cli/**/*.ts"],
    plugins: { layers },
    rules: { "layers/import-direction": "error" },
  },
  {
    files: ["src/format/**", "src/checksum/**", "src/lib/**", "src/core/**"],
    ignores: ["**/*.test.ts"],
    rules: { "no-restricted-globals": ["error", ...HOST_GLOBALS.map((name) => ({ name, message: "the portable layers have no DOM and no Node" }))] },
  },
  {
    // A spread into a call puts every element on the stack: past ~120k it throws RangeError (an index of
    // 3 MiB did). Loop, or reduce, instead; a chunk bounded by construction says so with a disable comment.
    files: ["src/**/*.{ts,tsx}", "cli/**/*.ts", "scripts/**/*.{ts,mjs}"],
    ignores: ["**/*.test.ts", "**/*.test-util.ts"],
    rules: {
      "no-restricted-syntax": [
        "error",
        { selector: "CallExpression > SpreadElement", message: "no spread into a call: its length is unbounded (loop or reduce)" },
        { selector: "NewExpression > SpreadElement", message: "no spread into a call: its length is unbounded (loop or reduce)" },
      ],
    },
  },
  {
    files: ["**/*.mjs", "**/*.js"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Their page.evaluate callbacks run in the browser.
    files: ["scripts/bench-page.mjs", "scripts/bench/page-*.mjs"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
