import type { TFunction } from "../../i18n/index.ts";
import type {
  Activity,
  ActivityType,
  ApplicationReference,
  Change,
  Reference,
} from "../../../common/api/activity.ts";
import type { Context } from "../../../common/api/context.ts";
import { applicationName, organizationName } from "../../builtInNames.ts";
import { providerName } from "../../providers.ts";

// Activity in words: each entry becomes a headline ("Created the organization Acme") and one sentence
// per kind of change ("Added the application Timesheets"). The names in them are links, so a sentence
// is built as parts: plain text, and the references the server named (or left unnamed).

export type ReferenceKind = "identity" | "organization" | "application" | "applicationTemplate";

/** A named item inside a sentence; `path` is where it links to, when the reader can open it. */
export interface NamePart {
  readonly name: string;
  readonly path?: string | undefined;
}
export type Part = string | NamePart;
export type Sentence = readonly Part[];

/** The name a reader sees for a reference, or none when the server left it unnamed. */
export type Namer = (
  kind: ReferenceKind,
  reference: Reference | ApplicationReference,
) => NamePart | undefined;

/**
 * Names as the server gave them, except the built-in organization and console, which are named in the
 * reader's language.
 */
export function namer(t: TFunction, context: Pick<Context, "organizationId" | "applicationId">): Namer {
  return (kind, reference) => {
    if (reference.name === undefined) return undefined;
    const { name, path } = reference;
    if (kind === "organization" && "id" in reference)
      return { name: organizationName(t, context, reference.id, name), path };
    if (kind === "application" && "applicationId" in reference)
      return { name: applicationName(t, context, reference.applicationId, name), path };
    return { name, path };
  };
}

// Markers that stand for a slot in a translated text until it is split into parts: a private-use
// character, which no translation contains.
const slotMarker = (slot: string) => `\uE000${slot}\uE000`;
const slotPattern = /\uE000(\w+)\uE000/;

/**
 * A translated text with `{{slot}}` placeholders filled by parts: `t` fills each slot with a marker,
 * and the text is then split at the markers.
 */
function withSlots(text: (markers: Record<string, string>) => string, slots: Record<string, Part[]>): Part[] {
  const markers = Object.fromEntries(Object.keys(slots).map((slot) => [slot, slotMarker(slot)]));
  const pieces = text(markers).split(slotPattern);
  // split() with a capturing group alternates text and slot names.
  return pieces.flatMap((piece, index) => (index % 2 === 0 ? (piece ? [piece] : []) : (slots[piece] ?? [])));
}

/** Parts joined as a list in the reader's language ("A, B and C", "A, B in C"). */
function listed(language: string, items: readonly Part[]): Part[] {
  const format = new Intl.ListFormat(language, { type: "conjunction" });
  const parts = format.formatToParts(items.map((_, index) => String(index)));
  return parts.map((part) => (part.type === "element" ? (items[Number(part.value)] ?? "") : part.value));
}

/** Joins neighbouring text parts, so that a sentence compares and renders as few pieces as possible. */
function merged(parts: readonly Part[]): Sentence {
  const result: Part[] = [];
  for (const part of parts) {
    const last = result.at(-1);
    if (typeof part === "string" && typeof last === "string") result[result.length - 1] = last + part;
    else result.push(part);
  }
  return result;
}

/** The plain text of a sentence (for titles and tests). */
export function sentenceText(sentence: Sentence): string {
  return sentence.map((part) => (typeof part === "string" ? part : part.name)).join("");
}

interface Words {
  readonly t: TFunction;
  readonly language: string;
  readonly name: Namer;
  /** A third-party provider's name by its key. */
  readonly provider?: (key: string) => string;
}

/** Types about one of the account's sign-in methods, named in the entry as it was then. */
const credentialTypes = ["credentialAdd", "credentialUpdate", "credentialRemove"] as const;
type CredentialType = (typeof credentialTypes)[number];
const isCredentialType = (type: ActivityType): type is CredentialType =>
  (credentialTypes as readonly ActivityType[]).includes(type);

