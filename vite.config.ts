import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

const repoRoot = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL("src/web", import.meta.url)),
  plugins: [react(), tailwindcss()],
  build: {
    outDir: fileURLToPath(new URL("dist/web", import.meta.url)),
    emptyOutDir: true,
    // Inlined data: URIs would need a looser Content-Security-Policy than the server sends.
    assetsInlineLimit: 0,
  },
  // Vitest reads this file too: tests live all over the repository, not only under the web root.
  test: {
    root: repoRoot,
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    environment: "node",
  },
});
