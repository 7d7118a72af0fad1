import { samlClockToleranceMs, samlResponseXml } from "../../../common/limits.ts";
import { SamlError } from "./errors.ts";
import { namespaces } from "./saml-names.ts";
import { childElements, parseXml } from "./xml.ts";

// What the Web Browser SSO profile asks of a response beyond what node-saml checks: that it was sent
// to Vrata's assertion consumer service, and how long its assertion is kept to be accepted once.

const bearer = "urn:oasis:names:tc:SAML:2.0:cm:bearer";

/**
 * A response's Destination, when it has one, is Vrata's assertion consumer service exactly; a signed
 * response must have one (SAML bindings, HTTP-POST security considerations). A response whose
 * assertion alone is signed may go without: its assertion names the recipient (see
 * `confirmedAssertion`).
 */
export function checkDestination(response: Element, acsUrl: string): void {
  const destination = response.getAttributeNode("Destination")?.value;
  const signed = childElements(response, namespaces.signature, "Signature").length > 0;
  if (destination === undefined ? signed : destination !== acsUrl) {
    throw new SamlError(
      "samlDestinationMismatch",
      `the response was sent to ${destination ?? "no Destination"}, not ${acsUrl}`,
    );
  }
}

/** An accepted assertion: its ID, and until when it could be accepted (with the clock tolerance). */
export interface ConfirmedAssertion {
  id: string;
  expiresAt: number;
}

const instant = (element: Element | undefined, name: string) => {
  const value = element?.getAttributeNode(name)?.value;
  return value === undefined ? undefined : Date.parse(value);
};

/**
 * The assertion node-saml verified (as it was signed), when every subject confirmation in it is for
 * Vrata's assertion consumer service (`Recipient`) and has a `NotOnOrAfter`, and one of them is a
 * bearer's (SAML profiles, Web Browser SSO). node-saml accepts an assertion if any one confirmation
 * is within its time, whatever its recipient: all of them are held to it.
 */
export function confirmedAssertion(assertionXml: string, acsUrl: string): ConfirmedAssertion {
  const assertion = parseXml(assertionXml, samlResponseXml).documentElement;
  const id = assertion.getAttributeNode("ID")?.value;
  if (!id) throw new SamlError("samlResponseInvalid", "the assertion has no ID");
  const confirmations = childElements(assertion, namespaces.assertion, "Subject").flatMap((subject) =>
    childElements(subject, namespaces.assertion, "SubjectConfirmation"),
  );
  if (!confirmations.some((confirmation) => confirmation.getAttribute("Method") === bearer)) {
    throw new SamlError("samlRecipientMismatch", "the assertion has no bearer subject confirmation");
  }
  let confirmedUntil = -Infinity;
  for (const confirmation of confirmations) {
    const data = childElements(confirmation, namespaces.assertion, "SubjectConfirmationData")[0];
    const recipient = data?.getAttributeNode("Recipient")?.value;
    if (recipient !== acsUrl) {
      throw new SamlError(
        "samlRecipientMismatch",
        `the assertion is confirmed for ${recipient ?? "no Recipient"}, not ${acsUrl}`,
      );
    }
    const notOnOrAfter = instant(data, "NotOnOrAfter");
    if (notOnOrAfter === undefined || Number.isNaN(notOnOrAfter)) {
      throw new SamlError("samlResponseInvalid", "a subject confirmation has no NotOnOrAfter");
    }
    confirmedUntil = Math.max(confirmedUntil, notOnOrAfter);
  }
  // The conditions bound the assertion as a whole; node-saml has checked they are well-formed.
  const conditionsUntil = instant(
    childElements(assertion, namespaces.assertion, "Conditions")[0],
    "NotOnOrAfter",
  );
  const until =
    conditionsUntil === undefined || Number.isNaN(conditionsUntil)
      ? confirmedUntil
      : Math.min(confirmedUntil, conditionsUntil);
  return { id, expiresAt: until + samlClockToleranceMs };
}
