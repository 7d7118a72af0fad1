import type { Activity, ApplicationReference, Change, Reference } from "../../common/api/activity.ts";
import { displayName } from "../../common/api/identity.ts";
import { pathFor } from "../../common/routes.ts";
import type { Caller } from "../access/caller.ts";
import { accessibleIdentities } from "../access/identities.ts";
import { administeredAmong, type OrganizationDocument } from "../access/organizations.ts";
import type { Database } from "../store/database.ts";
import { findDocuments } from "../store/documents.ts";
import { findIdentities, membershipsAmong, type IdentityRow } from "../store/identities.ts";
import type { TemplateDocument } from "../templates/templates.ts";

// Activity is recorded with IDs; a reader sees names, as far as they may see them today:
// - organizations and application templates: by name, which anybody may read, with a link;
// - an organization's application: by name while it is active (its page is public), or to the
//   organization's admins; linked while active;
// - an identity: when the reader's account can use it, by its own ID (linked to its page); else, to the
//   admins of an organization the entry is about, as that organization sees it: a member by the
//   organization-scoped ID of its membership (linked to it there), an admin by the identity the
//   organization lists. Any other identity is left out of the entry, ID and all: its own ID would let
//   organizations that know the same person correlate them (design.md §1). Entries recorded before
//   name members by their own IDs; they are read through the same rule.
// Each kind is looked up once per page of entries, whatever the number of entries.
//
// An organization's admins reading its activity see it as the organization does: only this
// organization and its applications, and people as above, never through the reader's own account.

/** The organization whose activity is read, by its admins. */
export interface ScopeOrganization {
  id: string;
  document: OrganizationDocument;
}

function changesOf(entry: Activity): Change[] {
  return entry.changes ?? [];
}

function referencedIds(entries: readonly Activity[]) {
  const organizations = new Set<string>();
  const templates = new Set<string>();
  const identities = new Set<string>();
  for (const entry of entries) {
    if (entry.actor) identities.add(entry.actor.id);
    for (const part of [entry, ...changesOf(entry)]) {
      for (const { id } of part.organizations ?? []) organizations.add(id);
      for (const { organizationId } of part.applications ?? []) organizations.add(organizationId);
      for (const { id } of part.identities ?? []) identities.add(id);
    }
    for (const { id } of entry.applicationTemplates ?? []) templates.add(id);
  }
  return { organizations: [...organizations], templates: [...templates], identities: [...identities] };
}

const byId = <T extends { id: string }>(rows: readonly T[]) => new Map(rows.map((row) => [row.id, row]));

/** The names of what the entries refer to, looked up in one query per kind. */
async function lookUp(
  db: Database,
  caller: Caller,
  entries: readonly Activity[],
  scopeOrganization: ScopeOrganization | undefined,
) {
  const ids = referencedIds(entries);
  const organizations = byId(
    await findDocuments<OrganizationDocument>(db, "organizations", ids.organizations),
  );
  const templates = byId(await findDocuments<TemplateDocument>(db, "application_templates", ids.templates));
  const administered = scopeOrganization
    ? new Set([scopeOrganization.id])
    : await administeredAmong(db, caller, [...organizations.values()]);
  const adminsOf = (organizationId: string): readonly string[] =>
    organizationId === scopeOrganization?.id
      ? scopeOrganization.document.admins
      : (organizations.get(organizationId)?.document.admins ?? []);

  // As the organization sees them, nobody is known through the reader's own account.
  const usable = scopeOrganization
    ? new Map<string, unknown>()
    : await accessibleIdentities(db, caller.accountId);
  const others = ids.identities.filter((id) => !usable.has(id));
  const memberships = await membershipsAmong(db, others, [...administered]);
  // Admins are named as the organization lists them; in the reader's own activity, by ID only.
  const named = scopeOrganization
    ? others.filter((id) => scopeOrganization.document.admins.includes(id))
    : [];
  const visible = [
    ...ids.identities.filter((id) => usable.has(id)),
    ...memberships.map((m) => m.identityId),
    ...named,
  ];
  const identities = byId(await findIdentities(db, [...new Set(visible)]));
  return {
    scope: scopeOrganization?.id,
    usable,
    organizations,
    templates,
    administered,
    adminsOf,
    memberships,
    identities,
  };
}

type Found = Awaited<ReturnType<typeof lookUp>>;

function organizationName(found: Found, { id }: Reference): Reference {
  const organization = found.organizations.get(id);
  return organization
    ? { id, name: organization.document.name, path: pathFor("OrganizationGet", { id }) }
    : { id };
}

function templateName(found: Found, { id }: Reference): Reference {
  const template = found.templates.get(id);
  return template
    ? { id, name: template.document.name, path: pathFor("ApplicationTemplateGet", { id }) }
    : { id };
}

function applicationName(found: Found, reference: ApplicationReference): ApplicationReference {
  const { organizationId, applicationId } = reference;
  const application = found.organizations
    .get(organizationId)
    ?.document.applications.find((candidate) => candidate.id === applicationId);
  if (!application || !(application.active || found.administered.has(organizationId)))
    return { organizationId, applicationId };
  return {
    organizationId,
    applicationId,
    name: application.applicationTemplate.name,
    ...(application.active
      ? { path: pathFor("OrganizationApp", { id: organizationId, appId: applicationId }) }
      : {}),
  };
}

