import { describe, expect, it } from "vitest";
import {
  activityChanges,
  activityTypes,
  type Activity,
  type ActivityType,
  type Change,
} from "../../../common/api/activity.ts";
import { catalogs } from "../../i18n/catalogs.ts";
import { createTranslator, type TFunction } from "../../i18n/translator.ts";
import { changeSentence, headline, namer, providerText, sentenceText, type Namer } from "./activityText.ts";

const context = { organizationId: "builtInOrganization", applicationId: "console" };
const translations: Record<string, TFunction> = {
  en: createTranslator("en", catalogs.en).t,
  sl: createTranslator("sl", catalogs.sl).t,
};

function words(language: "en" | "sl") {
  const t = translations[language] as TFunction;
  return { t, language, name: namer(t, context) };
}

const entry = (type: ActivityType, rest: Partial<Activity> = {}): Activity => ({
  id: "entry",
  timestamp: "2025-01-01T00:00:00.000Z",
  type,
  ...rest,
});

const application = (applicationId: string, name?: string) => ({
  organizationId: "acme",
  applicationId,
  ...(name === undefined ? {} : { name, path: `/o/app/acme/${applicationId}` }),
});

const inBoth = (build: (language: "en" | "sl") => string) => [build("en"), build("sl")];
const changeIn = (type: ActivityType, change: Change) =>
  inBoth((language) => sentenceText(changeSentence(words(language), type, change)));
const headlineIn = (activity: Activity) =>
  inBoth((language) => sentenceText(headline(words(language), activity)));

describe("activity headlines", () => {
  it("name what the entry is about, as a link when the reader can open it", () => {
    const created = entry("organizationCreate", {
      organizations: [{ id: "acme", name: "Acme", path: "/o/acme" }],
    });
    expect(headlineIn(created)).toEqual(["Created the organization Acme", "Ustvarjena organizacija Acme"]);
    expect(headline(words("en"), created)).toEqual([
      "Created the organization ",
      { name: "Acme", path: "/o/acme" },
    ]);
  });

  it("leave unnamed what the reader may not see", () => {
    expect(headlineIn(entry("identityUpdate", { identities: [{ id: "someone" }] }))).toEqual([
      "Changed an identity",
      "Spremenjena identiteta",
    ]);
    expect(headline(words("en"), entry("identityUpdate", { identities: [{ id: "someone" }] }))).toEqual([
      "Changed an identity",
    ]);
  });

  it("name the built-in console and organization in the reader's language", () => {
    const signIn = entry("signIn", {
      applications: [{ ...application("console", "Console"), organizationId: "x" }],
    });
    expect(headlineIn(signIn)).toEqual(["Signed in to Console", "Prijava v aplikacijo Konzola"]);
    const signOut = entry("signOut", {
      applications: [{ ...application("console", "Console"), organizationId: "x" }],
    });
    expect(headlineIn(signOut)).toEqual(["Signed out of Console", "Odjava iz aplikacije Konzola"]);
    // Entries recorded before sign-outs named their app.
    expect(headlineIn(entry("signOut"))).toEqual(["Signed out", "Odjava"]);
    const name = namer(translations.sl as TFunction, context);
    expect(name("organization", { id: "builtInOrganization", name: "Vrata" })?.name).toBe("Vrata");
    expect(name("application", application("other", "Console"))?.name).toBe("Console");
  });
});

