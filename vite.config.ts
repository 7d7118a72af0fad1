import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL("src/web", import.meta.url)),
  plugins: [react(), tailwindcss()],
  server: {
    // In development the page is served over https by Vrata itself, while Vite's hot-reload socket
    // listens on its own plain port; browsers accept ws:// to localhost from an https page.
    ws: { protocol: "ws", port: 24678 },
  },
  build: {
    outDir: fileURLToPath(new URL("dist/web", import.meta.url)),
    emptyOutDir: true,
    // Inlined data: URIs would need a looser Content-Security-Policy than the server sends.
    assetsInlineLimit: 0,
  },
});
