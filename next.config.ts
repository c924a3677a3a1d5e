import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native sqlite bindings and the checkpointers must be loaded by Node, not bundled.
  serverExternalPackages: [
    "better-sqlite3",
    "@langchain/langgraph-checkpoint-sqlite",
    "@langchain/langgraph-checkpoint-postgres",
    "pg",
    // initChatModel imports the provider package by name at run time (`import(pkg)`), which a
    // bundle cannot resolve: LangChain and its providers are loaded by Node, one copy of each.
    "langchain",
    "@langchain/core",
    "@langchain/langgraph",
    "@langchain/openai",
    "@langchain/anthropic",
  ],
  poweredByHeader: false,
  // Lets parallel builds (e.g. a second checkout's e2e run) use separate output folders.
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

export default nextConfig;