/** What the headline of each type names: the item the entry is about, for types about one. */
/** Types whose headline names nothing: what happened to the account, or to an identity that is gone. */
const unnamedTypes = [
  "accountBlocked",
  "identityRemoved",
  "accountDeletionRequested",
  "accountDeletionCancelled",
] as const;
type UnnamedType = (typeof unnamedTypes)[number];
const isUnnamedType = (type: ActivityType): type is UnnamedType =>
  (unnamedTypes as readonly ActivityType[]).includes(type);

const subjects: Record<Exclude<ActivityType, UnnamedType | CredentialType>, ReferenceKind> = {
  signIn: "application",
  signOut: "application",
  backchannelLogoutFailed: "application",
  sessionEnd: "application",
  appDisconnect: "application",
  identityCreate: "identity",
  identityUpdate: "identity",
  organizationCreate: "organization",
  organizationUpdate: "organization",
  applicationTemplateCreate: "applicationTemplate",
  applicationTemplateUpdate: "applicationTemplate",
  applicationTemplateFollowed: "application",
  identityBlocked: "identity",
  identityUnblocked: "identity",
};

export function referencesOf(
  entry: Activity | Change,
  kind: ReferenceKind,
): (Reference | ApplicationReference)[] {
  switch (kind) {
    case "identity":
      return entry.identities ?? [];
    case "organization":
      return entry.organizations ?? [];
    case "application":
      return entry.applications ?? [];
    case "applicationTemplate":
      return "applicationTemplates" in entry ? (entry.applicationTemplates ?? []) : [];
  }
}

/** "Created the organization Acme"; "Created an identity" when the reader may not see its name. */
export function headline({ t, name, provider }: Words, entry: Activity): Sentence {
  const { type } = entry;
  if (isUnnamedType(type)) return [t(`activity.headlines.${type}.unnamed`)];
  if (isCredentialType(type)) return credentialHeadline(t, type, entry, provider);
  // A type this page does not know yet (a newer server's): named in general words.
  if (!Object.hasOwn(subjects, type)) return [t("activity.headlines.other")];
  const kind = subjects[type];
  const [subject] = referencesOf(entry, kind);
  const named = subject && name(kind, subject);
  if (!named) return [t(`activity.headlines.${type}.unnamed`)];
  return merged(
    withSlots((markers) => t(`activity.headlines.${type}.named`, { name: markers.name }), { name: [named] }),
  );
}

/** The second factor each credential entry may be about, which it names as a whole. */
const secondFactorHeadlines = {
  credentialAdd: { provider: "totp", key: "activity.headlines.credentialAdd.totp" },
  credentialRemove: { provider: "totp", key: "activity.headlines.credentialRemove.totp" },
  credentialUpdate: { provider: "recoveryCodes", key: "activity.headlines.credentialUpdate.recoveryCodes" },
} as const satisfies Record<CredentialType, { provider: string; key: string }>;

/**
 * "Added the passkey “Phone”": passkeys by the name they had; "Linked Google": third-party providers
 * by their name; other methods as a sign-in method.
 */
function credentialHeadline(
  t: TFunction,
  type: CredentialType,
  entry: Activity,
  provider?: (key: string) => string,
): Sentence {
  const { credential } = entry;
  const [key] = entry.providers ?? [];
  // The password as a whole; an e-mail address by itself (made primary, for an update).
  if (key === "password") return [t(`activity.headlines.${type}.password`)];
  if (key === "email" && credential)
    return [t(`activity.headlines.${type}.email`, { name: credential.name })];
  if (provider && key !== undefined && !isBuiltInProvider(key) && type !== "credentialUpdate")
    return [t(`activity.headlines.${type}.provider`, { provider: provider(key) })];
  const secondFactor = secondFactorHeadlines[type];
  if (key === secondFactor.provider) return [t(secondFactor.key)];
  if (!credential || !entry.providers?.includes("passkey")) return [t(`activity.headlines.${type}.unnamed`)];
  return [
    t(`activity.headlines.${type}.named`, {
      name: credential.name,
      previousName: credential.previousName ?? credential.name,
    }),
  ];
}

