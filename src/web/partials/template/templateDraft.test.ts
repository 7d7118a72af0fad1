import { describe, expect, it } from "vitest";
import type { Template } from "../../../common/api/template.ts";
import {
  changedFrom,
  newClient,
  newVariable,
  removedClients,
  templateDraftOf,
  templateEditOf,
} from "./templateDraft.ts";

const template: Template = {
  id: "t1",
  version: 3,
  canUpdate: true,
  name: "Wiki",
  description: "",
  homepageTemplate: "{uriBase}",
  idScopes: ["openid", "profile"],
  appScopes: [{ name: "a", description: { en: "A", sl: "A" } }],
  variables: [{ name: "uriBase", description: "Where the wiki is" }],
  clientsPublic: [
    {
      id: "c1",
      description: "web",
      additionalScopes: ["a"],
      accessTokenType: "jwt",
      accessTokenLifespan: 900,
      idTokenLifespan: 3600,
      redirectUriTemplates: ["{uriBase}/one", "{uriBase}/two"],
      postLogoutRedirectUriTemplates: ["{uriBase}/bye", "https://elsewhere.example/bye"],
      requirePushedAuthorizationRequests: true,
    },
  ],
  clientsBackend: [
    {
      id: "c3",
      description: "server",
      additionalScopes: [],
      accessTokenType: "hmac",
      accessTokenLifespan: 3600,
      idTokenLifespan: 3600,
      redirectUriTemplates: ["{uriBase}/server"],
      postLogoutRedirectUriTemplates: [],
      requirePushedAuthorizationRequests: false,
      tokenEndpointAuthMethod: "client_secret_post",
      backchannelLogoutUriTemplate: "{uriBase}/backchannel",
    },
  ],
  clientsService: [
    {
      id: "c2",
      description: "",
      additionalScopes: [],
      accessTokenType: "hmac",
      accessTokenLifespan: 3600,
      idTokenLifespan: 3600,
      refreshTokenLifespan: 7200,
      tokenEndpointAuthMethod: "client_secret_basic",
    },
  ],
  admins: ["i1"],
};

