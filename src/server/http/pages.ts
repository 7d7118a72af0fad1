import fs from "node:fs/promises";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync } from "fastify";
import type { Context } from "../../common/api/context.ts";
import { routes } from "../../common/routes.ts";

export const webRoot = fileURLToPath(new URL("../../../dist/web/", import.meta.url));
const projectRoot = fileURLToPath(new URL("../../../", import.meta.url));

export interface PagesOptions {
  context: Context;
  /** Returns the SPA's HTML for a page URL (the built file, or Vite's in development). */
  renderIndex: (url: string) => Promise<string>;
  /** Serve the built assets from dist/web (not in development, where Vite serves them). */
  serveBuiltAssets: boolean;
}

/** The page routes: the SPA's views, the license documents, the context document and the assets. */
export const pagesPlugin: FastifyPluginAsync<PagesOptions> = async (
  app,
  { context, renderIndex, serveBuiltAssets },
) => {
  const contextBody = JSON.stringify(context);
  app.get(routes.Context.path, (_request, reply) =>
    reply.type("application/json").header("cache-control", "no-cache").send(contextBody),
  );

  for (const [route, file] of [
    [routes.License, "LICENSE"],
    [routes.Notice, "NOTICE"],
  ] as const) {
    const text = await fs.readFile(projectRoot + file, "utf8");
    app.get(route.path, (_request, reply) => reply.type("text/plain; charset=utf-8").send(text));
  }

  for (const route of Object.values(routes)) {
    // A capability that registered the page itself (the flow page) keeps it.
    if (!route.view || app.hasRoute({ url: route.path, method: "GET" })) continue;
    app.get(route.path, async (request, reply) =>
      reply
        .type("text/html; charset=utf-8")
        .header("cache-control", "no-cache")
        .send(await renderIndex(request.url)),
    );
  }

  if (serveBuiltAssets) {
    // One route per built file (no wildcard), so an unknown path still gets a 404.
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      globIgnore: ["index.html"],
      setHeaders: (reply, filePath) => {
        if (filePath.includes("/assets/"))
          reply.header("cache-control", "public, max-age=31536000, immutable");
      },
    });
  }
};

/** Reads the built SPA page once; a missing build is a start-up error with the fix in its message. */
export async function builtIndex(): Promise<(url: string) => Promise<string>> {
  let html: string;
  try {
    html = await fs.readFile(webRoot + "index.html", "utf8");
  } catch {
    throw new Error("the web app is not built: run `npm run build` (or start with `npm start`)");
  }
  return () => Promise.resolve(html);
}