type Verb = "Added" | "Removed" | "Changed" | "Activated" | "Disabled";
type PhraseKey =
  | "adminsAdded"
  | "adminsRemoved"
  | "usersAdded"
  | "usersRemoved"
  | "identitiesAdded"
  | "identitiesRemoved"
  | `applications${Verb}`
  | `organizations${Verb}`
  | "organizationActivated"
  | "organizationDisabled";

const membershipVerbs = {
  membershipAdded: "Added",
  membershipRemoved: "Removed",
  membershipChanged: "Changed",
  membershipActivated: "Activated",
  membershipDisabled: "Disabled",
} as const;

/** The phrase of a change and the items it is about. */
function phraseOf(
  type: ActivityType,
  change: Change,
): { key: PhraseKey; kind: ReferenceKind; items: (Reference | ApplicationReference)[] } | undefined {
  switch (change.kind) {
    case "otherData":
      return undefined;
    case "permissionsAdded":
    case "permissionsRemoved": {
      const added = change.kind === "permissionsAdded";
      const users = change.role === "user";
      // People an identity was shared with are named as they were named then; they have no page.
      const people = (change.people ?? []).map((person) => ({ id: person, name: person }));
      return {
        key: users ? (added ? "usersAdded" : "usersRemoved") : added ? "adminsAdded" : "adminsRemoved",
        kind: "identity",
        items: [...(change.identities ?? []), ...people],
      };
    }
    case "identitiesAdded":
    case "identitiesRemoved":
      return { key: change.kind, kind: "identity", items: change.identities ?? [] };
    default: {
      // A membership change: an organization's applications, or an identity's organizations; an
      // organization's own status is a change of the organization itself.
      const verb = membershipVerbs[change.kind];
      const items = change.organizations ?? [];
      if (type !== "organizationCreate" && type !== "organizationUpdate")
        return { key: `organizations${verb}`, kind: "organization", items };
      if (change.applications !== undefined || change.organizations === undefined)
        return { key: `applications${verb}`, kind: "application", items: change.applications ?? [] };
      if (verb === "Activated" || verb === "Disabled")
        return { key: `organization${verb}`, kind: "organization", items };
      return { key: `organizations${verb}`, kind: "organization", items };
    }
  }
}

/**
 * A change as a sentence. With every item named: "Added the applications A and B"; with some the
 * reader may not see: "Added 2 applications"; from before changes recorded their items: "Added
 * applications".
 */
export function changeSentence({ t, language, name }: Words, type: ActivityType, change: Change): Sentence {
  if (change.kind === "otherData") {
    if (!change.fields?.length) return [t("activity.changes.otherData.vague")];
    const fields = change.fields.map((field) => t(`activity.changedFields.${field}`));
    return [t("activity.changes.otherData.fields", { fields: new Intl.ListFormat(language).format(fields) })];
  }
  const phrase = phraseOf(type, change);
  if (!phrase) return [];
  const { key, kind, items } = phrase;
  if (items.length === 0) return [t(`activity.changes.${key}.vague`)];
  const names = items.map((item) => name(kind, item));
  const count = items.length;
  if (!names.every((part) => part !== undefined)) return [t(`activity.changes.${key}.counted`, { count })];
  return merged(
    withSlots((markers) => t(`activity.changes.${key}.named`, { count, names: markers.names }), {
      names: listed(language, names),
    }),
  );
}

const builtInProviders = ["password", "code", "passkey", "totp", "recoveryCodes", "recoveryCode"] as const;

function isBuiltInProvider(provider: string): provider is (typeof builtInProviders)[number] {
  return (builtInProviders as readonly string[]).includes(provider);
}

/** A sign-in method: Vrata's own in words, a third-party provider by its configured name. */
export function providerText(
  t: TFunction,
  context: Pick<Context, "providers">,
  provider: string,
  language: string,
): string {
  if (isBuiltInProvider(provider)) return t(`activity.providers.${provider}`);
  const configured = context.providers.find(({ key }) => key === provider);
  return configured ? providerName(configured, language) : provider;
}
