import type { Activity, ApplicationReference, Change, Reference } from "../../common/api/activity.ts";
import { displayName } from "../../common/api/identity.ts";
import { pathFor } from "../../common/routes.ts";
import type { Caller } from "../access/caller.ts";
import { isAdmin } from "../access/documents.ts";
import { accessibleIdentities } from "../access/identities.ts";
import type { OrganizationDocument } from "../access/organizations.ts";
import type { Database } from "../store/database.ts";
import { findDocuments } from "../store/documents.ts";
import { findIdentities, membershipsAmong, membershipsIn, type IdentityRow } from "../store/identities.ts";
import type { TemplateDocument } from "../templates/templates.ts";

// Activity is recorded with IDs; a reader sees names, as far as they may see them today:
// - organizations and application templates: by name, which anybody may read, with a link;
// - an organization's application: by name while it is active (its page is public), or to the
//   organization's admins; linked while active;
// - an identity: when the reader's account can use it (linked to its page), or, for the admins of an
//   organization the entry is about, when it is a member there (linked to it as that organization sees
//   it). Any other identity stays unnamed: naming it would tell the reader about another
//   organization's people (design.md §1: organizations cannot correlate people).
// Each kind is looked up once per page of entries, whatever the number of entries.
//
// An organization's admins reading its activity see it as the organization does: only this
// organization and its applications, and people by the organization-scoped ID of their membership
// (or, for its admins, by the identity it lists as admin). Anyone else is left out of the entry.

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
  const administered = [...organizations.values()]
    .filter(({ document }) => isAdmin(caller, document.admins))
    .map(({ id }) => id);

  const scope = scopeOrganization && { id: scopeOrganization.id, admins: scopeOrganization.document.admins };
  // As the organization sees them, nobody is known through the reader's own account.
  const usable = scope ? new Map<string, unknown>() : await accessibleIdentities(db, caller.accountId);
  const others = ids.identities.filter((id) => !usable.has(id));
  const memberships = scope
    ? await membershipsIn(db, scope.id, others)
    : await membershipsAmong(db, others, administered);
  const admins = scope ? ids.identities.filter((id) => scope.admins.includes(id)) : [];
  const visible = [
    ...ids.identities.filter((id) => usable.has(id)),
    ...memberships.map((m) => m.identityId),
    ...admins,
  ];
  const identities = byId(await findIdentities(db, [...new Set(visible)]));
  return {
    scope,
    usable,
    organizations,
    templates,
    administered: new Set(administered),
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

/** An identity as the organization sees it: a member by its scoped ID, an admin as listed; else nobody. */
function scopedIdentityName(
  found: Found,
  organizationId: string,
  admins: readonly string[],
  { id }: Reference,
): Reference | undefined {
  const identity = found.identities.get(id);
  const membership = found.memberships.find((candidate) => candidate.identityId === id);
  if (identity && membership) {
    const path = pathFor("OrganizationIdentity", { id: organizationId, identityId: membership.id });
    return { id: membership.id, name: nameOf(identity), path };
  }
  if (admins.includes(id)) return identity ? { id, name: nameOf(identity) } : { id };
  return undefined;
}

/**
 * An identity named as the reader may see it; `organizationIds` are the organizations the entry is
 * about. Undefined when the reader reads as an organization that does not know it.
 */
function identityName(
  found: Found,
  reference: Reference,
  organizationIds: readonly string[],
): Reference | undefined {
  if (found.scope) return scopedIdentityName(found, found.scope.id, found.scope.admins, reference);
  const { id } = reference;
  const identity = found.identities.get(id);
  if (!identity) return { id };
  if (found.usable.has(id)) return { id, name: nameOf(identity), path: pathFor("IdentityGet", { id }) };
  const membership = found.memberships.find(
    (candidate) => candidate.identityId === id && organizationIds.includes(candidate.organizationId),
  );
  if (!membership) return { id };
  const path = pathFor("OrganizationIdentity", { id: membership.organizationId, identityId: membership.id });
  return { id, name: nameOf(identity), path };
}

/** Names the references of one entry or of one of its changes. */
function named<T extends Activity | Change>(found: Found, part: T, organizationIds: readonly string[]): T {
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
        const shown = identityName(found, reference, organizationIds);
        return shown ? [shown] : [];
      }),
    }),
  };
}

/** Who did what the entry records, as the reader may see them. */
function actorOf(found: Found, entry: Activity, organizationIds: readonly string[]) {
  const actor = entry.actor && identityName(found, entry.actor, organizationIds);
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
      ...named(found, entry, organizationIds),
      ...actorOf(found, entry, organizationIds),
      ...(entry.applicationTemplates && {
        applicationTemplates: entry.applicationTemplates.map((reference) => templateName(found, reference)),
      }),
      ...(entry.changes && {
        changes: entry.changes.map((change) => named(found, change, organizationIds)),
      }),
    };
  });
}
