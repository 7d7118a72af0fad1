import { createHash, randomBytes } from "node:crypto";
import { contextSchema } from "../src/common/api/context.ts";
import { consoleScope } from "../src/common/limits.ts";
import { routes } from "../src/common/routes.ts";
import { startTestServer } from "../test/support/server.ts";
import { measurePageWeight, pageWeightTargetBytes } from "./page-weight.ts";

// Weighs the JavaScript of the auth-flow page on its own: starts a Vrata (the built web app in
// dist/web), starts a flow with the console's authorization request and prints what the page loads.
// npm run build && node bench/page-weight-run.ts

const random = () => randomBytes(32).toString("base64url");

const server = await startTestServer();
try {
  const context = contextSchema.parse(await (await fetch(new URL(routes.Context.path, server.url))).json());
  const authorize = new URL(routes.OIDCAuthorize.path, server.url);
  authorize.search = new URLSearchParams({
    client_id: context.clientId,
    redirect_uri: context.redirectUri,
    response_type: "code",
    scope: consoleScope,
    code_challenge: createHash("sha256").update(random()).digest("base64url"),
    code_challenge_method: "S256",
    state: random(),
    nonce: random(),
  }).toString();
  const weight = await measurePageWeight(server.url, authorize.pathname + authorize.search);
  const kilobytes = (bytes: number) => (bytes / 1000).toFixed(1).padStart(7);
  process.stdout.write(`${new URL(weight.url).pathname} loads:\n`);
  for (const script of weight.scripts)
    process.stdout.write(`${kilobytes(script.gzipBytes)} KB  ${script.path}\n`);
  const met = weight.totalGzipBytes < pageWeightTargetBytes;
  process.stdout.write(
    `${kilobytes(weight.totalGzipBytes)} KB gzip in all; target < ${pageWeightTargetBytes / 1000} KB: ${met ? "met" : "NOT MET"}\n`,
  );
} finally {
  await server.dispose();
}