describe("template drafts", () => {
  it("name the saved clients a draft removed, and none that it only added", () => {
    const draft = templateDraftOf(template);
    const edited = {
      ...draft,
      clients: { ...draft.clients, backend: [], public: [...draft.clients.public, newClient("public", [])] },
    };
    expect(removedClients(template, edited)).toEqual([{ kind: "backend", description: "server" }]);
    expect(removedClients(template, draft)).toEqual([]);
  });

  it("keep a variable's default, and save an empty one as none", () => {
    const draft = templateDraftOf({
      ...template,
      variables: [{ name: "uriBase", description: "", default: "https://wiki.example" }],
    });
    expect(templateEditOf(draft).edit.variables).toEqual([
      { name: "uriBase", description: "", default: "https://wiki.example" },
    ]);
    const cleared = {
      ...draft,
      variables: draft.variables.map((variable) => ({ ...variable, default: "" })),
    };
    expect(templateEditOf(cleared).edit.variables).toEqual([{ name: "uriBase", description: "" }]);
  });

  it("give back the template's fields unchanged when nothing was edited", () => {
    const { edit, problems } = templateEditOf(templateDraftOf(template));
    expect(problems).toEqual([]);
    expect(edit.clientsPublic).toEqual([{ ...template.clientsPublic[0], refreshTokenLifespan: undefined }]);
    expect(edit.clientsBackend).toEqual([{ ...template.clientsBackend[0], refreshTokenLifespan: undefined }]);
    expect(edit.variables).toEqual(template.variables);
    expect(edit.idScopes).toEqual(["openid", "profile"]);
    expect(changedFrom(template, templateDraftOf(template))).toBe(false);
  });

  it("leave out of service clients the lifespans of tokens they never get", () => {
    const { edit } = templateEditOf(templateDraftOf(template));
    expect(edit.clientsService).toEqual([
      {
        id: "c2",
        description: "",
        additionalScopes: [],
        accessTokenType: "hmac",
        accessTokenLifespan: 3600,
        tokenEndpointAuthMethod: "client_secret_basic",
      },
    ]);
  });

  it("give new clients the defaults of reference §9.2", () => {
    const variables = [{ ...newVariable(), name: "uriBase" }];
    const draft = templateDraftOf({ ...template, clientsPublic: [], clientsBackend: [], clientsService: [] });
    const edited = {
      ...draft,
      clients: { ...draft.clients, backend: [newClient("backend", variables)] },
    };
    expect(templateEditOf(edited).edit.clientsBackend).toEqual([
      {
        description: "",
        additionalScopes: [],
        accessTokenType: "hmac",
        accessTokenLifespan: 3600,
        idTokenLifespan: 3600,
        refreshTokenLifespan: 720 * 3600,
        redirectUriTemplates: ["{uriBase}/oidc/redirect"],
        postLogoutRedirectUriTemplates: [],
        requirePushedAuthorizationRequests: false,
        tokenEndpointAuthMethod: "client_secret_post",
        backchannelLogoutUriTemplate: "",
      },
    ]);
    expect(newClient("public", []).redirectUriTemplates).toBe("");
    expect(newClient("service", variables).redirectUriTemplates).toBe("");
    expect(changedFrom(template, edited)).toBe(true);
  });

  it("carry a client's sign-out URIs and pushed requests setting, and only for the kinds that have them", () => {
    const draft = templateDraftOf(template);
    const [publicClient] = draft.clients.public;
    const [backendClient] = draft.clients.backend;
    if (!publicClient || !backendClient) throw new Error("the template has a public and a backend client");
    expect(publicClient).toMatchObject({
      postLogoutRedirectUriTemplates: "{uriBase}/bye\nhttps://elsewhere.example/bye",
      requirePushedAuthorizationRequests: true,
    });
    expect(backendClient.backchannelLogoutUriTemplate).toBe("{uriBase}/backchannel");

    const edited = {
      ...draft,
      clients: {
        ...draft.clients,
        public: [
          {
            ...publicClient,
            postLogoutRedirectUriTemplates: " {uriBase}/a \n\n b ",
            requirePushedAuthorizationRequests: false,
          },
        ],
        backend: [
          {
            ...backendClient,
            postLogoutRedirectUriTemplates: "{uriBase}/server/bye",
            backchannelLogoutUriTemplate: "  {uriBase}/logout  ",
            requirePushedAuthorizationRequests: true,
          },
        ],
      },
    };
    const { edit, problems } = templateEditOf(edited);
    expect(problems).toEqual([]);
    expect(edit.clientsPublic?.[0]).toMatchObject({
      postLogoutRedirectUriTemplates: ["{uriBase}/a", "b"],
      requirePushedAuthorizationRequests: false,
    });
    expect(edit.clientsPublic?.[0]).not.toHaveProperty("backchannelLogoutUriTemplate");
    expect(edit.clientsBackend?.[0]).toMatchObject({
      postLogoutRedirectUriTemplates: ["{uriBase}/server/bye"],
      backchannelLogoutUriTemplate: "{uriBase}/logout",
      requirePushedAuthorizationRequests: true,
    });
    expect(edit.clientsService?.[0]).not.toHaveProperty("requirePushedAuthorizationRequests");
    expect(changedFrom(template, edited)).toBe(true);
    // Taking the changes back leaves nothing to save.
    expect(changedFrom(template, draft)).toBe(false);
  });

  it("turn texts into lists and name the fields people must correct", () => {
    const draft = templateDraftOf(template);
    const [client] = draft.clients.public;
    if (!client) throw new Error("the template has a public client");
    const edited = {
      ...draft,
      idScopes: " openid  email ",
      name: " ",
      appScopes: [...draft.appScopes, { key: "k", name: " Email ", en: "", sl: "" }],
      variables: [...draft.variables, newVariable()],
      clients: {
        ...draft.clients,
        public: [
          {
            ...client,
            redirectUriTemplates: " x \n\n y ",
            additionalScopes: " a  email  d ",
            accessTokenLifespan: { amount: "0", unit: "hours" as const },
            refreshTokenLifespan: { amount: "2", unit: "days" as const },
          },
        ],
      },
    };
    const { edit, problems } = templateEditOf(edited);
    expect(edit.idScopes).toEqual(["openid", "email"]);
    expect(edit.clientsPublic?.[0]).toMatchObject({
      redirectUriTemplates: ["x", "y"],
      additionalScopes: ["a", "email", "d"],
      refreshTokenLifespan: 2 * 86_400,
    });
    expect(edit.appScopes?.[1]).toEqual({ name: "Email", description: { en: "", sl: "" } });
    expect(problems).toEqual([
      { field: "name", problem: "name" },
      { field: "variables.1.name", problem: "variableName" },
      { field: "clientsPublic.0.accessTokenLifespan", problem: "lifespan" },
      // Scopes are checked as the server checks them, each at its own field.
      { field: "appScopes.1.name", error: "reservedScopeName", values: ["Email"] },
      { field: "clientsPublic.0.additionalScopes.2", error: "unknownScope", values: ["d"] },
    ]);
    const withoutRedirects = {
      ...draft,
      clients: { ...draft.clients, public: [{ ...client, redirectUriTemplates: "\n " }] },
    };
    expect(templateEditOf(withoutRedirects).problems).toEqual([
      { field: "clientsPublic.0.redirectUriTemplates", problem: "redirectUris" },
    ]);
  });
});
