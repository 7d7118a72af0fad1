import http from "node:http";
import * as samlify from "samlify";
import { createSamlKeyPair } from "../../src/server/providers/saml/sp-credentials.ts";
import {
  alteredResponse,
  errorResponse,
  identityProvider,
  idpReceives,
  responseValues,
  signedResponse,
  type ReceivedRequest,
  type Sp,
} from "../../test/support/saml-idp.ts";
import { freePort } from "../../test/support/ports.ts";
import { trustCa } from "../../test/support/server.ts";

// A SAML IdP on loopback for the end-to-end server, samlify answering as an IdP does: its sign-in
// page offers a cancel, which it answers with an error status as IdPs do, and an answer altered on
// its way back, which Vrata must refuse. Its answers go back as a form the page posts to Vrata
// (HTTP-POST binding).

/** `&<>"` as entities, for values put into the IdP's pages. */
const escaped = (text: string) => text.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>` +
  `<link rel="icon" href="data:,"><meta name="viewport" content="width=device-width"></head>` +
  `<body><main>${body}</main></body></html>`;

/** The browser posts the answer to Vrata's assertion consumer service at once. */
const postBack = (request: ReceivedRequest, samlResponse: string) =>
  page(
    "Test IdP",
    `<form method="post" action="${escaped(request.acsUrl)}">` +
      `<input type="hidden" name="SAMLResponse" value="${escaped(samlResponse)}">` +
      `<input type="hidden" name="RelayState" value="${escaped(request.relayState)}">` +
      `<button>Continue</button></form><script>document.forms[0].submit()</script>`,
  );

export interface SamlIdp {
  /** The IdP's metadata, for Vrata's configuration. */
  metadata: string;
  close: () => Promise<void>;
}

/**
 * Starts the IdP at 127.0.0.1. It reads Vrata's SP metadata from `spMetadataUrl` (served over TLS
 * by the certificate of `caFile`) when the first request arrives, Vrata being up by then.
 */
export async function startSamlIdp(spMetadataUrl: string, caFile: string): Promise<SamlIdp> {
  const port = await freePort();
  const idp = identityProvider(
    await createSamlKeyPair("Test IdP", "signing"),
    `http://127.0.0.1:${port}/sso`,
  );
  let sp: Sp | undefined;
  const serviceProvider = async () => {
    if (!sp) {
      trustCa(caFile);
      sp = samlify.ServiceProvider({ metadata: await (await fetch(spMetadataUrl)).text() });
    }
    return sp;
  };
  /** The requests the IdP received, by ID, until it answers them. */
  const received = new Map<string, ReceivedRequest>();
  const answers: Record<string, (request: ReceivedRequest) => Promise<string> | string> = {
    cancel: (request) =>
      errorResponse(
        idp,
        { status: "Responder", detail: "AuthnFailed", message: "The person cancelled" },
        { inResponseTo: request.id, acsUrl: request.acsUrl },
      ),
    altered: async (request) =>
      alteredResponse(
        await signedResponse(
          idp,
          await serviceProvider(),
          request,
          responseValues(request.id, request.acsUrl, request.issuer),
        ),
      ),
  };

  const server = http.createServer((incoming, response) => {
    const answer = async () => {
      const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
      if (incoming.method === "GET" && url.pathname === "/sso") {
        const request = await idpReceives(idp, await serviceProvider(), { url: url.href });
        received.set(request.id, request);
        const choice = (name: string, label: string) =>
          `<button name="choice" value="${name}">${label}</button>`;
        return page(
          "Test IdP",
          `<h1>Test IdP</h1><form method="post" action="/answer">` +
            `<input type="hidden" name="request" value="${escaped(request.id)}">` +
            `${choice("cancel", "Cancel")} ${choice("altered", "Send an altered answer")}</form>`,
        );
      }
      if (incoming.method === "POST" && url.pathname === "/answer") {
        let body = "";
        for await (const chunk of incoming) body += String(chunk);
        const form = new URLSearchParams(body);
        const request = received.get(form.get("request") ?? "");
        const make = answers[form.get("choice") ?? ""];
        if (!request || !make) return undefined;
        received.delete(request.id);
        return postBack(request, await make(request));
      }
      return undefined;
    };
    answer().then(
      (html) =>
        html === undefined
          ? response.writeHead(404).end()
          : response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html),
      (error: unknown) => response.writeHead(400, { "content-type": "text/plain" }).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    metadata: idp.getMetadata(),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
