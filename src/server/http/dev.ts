import fs from "node:fs/promises";
import { fileURLToPath } from "node:url";
import middie from "@fastify/middie";
import type { FastifyInstance } from "fastify";
import { createServer } from "vite";
import { webPageFile } from "./web-page.ts";

const projectRoot = fileURLToPath(new URL("../../../", import.meta.url));

/**
 * Development only: Vite runs inside the server as middleware, so the web app keeps the server's
 * origin (the issuer and the console's redirect URI) and still reloads on every edit.
 */
export async function createViteDevServer() {
  const vite = await createServer({
    configFile: projectRoot + "vite.config.ts",
    appType: "custom",
    server: { middlewareMode: true },
  });
  return {
    register: async (app: FastifyInstance) => {
      await app.register(middie);
      app.use(vite.middlewares);
    },
    renderIndex: async (url: string) =>
      vite.transformIndexHtml(url, await fs.readFile(projectRoot + "src/web/" + webPageFile(url), "utf8")),
    close: () => vite.close(),
  };
}
