import type { PageError } from "../../common/api/page-error.ts";
import type { TextKey } from "../i18n/translator.ts";

/** What went wrong with a provider's answer, in the person's words, by the check it failed. */
const reasonTexts: Partial<Record<string, TextKey>> = {
  samlResponseMalformed: "errorPages.providerAnswer.malformed",
  samlSignatureInvalid: "errorPages.providerAnswer.notFromProvider",
  samlDecryptionFailed: "errorPages.providerAnswer.notDecrypted",
  samlIssuerMismatch: "errorPages.providerAnswer.notFromProvider",
  samlAudienceMismatch: "errorPages.providerAnswer.otherService",
  samlDestinationMismatch: "errorPages.providerAnswer.otherAddress",
  samlRecipientMismatch: "errorPages.providerAnswer.otherAddress",
  samlAssertionReplayed: "errorPages.providerAnswer.replayed",
  samlExpired: "errorPages.providerAnswer.expired",
  samlNotYetValid: "errorPages.providerAnswer.clock",
  samlInResponseToMismatch: "errorPages.providerAnswer.otherSignIn",
  samlRelayStateMismatch: "errorPages.providerAnswer.otherSignIn",
  samlTransientNameId: "errorPages.providerAnswer.noIdentifier",
  samlNameIdFormat: "errorPages.providerAnswer.noIdentifier",
  samlSubjectMissing: "errorPages.providerAnswer.noIdentifier",
};

/** The text saying what went wrong with a refused provider's answer; a check without words of its own is not verified. */
export function providerAnswerReason({ error, reason, resume }: PageError): TextKey {
  if (error === "providerCallbackInvalid")
    return resume === undefined
      ? "errorPages.providerAnswer.notValidHere"
      : "errorPages.providerAnswer.notWaited";
  return (reason === undefined ? undefined : reasonTexts[reason]) ?? "errorPages.providerAnswer.notVerified";
}
