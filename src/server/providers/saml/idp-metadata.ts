import { X509Certificate } from "node:crypto";
import { Worker } from "node:worker_threads";
import { samlMetadata } from "../../../common/limits.ts";
import { toPem } from "./pem.ts";
import { bindings, namespaces } from "./saml-names.ts";
import { childElements, parseXml } from "./xml.ts";

/** What Vrata needs to know about a SAML identity provider, read from its metadata. */
export interface IdpMetadata {
  entityId: string;
  /** Where the browser takes the AuthnRequest (HTTP-Redirect binding). */
  ssoRedirectUrl: string;
  /** The certificates (PEM) that may sign responses and assertions. */
  signingCertificates: string[];
}

/** The metadata cannot be used; the message says why, for the operator. */
export class IdpMetadataError extends Error {
  override name = "IdpMetadataError";
}

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]"]);

function ssoUrl(descriptor: Element): string {
  const service = childElements(descriptor, namespaces.metadata, "SingleSignOnService").find(
    (element) => element.getAttribute("Binding") === bindings.redirect,
  );
  const location = service?.getAttribute("Location") ?? "";
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    throw new IdpMetadataError("the IdP has no SingleSignOnService with the HTTP-Redirect binding");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopbackHosts.has(url.hostname))) {
    throw new IdpMetadataError(`the IdP's sign-in address is not https: ${location}`);
  }
  return url.href;
}

function certificatePem(base64: string): string | undefined {
  const body = base64.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return undefined;
  const der = Buffer.from(body, "base64");
  try {
    new X509Certificate(der);
  } catch {
    return undefined;
  }
  return toPem("CERTIFICATE", der);
}

/** Certificates of the key descriptors meant for signing (those without `use` serve both). */
function signingCertificates(descriptor: Element): string[] {
  const pems = childElements(descriptor, namespaces.metadata, "KeyDescriptor")
    .filter((key) => (key.getAttribute("use") || "signing") === "signing")
    .flatMap((key) => childElements(key, namespaces.signature, "KeyInfo"))
    .flatMap((info) => childElements(info, namespaces.signature, "X509Data"))
    .flatMap((data) => childElements(data, namespaces.signature, "X509Certificate"))
    .map((element) => certificatePem(element.textContent))
    .filter((pem) => pem !== undefined);
  if (pems.length === 0) throw new IdpMetadataError("the IdP's metadata has no usable signing certificate");
  return [...new Set(pems)];
}

function expired(element: Element, now: number): boolean {
  const validUntil = element.getAttribute("validUntil");
  return !!validUntil && Date.parse(validUntil) <= now;
}

/**
 * Reads an IdP's metadata: an EntityDescriptor, or an EntitiesDescriptor (a federation's) in which
 * `entityId` names the IdP unless it lists only one. Metadata past its `validUntil` is refused.
 */
export function parseIdpMetadata(xml: string, entityId?: string, now = Date.now()): IdpMetadata {
  let document: Document;
  try {
    document = parseXml(xml, samlMetadata);
  } catch (error) {
    throw new IdpMetadataError(`the IdP's metadata is not XML: ${(error as Error).message}`);
  }
  const root = document.documentElement;
  if (root.namespaceURI !== namespaces.metadata) {
    throw new IdpMetadataError("the document is not SAML metadata");
  }
  if (expired(root, now)) throw new IdpMetadataError("the IdP's metadata has expired (validUntil)");
  const identityProviders = Array.from(
    document.getElementsByTagNameNS(namespaces.metadata, "EntityDescriptor"),
  )
    .map((entity) => ({
      entity,
      descriptor: childElements(entity, namespaces.metadata, "IDPSSODescriptor").find((descriptor) =>
        (descriptor.getAttribute("protocolSupportEnumeration") ?? "")
          .split(/\s+/)
          .includes(namespaces.protocol),
      ),
    }))
    .filter(
      ({ entity, descriptor }) => descriptor && (!entityId || entity.getAttribute("entityID") === entityId),
    );
  const [chosen, ...others] = identityProviders;
  if (!chosen?.descriptor) {
    throw new IdpMetadataError(
      entityId ? `the metadata has no SAML 2.0 IdP ${entityId}` : "the metadata has no SAML 2.0 IdP",
    );
  }
  if (others.length > 0) {
    throw new IdpMetadataError("the metadata lists several IdPs: choose one with idpEntityId");
  }
  if (expired(chosen.entity, now)) throw new IdpMetadataError("the IdP's metadata has expired (validUntil)");
  const id = chosen.entity.getAttribute("entityID");
  if (!id) throw new IdpMetadataError("the IdP has no entityID");
  return {
    entityId: id,
    ssoRedirectUrl: ssoUrl(chosen.descriptor),
    signingCertificates: signingCertificates(chosen.descriptor),
  };
}

/**
 * `parseIdpMetadata` in a thread of its own: a federation's metadata runs to megabytes, seconds of
 * parsing that would otherwise hold up every request of the process.
 */
export function readIdpMetadataInThread(xml: string, entityId?: string): Promise<IdpMetadata> {
  return new Promise((resolve, reject) => {
    const thread = new Worker(new URL("./idp-metadata-thread.ts", import.meta.url), {
      workerData: { xml, entityId },
      resourceLimits: { maxOldGenerationSizeMb: samlMetadata.maxHeapMb },
    });
    thread.once("message", (answer: { metadata: IdpMetadata } | { refused: string }) => {
      if ("metadata" in answer) resolve(answer.metadata);
      else reject(new IdpMetadataError(answer.refused));
    });
    thread.once("error", reject);
    // Once it has answered, the thread's end changes nothing.
    thread.once("exit", (code) => {
      reject(new IdpMetadataError(`reading the IdP's metadata ended early (${code})`));
    });
  });
}
