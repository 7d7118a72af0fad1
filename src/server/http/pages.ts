import fs from "node:fs/promises";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyPluginAsync } from "fastify";
import type { Context } from "../../common/api/context.ts";
import type { About, DocumentText } from "../../common/api/documents.ts";
import { apiPath, routes, type RouteName } from "../../common/routes.ts";
import { productVersion } from "../product-version.ts";
import { asksForPage, sendWebPage, webPageFile, type RenderIndex } from "./web-page.ts";

export const webRoot = fileURLToPath(new URL("../../../dist/web/", import.meta.url));
const projectRoot = fileURLToPath(new URL("../../../", import.meta.url));

export interface PagesOptions {
  context: Context;
  issuer: string;
  renderIndex: RenderIndex;
  /** Serve the built assets from dist/web (not in development, where Vite serves them). */
  serveBuiltAssets: boolean;
}

const licenseDocuments: [RouteName, string][] = [
  ["License", "LICENSE"],
  ["Notice", "NOTICE"],
];

/**
 * The page routes: the SPA's views, the license documents, the context and about documents and the
 * assets.
 */
export const pagesPlugin: FastifyPluginAsync<PagesOptions> = async (
  app,
  { context, issuer, renderIndex, serveBuiltAssets },
) => {
  const contextBody = JSON.stringify(context);
  app.get(routes.Context.path, (_request, reply) =>
    reply.type("application/json").header("cache-control", "no-cache").send(contextBody),
  );

  const about: About = { title: context.title, version: productVersion(), issuer };
  const aboutBody = JSON.stringify(about);
  app.get(apiPath("About"), (_request, reply) => reply.type("application/json").send(aboutBody));

  // Tools (curl, scripts) get the plain text; a browser gets the page that shows it, which reads the
  // text from the API.
  for (const [name, file] of licenseDocuments) {
    const text = await fs.readFile(projectRoot + file, "utf8");
    const document: DocumentText = { text };
    const documentBody = JSON.stringify(document);
    app.get(routes[name].path, async (request, reply) => {
      reply.header("vary", "accept");
      if (asksForPage(request)) return sendWebPage(request, reply, renderIndex);
      return reply.type("text/plain; charset=utf-8").send(text);
    });
    app.get(apiPath(name), (_request, reply) => reply.type("application/json").send(documentBody));
  }

  for (const route of Object.values(routes)) {
    // A capability that registered the page itself (the flow page) keeps it.
    if (!route.view || app.hasRoute({ url: route.path, method: "GET" })) continue;
    app.get(route.path, (request, reply) => sendWebPage(request, reply, renderIndex));
  }

  if (serveBuiltAssets) {
    // One route per built file (no wildcard), so an unknown path still gets a 404. An asset goes out
    // as the Brotli or gzip copy the build made of it (scripts/build-web.ts) when the browser takes one.
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      preCompressed: true,
      globIgnore: ["index.html", "card.html", "**/*.br", "**/*.gz"],
      setHeaders: (reply, filePath) => {
        if (filePath.includes("/assets/"))
          reply.header("cache-control", "public, max-age=31536000, immutable");
      },
    });
  }
};

/** Reads the built SPA pages once; a missing build is a start-up error with the fix in its message. */
export async function builtIndex(): Promise<RenderIndex> {
  let pages: Record<ReturnType<typeof webPageFile>, string>;
  try {
    const [index, card] = await Promise.all([
      fs.readFile(webRoot + "index.html", "utf8"),
      fs.readFile(webRoot + "card.html", "utf8"),
    ]);
    pages = { "index.html": index, "card.html": card };
  } catch {
    // A production install has no development dependencies, so it cannot build: the fix is a build
    // made where they are, copied in with dist/.
    throw new Error(
      `the web app is not built (${webRoot}index.html is missing): run \`npm run build\` where the ` +
        "development dependencies are installed and bring its dist/ folder here, or start with `npm start`",
    );
  }
  return (url) => Promise.resolve(pages[webPageFile(url)]);
}
