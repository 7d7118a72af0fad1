import { describe, expect, it } from "vitest";
import { invitationMessage } from "./invitation-message.ts";

const input = {
  to: "ana@example.com",
  role: "member" as const,
  link: "https://id.example/invitation/token",
  title: "Vrata",
  issuer: "https://id.example",
  days: 7,
};

describe("the e-mail of an invitation by address", () => {
  it("names the organization and the admin, quoted, in the language it was made in", () => {
    const english = invitationMessage({
      ...input,
      organizationName: "Book club",
      invitedBy: "Olga",
      locale: "en",
    });
    expect(english.subject).toBe("You are invited to “Book club” on Vrata");
    expect(english.text).toContain("Olga invites you to join the organization “Book club” on Vrata");
    expect(english.text).toContain(input.link);
    const slovenian = invitationMessage({
      ...input,
      role: "admin",
      organizationName: "Bralni krožek",
      invitedBy: "Olga",
      locale: "sl",
    });
    expect(slovenian.subject).toBe("Vabilo v organizacijo „Bralni krožek“ (Vrata)");
    expect(slovenian.text).toContain("naj postane njena skrbnica");
  });

  it("leaves out names that could carry a link, so nobody sends their own message through it", () => {
    const message = invitationMessage({
      ...input,
      organizationName: "Your account is locked, visit evil.example",
      invitedBy: "help@evil.example",
      locale: "en",
    });
    expect(message.subject).toBe("You are invited to an organization on Vrata");
    expect(message.text).toContain("An admin invites you to join an organization on Vrata");
    expect(message.text).not.toContain("evil");
  });
});
