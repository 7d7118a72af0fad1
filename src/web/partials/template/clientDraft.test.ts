import { describe, expect, it } from "vitest";
import { backendClientOf, draftOf, newDraft, publicClientOf, serviceClientOf } from "./clientDraft.ts";

describe("client drafts", () => {
  it("give new clients the defaults of reference §9.2", () => {
    const draft = newDraft({ variables: [{ name: "uriBase", description: "" }] });
    expect(draft.redirectUriTemplates).toBe("{uriBase}/oidc/redirect");
    expect(backendClientOf(draft)).toEqual({
      description: "",
      additionalScopes: [],
      accessTokenType: "hmac",
      accessTokenLifespan: 3600,
      idTokenLifespan: 3600,
      refreshTokenLifespan: 720 * 3600,
      redirectUriTemplates: ["{uriBase}/oidc/redirect"],
      tokenEndpointAuthMethod: "client_secret_post",
    });
    expect(newDraft({ variables: [] }).redirectUriTemplates).toBe("");
  });

  it("send back the server's ID and turn texts into lists, leaving out an empty refresh lifespan", () => {
    const draft = draftOf({
      id: "c1",
      description: "web",
      additionalScopes: ["a", "b"],
      accessTokenType: "jwt",
      accessTokenLifespan: 60,
      idTokenLifespan: 120,
      redirectUriTemplates: ["{uriBase}/one", "{uriBase}/two"],
    });
    const edited = {
      ...draft,
      redirectUriTemplates: ` x \n\n y `,
      additionalScopes: " c  d ",
      refreshTokenLifespan: "",
    };
    expect(publicClientOf(edited)).toEqual({
      id: "c1",
      description: "web",
      additionalScopes: ["c", "d"],
      accessTokenType: "jwt",
      accessTokenLifespan: 60,
      idTokenLifespan: 120,
      redirectUriTemplates: ["x", "y"],
    });
    expect(serviceClientOf(edited)).not.toHaveProperty("redirectUriTemplates");
  });
});