describe("change sentences", () => {
  it("say which fields changed, as a list in the reader's language", () => {
    expect(changeIn("organizationUpdate", { kind: "otherData", fields: ["name", "description"] })).toEqual([
      "Changed the name and description",
      "Spremenjeno: ime in opis",
    ]);
    expect(changeIn("identityUpdate", { kind: "otherData", fields: ["username"] })).toEqual([
      "Changed the username",
      "Spremenjeno: uporabniško ime",
    ]);
  });

  it("name added applications with the plural form of their number", () => {
    const added = (...names: string[]) =>
      changeIn("organizationUpdate", {
        kind: "membershipAdded",
        applications: names.map((name, index) => application(String(index), name)),
      });
    expect(added("Timesheets")).toEqual(["Added the application Timesheets", "Dodana aplikacija Timesheets"]);
    expect(added("Timesheets", "Wiki")).toEqual([
      "Added the applications Timesheets and Wiki",
      "Dodani aplikaciji Timesheets in Wiki",
    ]);
    expect(added("A", "B", "C")).toEqual([
      "Added the applications A, B, and C",
      "Dodane aplikacije A, B in C",
    ]);
  });

  it("keep the names as links", () => {
    const sentence = changeSentence(words("sl"), "organizationUpdate", {
      kind: "membershipDisabled",
      applications: [application("a", "Wiki")],
    });
    expect(sentence).toEqual(["Onemogočena aplikacija ", { name: "Wiki", path: "/o/app/acme/a" }]);
  });

  it("count what the reader may not see, in Slovenian's four plural forms", () => {
    const removed = (count: number) =>
      changeIn("organizationUpdate", {
        kind: "membershipRemoved",
        applications: Array.from({ length: count }, (_, index) => application(String(index))),
      });
    expect(removed(1)).toEqual(["Removed an application", "Odstranjena 1 aplikacija"]);
    expect(removed(2)).toEqual(["Removed 2 applications", "Odstranjeni 2 aplikaciji"]);
    expect(removed(3)).toEqual(["Removed 3 applications", "Odstranjene 3 aplikacije"]);
    expect(removed(5)).toEqual(["Removed 5 applications", "Odstranjenih 5 aplikacij"]);
    // One unnamed item among named ones: counted, so that nothing is left out.
    const mixed = {
      kind: "permissionsRemoved" as const,
      identities: [{ id: "a", name: "ana" }, { id: "b" }],
    };
    expect(changeIn("applicationTemplateUpdate", mixed)).toEqual([
      "2 identities are no longer admins",
      "Odvzete skrbniške pravice za 2 identiteti",
    ]);
  });

  it("word a membership change by what the entry is about", () => {
    const organizations = [{ id: "acme", name: "Acme", path: "/o/acme" }];
    expect(changeIn("identityUpdate", { kind: "membershipAdded", organizations })).toEqual([
      "Joined the organization Acme",
      "Pridružitev organizaciji Acme",
    ]);
    expect(
      changeIn("organizationUpdate", { kind: "identitiesAdded", identities: [{ id: "i", name: "ana" }] }),
    ).toEqual(["The identity ana joined", "Pridružila se je identiteta ana"]);
  });

  it("keep entries from before changes had details readable", () => {
    expect(changeIn("organizationUpdate", { kind: "otherData" })).toEqual([
      "Changed other data",
      "Spremenjeni drugi podatki",
    ]);
    expect(changeIn("organizationUpdate", { kind: "membershipAdded" })).toEqual([
      "Added applications",
      "Dodane aplikacije",
    ]);
  });

  it("has a text for every type and every change of every type, in both languages", () => {
    const named: Namer = (_kind, reference) => ({ name: "X", path: reference.path });
    for (const language of ["en", "sl"] as const) {
      const t = translations[language] as TFunction;
      const missing = (text: string) => text.includes("activity.") || text === "";
      for (const type of activityTypes) {
        const subject = { id: "x", name: "X" };
        const full = entry(type, {
          identities: [subject],
          organizations: [subject],
          applicationTemplates: [subject],
          applications: [application("x", "X")],
        });
        for (const activity of [full, entry(type)]) {
          expect(missing(sentenceText(headline({ t, language, name: named }, activity))), type).toBe(false);
        }
        for (const kind of activityChanges) {
          const details = {
            identities: [subject],
            organizations: [subject],
            applications: [application("x")],
          };
          for (const change of [{ kind }, { kind, ...details }, { kind, fields: ["name" as const] }]) {
            const text = sentenceText(changeSentence({ t, language, name: named }, type, change));
            expect(missing(text), `${language} ${type} ${kind}`).toBe(false);
          }
        }
      }
    }
  });
});

describe("passkey entries", () => {
  it("name the passkey as it was named then, and any other method vaguely", () => {
    const passkey = { id: "p", name: "Phone" };
    expect(headlineIn(entry("credentialAdd", { providers: ["passkey"], credential: passkey }))).toEqual([
      "Added the passkey “Phone”",
      "Dodan ključ za dostop »Phone«",
    ]);
    const renamed = { ...passkey, name: "Old phone", previousName: "Phone" };
    expect(headlineIn(entry("credentialUpdate", { providers: ["passkey"], credential: renamed }))).toEqual([
      "Renamed the passkey “Phone” to “Old phone”",
      "Preimenovan ključ za dostop »Phone« v »Old phone«",
    ]);
    expect(headlineIn(entry("credentialRemove", { providers: ["passkey"], credential: passkey }))).toEqual([
      "Removed the passkey “Phone”",
      "Odstranjen ključ za dostop »Phone«",
    ]);
    expect(headlineIn(entry("credentialRemove", { providers: ["username"] }))).toEqual([
      "Removed a sign-in method",
      "Odstranjen način prijave",
    ]);
  });

  it("name the password as a whole and an e-mail address by itself", () => {
    expect(headlineIn(entry("credentialAdd", { providers: ["password"] }))).toEqual([
      "Set a password",
      "Nastavljeno geslo",
    ]);
    expect(headlineIn(entry("credentialRemove", { providers: ["password"] }))).toEqual([
      "Removed the password",
      "Odstranjeno geslo",
    ]);
    const email = { id: "e", name: "ana@example.com" };
    expect(headlineIn(entry("credentialUpdate", { providers: ["email"], credential: email }))).toEqual([
      "Made ana@example.com the primary e-mail address",
      "Naslov ana@example.com je postal glavni e-poštni naslov",
    ]);
  });
});

describe("sign-in methods", () => {
  it("names Vrata's own methods in words and third-party providers by their name", () => {
    const t = translations.en as TFunction;
    const providers = {
      providers: [{ key: "corp", name: { en: "Company", sl: "Podjetje" }, type: "oidc" as const }],
    };
    expect(providerText(t, providers, "password", "en")).toBe("Password or passphrase");
    expect(providerText(t, providers, "corp", "en")).toBe("Company");
    expect(providerText(t, providers, "corp", "sl")).toBe("Podjetje");
    expect(providerText(t, providers, "unknown", "en")).toBe("unknown");
  });
});
