import { describe, expect, it } from "vitest";
import { webPageFile } from "./web-page.ts";

describe("the web app's page for an address", () => {
  it("is the light page where a person arrives from an app", () => {
    expect(webPageFile("/auth/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG")).toBe("card.html");
    expect(webPageFile("/auth/oidc/authorize?client_id=app&ui_locales=sl")).toBe("card.html");
    expect(webPageFile("/auth/oidc/authorize/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG")).toBe("card.html");
    expect(webPageFile("/auth/oidc/logout")).toBe("card.html");
    expect(webPageFile("/auth/oidc/logout/success")).toBe("card.html");
    expect(webPageFile("/about")).toBe("card.html");
    expect(webPageFile("/LICENSE")).toBe("card.html");
  });

  it("is the console's page everywhere else, unknown addresses too", () => {
    expect(webPageFile("/")).toBe("index.html");
    expect(webPageFile("/?code=x&state=y")).toBe("index.html");
    expect(webPageFile("/i")).toBe("index.html");
    expect(webPageFile("/o/someOrganization")).toBe("index.html");
    expect(webPageFile("/auth/a/b")).toBe("index.html");
    expect(webPageFile("/About")).toBe("index.html");
  });
});
