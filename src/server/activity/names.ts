import type { Activity, ApplicationReference, Change, Reference } from "../../common/api/activity.ts";
import { displayName } from "../../common/api/identity.ts";
import { pathFor } from "../../common/routes.ts";
import type { Caller } from "../access/caller.ts";
import { isAdmin } from "../access/documents.ts";
import { accessibleIdentities } from "../access/identities.ts";
import type { OrganizationDocument } from "../organizations/organizations.ts";
import type { Database } from "../store/database.ts";
import { findDocuments } from "../store/documents.ts";
import { findIdentities, membershipsAmong, type IdentityRow } from "../store/identities.ts";
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

function changesOf(entry: Activity): Change[] {
  return entry.changes ?? [];
}

function referencedIds(entries: readonly Activity[]) {
  const organizations = new Set<string>();
  const templates = new Set<string>();
  const identities = new Set<string>();
  for (const entry of entries) {
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
async function lookUp(db: Database, caller: Caller, entries: readonly Activity[]) {
  const ids = referencedIds(entries);
  const organizations = byId(
    await findDocuments<OrganizationDocument>(db, "organizations", ids.organizations),
  );
  const templates = byId(await findDocuments<TemplateDocument>(db, "application_templates", ids.templates));
  const administered = [...organizations.values()]
    .filter(({ document }) => isAdmin(caller, document.admins))
    .map(({ id }) => id);

  const usable = await accessibleIdentities(db, caller.accountId);
  const others = ids.identities.filter((id) => !usable.has(id));
  const memberships = await membershipsAmong(db, others, administered);
  const visible = [...ids.identities.filter((id) => usable.has(id)), ...memberships.map((m) => m.identityId)];
  const identities = byId(await findIdentities(db, [...new Set(visible)]));
  return { usable, organizations, templates, administered: new Set(administered), memberships, identities };
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

/** An identity named as the reader may see it; `organizationIds` are the organizations the entry is about. */
function identityName(found: Found, { id }: Reference, organizationIds: readonly string[]): Reference {
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
      identities: part.identities.map((reference) => identityName(found, reference, organizationIds)),
    }),
  };
}

/** The entries with the names and pages of what they refer to, as the caller may see them. */
export async function withNames(
  db: Database,
  caller: Caller,
  entries: readonly Activity[],
): Promise<Activity[]> {
  const found = await lookUp(db, caller, entries);
  return entries.map((entry) => {
    const organizationIds = (entry.organizations ?? []).map(({ id }) => id);
    return {
      ...named(found, entry, organizationIds),
      ...(entry.applicationTemplates && {
        applicationTemplates: entry.applicationTemplates.map((reference) => templateName(found, reference)),
      }),
      ...(entry.changes && {
        changes: entry.changes.map((change) => named(found, change, organizationIds)),
      }),
    };
  });
}