const nameOf = (identity: IdentityRow) => displayName({ id: identity.id, ...identity.document });

/**
 * An identity named as the reader may see it; `organizationIds` are the organizations the entry is
 * about, and `listed` says that the entry names it among the admins or users an organization, template
 * or identity lists, which their admins see by the identities' own IDs. Undefined when the reader may
 * not see it.
 */
function identityName(
  found: Found,
  { id }: Reference,
  organizationIds: readonly string[],
  listed: boolean,
): Reference | undefined {
  const identity = found.identities.get(id);
  if (found.usable.has(id))
    return identity ? { id, name: nameOf(identity), path: pathFor("IdentityGet", { id }) } : { id };
  const seenBy = (found.scope ? [found.scope] : organizationIds).filter((organizationId) =>
    found.administered.has(organizationId),
  );
  const membership = found.memberships.find(
    (candidate) => candidate.identityId === id && seenBy.includes(candidate.organizationId),
  );
  if (identity && membership) {
    const path = pathFor("OrganizationIdentity", {
      id: membership.organizationId,
      identityId: membership.id,
    });
    return { id: membership.id, name: nameOf(identity), path };
  }
  if (seenBy.some((organizationId) => found.adminsOf(organizationId).includes(id)))
    return identity ? { id, name: nameOf(identity) } : { id };
  // In the reader's own activity: as they listed it or found it listed, by ID only.
  return listed && !found.scope ? { id } : undefined;
}

/**
 * Types about organizations, templates and identities: their actors are their admins, and their
 * permission changes name the admins and users they list.
 */
const documentTypes: readonly Activity["type"][] = [
  "organizationCreate",
  "organizationUpdate",
  "applicationTemplateCreate",
  "applicationTemplateUpdate",
  "identityCreate",
  "identityUpdate",
];
const namesListed = (entry: Activity, change?: Change) =>
  documentTypes.includes(entry.type) &&
  (change === undefined || change.kind === "permissionsAdded" || change.kind === "permissionsRemoved");

/** Names the references of one entry or of one of its changes. */
function named<T extends Activity | Change>(
  found: Found,
  part: T,
  organizationIds: readonly string[],
  listed: boolean,
): T {
  return {
    ...part,
    ...(part.organizations && {
      organizations: part.organizations.map((reference) => organizationName(found, reference)),
    }),
    ...(part.applications && {
      applications: part.applications.map((reference) => applicationName(found, reference)),
    }),
    ...(part.identities && {
      identities: part.identities.flatMap((reference) => {
        const shown = identityName(found, reference, organizationIds, listed);
        return shown ? [shown] : [];
      }),
    }),
  };
}

/** Who did what the entry records, as the reader may see them. */
function actorOf(found: Found, entry: Activity, organizationIds: readonly string[]) {
  const actor = entry.actor && identityName(found, entry.actor, organizationIds, namesListed(entry));
  return actor ? { actor } : {};
}

const identityTypes: readonly Activity["type"][] = ["signIn", "signOut", "identityCreate", "identityUpdate"];

/** Only this organization's side of an entry: its own references, and changes about it. */
function organizationSide(entry: Activity, organizationId: string): Activity {
  const ofThis = (references: readonly Reference[] | undefined) =>
    references && references.filter(({ id }) => id === organizationId);
  const { actor: _actor, ...rest } = entry;
  const changes =
    entry.type === "identityUpdate"
      ? entry.changes
          ?.filter((change) => change.organizations?.some(({ id }) => id === organizationId))
          .map((change) => ({ ...change, organizations: ofThis(change.organizations) }))
      : entry.changes;
  // Who did it: the recorded actor, else the identity that signed in or changed itself.
  const actor = entry.actor ?? (identityTypes.includes(entry.type) ? entry.identities?.[0] : undefined);
  const organizations = ofThis(entry.organizations);
  const applications = entry.applications?.filter((reference) => reference.organizationId === organizationId);
  return {
    ...rest,
    ...(actor && { actor }),
    ...(organizations && { organizations }),
    ...(applications && { applications }),
    ...(changes && { changes }),
  };
}

/**
 * The entries with the names and pages of what they refer to, as the caller may see them; with an
 * organization, as that organization sees them (for its admins).
 */
export async function withNames(
  db: Database,
  caller: Caller,
  recorded: readonly Activity[],
  organization?: ScopeOrganization,
): Promise<Activity[]> {
  const entries = organization ? recorded.map((entry) => organizationSide(entry, organization.id)) : recorded;
  const found = await lookUp(db, caller, entries, organization);
  return entries.map((entry) => {
    const organizationIds = (entry.organizations ?? []).map(({ id }) => id);
    return {
      ...named(found, entry, organizationIds, false),
      ...actorOf(found, entry, organizationIds),
      ...(entry.applicationTemplates && {
        applicationTemplates: entry.applicationTemplates.map((reference) => templateName(found, reference)),
      }),
      ...(entry.changes && {
        changes: entry.changes.map((change) =>
          named(found, change, organizationIds, namesListed(entry, change)),
        ),
      }),
    };
  });
}
