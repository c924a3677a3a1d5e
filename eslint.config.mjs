import coreWebVitals from "eslint-config-next/core-web-vitals";
import typescript from "eslint-config-next/typescript";

const config = [
  ...coreWebVitals,
  ...typescript,
  {
    ignores: [".next*/**", "node_modules/**", "test-results/**", "playwright-report/**", "data/**", "next-env.d.ts"],
  },
  {
    // Playwright fixtures call `use(...)`, which is not React's hook.
    files: ["e2e/**/*.ts"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // The title engine is shared by server and browser: keep framework imports out of it.
    files: ["lib/title/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        { patterns: ["next", "next/*", "react", "react-*", "@langchain/*", "langchain", "langchain/*"] },
      ],
    },
  },
];

export default config;
