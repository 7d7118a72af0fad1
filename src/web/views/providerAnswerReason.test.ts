import { describe, expect, it } from "vitest";
import { samlErrorCodes } from "../../server/providers/saml/errors.ts";
import { providerAnswerReason } from "./providerAnswerReason.ts";

const refused = (reason: string) =>
  providerAnswerReason({ error: "providerAnswerInvalid", reason, provider: "eid", resume: { flowId: "f" } });

describe("the words for a refused SAML answer", () => {
  it("say what went wrong for every check a SAML answer can fail", () => {
    // An IdP's error status ends the sign-in (the app is told access_denied) and is no refused answer;
    // samlResponseInvalid is the check nobody could name, and samlIdpUnavailable that of metadata
    // that could not be read: both leave only "not verified" to say.
    const notRefusals = ["samlIdpRefused", "samlIdpStatus"];
    const unnamed = samlErrorCodes.filter(
      (code) => !notRefusals.includes(code) && refused(code) === "errorPages.providerAnswer.notVerified",
    );
    expect(unnamed).toEqual(["samlIdpUnavailable", "samlResponseInvalid"]);
  });

  it("say that an encrypted answer could not be decrypted, not only that it could not be verified", () => {
    expect(refused("samlDecryptionFailed")).toBe("errorPages.providerAnswer.notDecrypted");
  });
});
