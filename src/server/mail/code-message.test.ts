import { describe, expect, it } from "vitest";
import { nameForEmail, codeMessage } from "./code-message.ts";

describe("the app's name in a code e-mail", () => {
  it("is left out when it could carry a link or an address", () => {
    for (const name of [
      "URGENT: your account is locked, visit https://evil.example/unlock",
      "Visit evil.example now",
      "evil . example",
      "write to help@evil.example",
      "www.evil",
      "javascript:alert(1)",
      "evil。example",
    ]) {
      expect(nameForEmail(name), name).toBeUndefined();
    }
  });

  it("is kept on one line and cut short, so it cannot be a message of its own", () => {
    expect(nameForEmail("Notes\r\nYour account is locked")).toBe("Notes Your account is locked");
    const long = nameForEmail("Your account has been locked and you must reply with your password");
    expect(Array.from(long ?? "")).toHaveLength(40);
    expect(long?.endsWith("…")).toBe(true);
    expect(nameForEmail("Beležke")).toBe("Beležke");
  });

  it("is quoted, and the e-mail says which instance sent it", () => {
    const input = { to: ["a@example.com"], code: "123456", link: "https://id.example/auth/x#code=123456" };
    const named = codeMessage({
      ...input,
      title: "Acme ID",
      issuer: "https://id.example",
      appName: "Notes",
      locale: "en",
    });
    expect(named.text).toContain("the app “Notes” through Acme ID");
    expect(named.text).toContain("sent by Acme ID (https://id.example)");
    const unnamed = codeMessage({
      ...input,
      title: "Acme ID",
      issuer: "https://id.example",
      appName: "see https://evil.example",
      locale: "sl",
    });
    expect(unnamed.text).not.toContain("evil");
    expect(unnamed.text).toContain("v aplikacijo prek storitve Acme ID");
  });

  it("leaves the instance's title undeclined in Slovenian, whatever its gender and number", () => {
    const message = codeMessage({
      to: ["a@example.com"],
      code: "123456",
      link: "https://id.example/auth/x#code=123456",
      title: "Vrata",
      issuer: "https://id.example",
      appName: "Beležke",
      locale: "sl",
    });
    expect(message.subject).toBe("Vaša koda za storitev Vrata");
    expect(message.text).toContain("„Beležke“ prek storitve Vrata je:");
    expect(message.text).toContain("To sporočilo je poslala storitev Vrata (https://id.example)");
    expect(message.text).not.toMatch(/prek Vrat|poslal Vrata/);
  });
});
