import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native sqlite bindings and the checkpointers must be loaded by Node, not bundled.
  serverExternalPackages: [
    "better-sqlite3",
    "@langchain/langgraph-checkpoint-sqlite",
    "@langchain/langgraph-checkpoint-postgres",
    "pg",
  ],
  poweredByHeader: false,
  // Lets parallel builds (e.g. a second checkout's e2e run) use separate output folders.
  distDir: process.env.NEXT_DIST_DIR || ".next",
};

export default nextConfig;
