import type { ActivityChange, Change } from "../../common/api/activity.ts";
import type {
  Organization,
  OrganizationApplication,
  OrganizationFields,
  OrganizationUpdate,
} from "../../common/api/organization.ts";
import type { SignInPolicy } from "../../common/api/second-factor.ts";
import { recordActivity } from "../activity/activity.ts";
import { adminChanges, fieldChanges, groupedChanges } from "../activity/changes.ts";
import type { Caller } from "../access/caller.ts";
import { actingIdentity } from "../access/documents.ts";
import { HttpError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import { configurationNeeds } from "../../common/app-configuration.ts";
import type { Database } from "../store/database.ts";
import { insertDocument, listDocuments, replaceDocument } from "../store/documents.ts";
import { setClientSecretHash } from "../store/clients.ts";
import { applicationsUsed, findIdentity, findMembershipById, membershipsIn } from "../store/identities.ts";
import { forgetApplications } from "./applications.ts";
import { findBlockInForce } from "../store/blocks.ts";
import { accessibleIdentities } from "../access/identities.ts";
import {
  administeredOrganization,
  findOrganization,
  isOrganizationAdmin,
  type OrganizationDocument,
} from "../access/organizations.ts";
import { filledOrNone } from "../templates/interpolate.ts";
import { findTemplate } from "../templates/templates.ts";
import { uriProblem, uriTemplateFields } from "../templates/uri-fields.ts";
import { clientsOf, syncClients, valuesOf } from "./clients.ts";
import { tryClientKind } from "./try-client.ts";
import { hashClientSecret, newClientSecret } from "./secrets.ts";

export { findOrganization, type OrganizationDocument };

const table = "organizations";

export const listOrganizations = (db: Database) => listDocuments<OrganizationDocument>(db, table);

/** The organization as a reader sees it; its admins (`canUpdate`) also see its admins and applications. */
export function organizationView(
  id: string,
  version: number,
  document: OrganizationDocument,
  canUpdate: boolean,
): Organization {
  const base = {
    id,
    version,
    name: document.name,
    description: document.description,
    signInPolicy: document.signInPolicy ?? "any",
    active: document.active !== false,
    canUpdate,
  };
  return canUpdate ? { ...base, admins: document.admins, applications: document.applications } : base;
}

/**
 * The policy as the document keeps it: "any" is left out, as it is absent from documents written
 * before organizations had policies, so that both read and compare the same.
 */
const storedPolicy = (policy: SignInPolicy | undefined) =>
  policy === undefined || policy === "any" ? {} : { signInPolicy: policy };

export async function createOrganization(
  db: Database,
  caller: Caller,
  { name, description, signInPolicy }: OrganizationFields,
): Promise<string> {
  const editor = actingIdentity(caller);
  const id = newId();
  const document: OrganizationDocument = {
    name,
    description,
    admins: [editor],
    applications: [],
    ...storedPolicy(signInPolicy),
  };
  await insertDocument(db, table, id, document, Date.now());
  await recordActivity(
    db,
    caller.accountId,
    { type: "organizationCreate", actor: { id: editor }, organizations: [{ id }] },
    [{ organizationId: id }],
  );
  return id;
}

/** The organization's own status, activated or disabled. */
function statusChanges(id: string, before: boolean, after: boolean): Change[] {
  if (before === after) return [];
  return [{ kind: after ? "membershipActivated" : "membershipDisabled", organizations: [{ id }] }];
}

/** The identity's organization-scoped ID in the organization, if it is a member. */
async function membershipIdOf(db: Database, organizationId: string, identityId: string) {
  return (await membershipsIn(db, organizationId, [identityId]))[0]?.id;
}

/**
 * Values must name exactly the template's variables, each with a value (reference §2.3), and make
 * URIs without a problem (templates/uri-fields.ts). An app that needs configuration may keep lacking
 * the values it lacked (`lacking`) while another change of it is saved; one given must not be empty.
 */
function checkedValues(
  application: OrganizationApplication,
  reachInternal: boolean,
  lacking: readonly string[] = [],
): void {
  const expected = application.applicationTemplate.variables.map((variable) => variable.name).sort();
  const given = application.values.map((value) => value.name).sort();
  const missing = expected.filter((name) => !given.includes(name) && !lacking.includes(name));
  const extra = given.filter((name) => !expected.includes(name));
  const empty = application.values.filter((value) => value.value === "").map((value) => value.name);
  if (missing.length + extra.length + empty.length > 0) {
    const parts = [
      missing.length ? `missing ${missing.join(", ")}` : "",
      extra.length ? `extra ${extra.join(", ")}` : "",
      empty.length ? `empty ${empty.sort().join(", ")}` : "",
    ].filter(Boolean);
    throw new HttpError(400, "invalidValues", `values: ${parts.join("; ")}`);
  }
  const values = valuesOf(application);
  for (const uris of uriTemplateFields(application.applicationTemplate)) {
    for (const uri of uris.templates) {
      const filled = filledOrNone(uri, values);
      const problem = filled === undefined ? undefined : uriProblem(uris, filled, reachInternal);
      if (problem) throw new HttpError(400, problem.code, `${uri} with these values ${problem.rule}`);
    }
  }
}

/** A client that needed a secret has one once its admins ask for it (a rotation gives the first one). */
function withSecretsAsked(
  application: OrganizationApplication,
  asked: readonly string[],
): OrganizationApplication {
  const given = (clients: OrganizationApplication["clientsBackend"]) =>
    clients.map((client) => {
      if (!asked.includes(client.id)) return client;
      const { needsSecret: _given, ...rest } = client;
      return rest;
    });
  return {
    ...application,
    clientsBackend: given(application.clientsBackend),
    clientsService: given(application.clientsService),
  };
}

/** A template being added: a copy of it with new client IDs; backend and service clients get secrets. */
async function addedApplication(
  db: Database,
  change: { templateId: string; active: boolean; values: OrganizationApplication["values"] },
): Promise<OrganizationApplication> {
  const template = await findTemplate(db, change.templateId);
  if (!template) throw new HttpError(400, "unknownTemplate", `no application template ${change.templateId}`);
  const { admins: _admins, ...copy } = template.document;
  const clientsFor = (clients: { id?: string | undefined }[]) =>
    clients.map((client) => ({ id: newId(), templateClientId: client.id ?? "" }));
  return {
    id: newId(),
    active: change.active,
    templateId: change.templateId,
    applicationTemplate: copy,
    values: change.values,
    clientsPublic: clientsFor(copy.clientsPublic),
    clientsBackend: clientsFor(copy.clientsBackend),
    clientsService: clientsFor(copy.clientsService),
  };
}

function applicationChanges(
  organizationId: string,
  before: OrganizationApplication[],
  after: OrganizationApplication[],
): Change[] {
  const changed: { kind: ActivityChange; item: string }[] = [];
  for (const application of after) {
    const previous = before.find((candidate) => candidate.id === application.id);
    if (!previous) changed.push({ kind: "membershipAdded", item: application.id });
    else {
      if (JSON.stringify(previous.values) !== JSON.stringify(application.values))
        changed.push({ kind: "membershipChanged", item: application.id });
      if (previous.active !== application.active)
        changed.push({
          kind: application.active ? "membershipActivated" : "membershipDisabled",
          item: application.id,
        });
    }
  }
  for (const application of before) {
    if (!after.some((candidate) => candidate.id === application.id))
      changed.push({ kind: "membershipRemoved", item: application.id });
  }
  return groupedChanges(changed, (kind, ids) => ({
    kind,
    applications: ids.map((applicationId) => ({ organizationId, applicationId })),
  }));
}

/**
 * Admins can be removed by an update, never added: making someone's identity an admin needs their
 * consent, so a new admin is invited and becomes one by accepting. The editor always stays.
 */
function keptAdmins(stored: readonly string[], wanted: readonly string[], editor: string): string[] {
  const added = wanted.filter((admin) => !stored.includes(admin));
  if (added.length > 0) {
    throw new HttpError(403, "adminByInvitation", `invite ${added.join(", ")} to become admins instead`);
  }
  return stored.filter((admin) => admin === editor || wanted.includes(admin));
}

/** Makes an identity that accepted an invitation an admin; false when it already was one. */
export async function addAdmin(db: Database, id: string, identityId: string): Promise<boolean> {
  // Saved over the version read: a concurrent save makes it read again rather than lose either change.
  for (let attempt = 0; attempt < 5; attempt++) {
    const stored = await findOrganization(db, id);
    if (!stored) throw new HttpError(404, "notFound", "no such organization");
    if (stored.document.admins.includes(identityId)) return false;
    const document = { ...stored.document, admins: [...stored.document.admins, identityId] };
    if (await replaceDocument(db, table, id, stored.version, document, Date.now())) return true;
  }
  throw new HttpError(409, "conflict", "the organization keeps changing; try again");
}

export async function updateOrganization(
  db: Database,
  caller: Caller,
  id: string,
  update: OrganizationUpdate,
  /** Its apps' URIs that Vrata calls may name internal hosts (--backchannel-logout-private). */
  reachInternal: boolean,
): Promise<Organization> {
  const { editor, stored } = await administeredOrganization(db, caller, id);

  const applications: OrganizationApplication[] = [];
  for (const change of update.applications) {
    if ("templateId" in change) {
      const added = await addedApplication(db, change);
      checkedValues(added, reachInternal);
      applications.push(added);
      continue;
    }
    const existing = stored.document.applications.find((application) => application.id === change.id);
    if (!existing) throw new HttpError(400, "badRequest", `no application ${change.id} in this organization`);
    const changed = { ...existing, active: change.active, values: change.values };
    checkedValues(changed, reachInternal, configurationNeeds(existing).variables);
    applications.push(withSecretsAsked(changed, update.rotateSecrets));
  }

  const wasActive = stored.document.active !== false;
  const active = update.active ?? wasActive;
  const document: OrganizationDocument = {
    name: update.name,
    description: update.description,
    admins: keptAdmins(stored.document.admins, update.admins, editor),
    applications,
    ...(active ? {} : { active: false }),
    ...storedPolicy(update.signInPolicy ?? stored.document.signInPolicy),
  };
  // The test client has no secret to rotate.
  const clientIds = new Set(
    applications
      .flatMap(clientsOf)
      .filter((client) => client.kind !== tryClientKind)
      .map((client) => client.id),
  );
  const unknownRotation = update.rotateSecrets.find((clientId) => !clientIds.has(clientId));
  if (unknownRotation) throw new HttpError(400, "badRequest", `no client ${unknownRotation} to rotate`);

  if (!(await replaceDocument(db, table, id, update.version, document, Date.now()))) {
    throw new HttpError(409, "conflict", "the organization was changed meanwhile; reload and try again");
  }
  await syncClients(db, id, applications, active);
  forgetApplications(db);

  // New confidential clients and rotated ones get a secret, shown in this answer only.
  const known = new Set(stored.document.applications.flatMap(clientsOf).map((client) => client.id));
  const confidential = applications.flatMap((application) => [
    ...application.clientsBackend,
    ...application.clientsService,
  ]);
  const secrets: { clientId: string; secret: string }[] = [];
  for (const { id: clientId } of confidential) {
    if (known.has(clientId) && !update.rotateSecrets.includes(clientId)) continue;
    const secret = newClientSecret();
    await setClientSecretHash(db, clientId, hashClientSecret(secret));
    secrets.push({ clientId, secret });
  }

  const changes: Change[] = [
    ...fieldChanges(stored.document, document, ["name", "description", "signInPolicy"]),
    ...adminChanges(stored.document.admins, document.admins),
    ...applicationChanges(id, stored.document.applications, applications),
    ...statusChanges(id, wasActive, active),
  ];
  if (changes.length > 0) {
    await recordActivity(
      db,
      caller.accountId,
      { type: "organizationUpdate", actor: { id: editor }, organizations: [{ id }], changes },
      [{ organizationId: id, membershipId: await membershipIdOf(db, id, editor) }],
    );
  }
  return {
    ...organizationView(id, update.version + 1, document, true),
    ...(secrets.length ? { secrets } : {}),
  };
}

/**
 * An identity as the organization sees it, by its organization-scoped ID: for the organization's
 * admins and for the people who can use the identity. Its private description is not shown.
 */
export async function organizationIdentity(
  db: Database,
  caller: Caller,
  organizationId: string,
  scopedId: string,
) {
  const organization = await findOrganization(db, organizationId);
  const membership = await findMembershipById(db, scopedId);
  if (!organization || membership?.organizationId !== organizationId) {
    throw new HttpError(404, "notFound", "no such identity in this organization");
  }
  const callerIsAdmin = await isOrganizationAdmin(db, caller, organization);
  const canUse = (await accessibleIdentities(db, caller.accountId)).has(membership.identityId);
  const identity = (callerIsAdmin || canUse) && (await findIdentity(db, membership.identityId));
  if (!identity) throw new HttpError(404, "notFound", "no such identity in this organization");
  const { username, email, givenName, fullName, pictureUrl } = identity.document;
  const applications = (await applicationsUsed(db, [membership.id])).get(membership.id) ?? [];
  const blocked = (await findBlockInForce(db, organizationId, membership.identityId)) !== undefined;
  return {
    id: scopedId,
    organizationId,
    active: membership.active,
    blocked,
    admin: organization.document.admins.includes(membership.identityId),
    applications,
    username,
    email,
    givenName,
    fullName,
    pictureUrl,
  };
}
