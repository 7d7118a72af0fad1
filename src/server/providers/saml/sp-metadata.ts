import { pemBody } from "./pem.ts";
import { bindings, encryptionAlgorithms, namespaces } from "./saml-names.ts";
import { requestedNameIdFormat } from "./settings.ts";
import type { SamlKeyUse } from "./sp-credentials.ts";
import type { SamlUpstream } from "./upstream.ts";

// Every worker registers the metadata route: this module writes XML without the SAML and XML
// libraries, which are loaded only when a SAML provider is configured.

/** Escapes text for an XML element's content or an attribute value in double quotes. */
function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&apos;");
}

/** The media type of SAML metadata, registered by the SAML 2.0 metadata specification. */
export const samlMetadataMediaType = "application/samlmetadata+xml";

/** The attributes Vrata asks for: the identifying one (required) and the mapped ones. */
function requestedAttributes(upstream: SamlUpstream): { name: string; required: boolean }[] {
  const { identifyBy, attributes } = upstream.settings;
  const identifying = identifyBy === "nameId" ? undefined : identifyBy.attribute;
  const names = [
    ...new Set([
      ...(identifying ? [identifying] : []),
      ...(Object.values(attributes) as (string | undefined)[]),
    ]),
  ];
  return names.filter((name) => name !== undefined).map((name) => ({ name, required: name === identifying }));
}

/** A key descriptor: the certificate of the key for `use`, and the algorithms it takes. */
function keyDescriptor(use: SamlKeyUse, certificatePem: string, algorithms: readonly string[] = []) {
  return [
    `    <md:KeyDescriptor use="${use}">`,
    `      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${pemBody(certificatePem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>`,
    ...algorithms.map((algorithm) => `      <md:EncryptionMethod Algorithm="${algorithm}"/>`),
    `    </md:KeyDescriptor>`,
  ];
}

/**
 * Vrata's SAML service-provider metadata for one IdP, to give to its operator: our entity ID, the
 * certificate our AuthnRequests are signed with, the certificate and algorithms assertions may be
 * encrypted with (in the order we prefer them), where responses are posted, the NameID format and
 * attributes asked for, and the service's name in each language. It has no `validUntil`: it changes
 * only when the configuration does.
 */
export function spMetadata(upstream: SamlUpstream): string {
  const nameIdFormat = requestedNameIdFormat(upstream.settings);
  const attributes = requestedAttributes(upstream);
  const lines = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<md:EntityDescriptor xmlns:md="${namespaces.metadata}" xmlns:ds="${namespaces.signature}" entityID="${escapeXml(upstream.entityId)}">`,
    `  <md:SPSSODescriptor AuthnRequestsSigned="true" WantAssertionsSigned="true" protocolSupportEnumeration="${namespaces.protocol}">`,
    // The name IdPs show on their sign-in page, whether or not attributes are asked for.
    `    <md:Extensions>`,
    `      <mdui:UIInfo xmlns:mdui="${namespaces.metadataUi}">`,
    `        <mdui:DisplayName xml:lang="en">${escapeXml(upstream.serviceName.en)}</mdui:DisplayName>`,
    `        <mdui:DisplayName xml:lang="sl">${escapeXml(upstream.serviceName.sl)}</mdui:DisplayName>`,
    `      </mdui:UIInfo>`,
    `    </md:Extensions>`,
    ...keyDescriptor("signing", upstream.credentials.signing.certificatePem),
    ...keyDescriptor("encryption", upstream.credentials.encryption.certificatePem, [
      ...encryptionAlgorithms.content,
      ...encryptionAlgorithms.keyTransport,
    ]),
    ...(nameIdFormat ? [`    <md:NameIDFormat>${escapeXml(nameIdFormat)}</md:NameIDFormat>`] : []),
    `    <md:AssertionConsumerService Binding="${bindings.post}" Location="${escapeXml(upstream.acsUrl)}" index="0" isDefault="true"/>`,
    // The schema wants at least one requested attribute in an AttributeConsumingService.
    ...(attributes.length === 0
      ? []
      : [
          `    <md:AttributeConsumingService index="0" isDefault="true">`,
          `      <md:ServiceName xml:lang="en">${escapeXml(upstream.serviceName.en)}</md:ServiceName>`,
          `      <md:ServiceName xml:lang="sl">${escapeXml(upstream.serviceName.sl)}</md:ServiceName>`,
          ...attributes.map(
            ({ name, required }) =>
              `      <md:RequestedAttribute Name="${escapeXml(name)}" isRequired="${String(required)}"/>`,
          ),
          `    </md:AttributeConsumingService>`,
        ]),
    `  </md:SPSSODescriptor>`,
    `</md:EntityDescriptor>`,
  ];
  return lines.join("\n") + "\n";
}
