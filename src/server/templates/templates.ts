import type { Change } from "../../common/api/activity.ts";
import type { Template, TemplateFields } from "../../common/api/template.ts";
import { recordActivity } from "../activity/activity.ts";
import { adminChanges, fieldChanges } from "../activity/changes.ts";
import type { Caller } from "../access/caller.ts";
import { actingIdentity, checkedAdmins, isAdmin } from "../access/documents.ts";
import { HttpError } from "../http/errors.ts";
import { newId } from "../ids.ts";
import type { Database } from "../store/database.ts";
import { findDocument, insertDocument, listDocuments, replaceDocument } from "../store/documents.ts";
import { withSettingDefaults } from "./stored.ts";
import { validTemplate } from "./validate.ts";

export type TemplateDocument = TemplateFields;

const table = "application_templates";

/** New clients get server-made IDs; a client that claims an ID must be one the template has. */
function withClientIds(fields: TemplateFields, existing?: TemplateDocument): TemplateFields {
  const known = new Set(
    [
      ...(existing?.clientsPublic ?? []),
      ...(existing?.clientsBackend ?? []),
      ...(existing?.clientsService ?? []),
    ].map((client) => client.id),
  );
  const assign = <C extends { id?: string | undefined }>(client: C): C => {
    if (client.id !== undefined && !known.has(client.id)) {
      throw new HttpError(400, "badRequest", `unknown client ${client.id}`);
    }
    return { ...client, id: client.id ?? newId() };
  };
  return {
    ...fields,
    clientsPublic: fields.clientsPublic.map(assign),
    clientsBackend: fields.clientsBackend.map(assign),
    clientsService: fields.clientsService.map(assign),
  };
}

export function templateView(
  id: string,
  version: number,
  document: TemplateDocument,
  caller?: Caller,
): Template {
  const canUpdate = isAdmin(caller, document.admins);
  // Admins are visible to admins only.
  return { ...document, admins: canUpdate ? document.admins : [], id, version, canUpdate };
}

export async function createTemplate(
  db: Database,
  caller: Caller,
  fields: TemplateFields,
  /** URIs that Vrata calls may name internal hosts (--backchannel-logout-private). */
  reachInternal: boolean,
): Promise<string> {
  const editor = actingIdentity(caller);
  const id = newId();
  const document = withClientIds(
    validTemplate({ ...fields, admins: await checkedAdmins(db, fields.admins, editor) }, reachInternal),
  );
  await insertDocument(db, table, id, document, Date.now());
  await recordActivity(db, caller.accountId, {
    type: "applicationTemplateCreate",
    actor: { id: editor },
    applicationTemplates: [{ id }],
  });
  return id;
}

export async function findTemplate(db: Database, id: string) {
  const stored = await findDocument<TemplateDocument>(db, table, id);
  return stored && { ...stored, document: withSettingDefaults(stored.document) };
}

/** The templates as their list shows them: their clients' settings are not read. */
export const listTemplates = (db: Database) => listDocuments<TemplateDocument>(db, table);

/** The fields whose changes activity names: all but the admins, which it records as they are. */
export const recordedFields = [
  "name",
  "description",
  "homepageTemplate",
  "idScopes",
  "appScopes",
  "variables",
  "clientsPublic",
  "clientsBackend",
  "clientsService",
] as const satisfies readonly Exclude<keyof TemplateDocument, "admins">[];

function changesBetween(before: TemplateDocument, after: TemplateDocument): Change[] {
  return [...fieldChanges(before, after, recordedFields), ...adminChanges(before.admins, after.admins)];
}

export async function updateTemplate(
  db: Database,
  caller: Caller,
  id: string,
  version: number,
  fields: TemplateFields,
  reachInternal: boolean,
): Promise<Template> {
  const editor = actingIdentity(caller);
  const stored = await findTemplate(db, id);
  if (!stored) throw new HttpError(404, "notFound", "no such application template");
  if (!stored.document.admins.includes(editor))
    throw new HttpError(403, "forbidden", "only admins can change it");
  const document = withClientIds(
    validTemplate({ ...fields, admins: await checkedAdmins(db, fields.admins, editor) }, reachInternal),
    stored.document,
  );
  if (!(await replaceDocument(db, table, id, version, document, Date.now()))) {
    throw new HttpError(409, "conflict", "the template was changed meanwhile; reload and try again");
  }
  const changes = changesBetween(stored.document, document);
  if (changes.length > 0) {
    await recordActivity(db, caller.accountId, {
      type: "applicationTemplateUpdate",
      actor: { id: editor },
      applicationTemplates: [{ id }],
      changes,
    });
  }
  return templateView(id, version + 1, document, caller);
}
