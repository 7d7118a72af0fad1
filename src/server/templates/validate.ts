import type { TemplateFields } from "../../common/api/template.ts";
import { isSecureUri } from "../../common/uris.ts";
import { HttpError } from "../http/errors.ts";
import { checkVariables, interpolate } from "./interpolate.ts";
import { uriTemplateFields, type UriErrorCode } from "./uri-fields.ts";

/** What a variable stands for while a template is checked on its own (reference §9.1). */
const sampleValue = "https://sub.example.com:8080/foo";

const unique = <T>(values: readonly T[]) => [...new Set(values)];

/** URI templates given in one field must use known variables only and give secure URIs. */
function checkUris(
  templates: readonly string[],
  values: ReadonlyMap<string, string>,
  code: UriErrorCode,
  field: string,
) {
  checkVariables(templates, values, field);
  for (const template of templates) {
    if (!isSecureUri(interpolate(template, values))) {
      throw new HttpError(400, code, `${template} must give an https:// URI without a fragment`, { field });
    }
  }
}

/**
 * Checks a template's rules that its schema cannot express and tidies it: scopes and URIs without
 * duplicates, unique variable names, URI templates that interpolate to secure URIs.
 */
export function validTemplate(fields: TemplateFields): TemplateFields {
  const names = fields.variables.map((variable) => variable.name);
  const duplicateAt = names.findIndex((name, index) => names.indexOf(name) !== index);
  const duplicate = names[duplicateAt];
  if (duplicate !== undefined)
    throw new HttpError(400, "duplicateVariable", `variable ${duplicate} is defined twice`, {
      field: `variables.${duplicateAt}.name`,
      values: [duplicate],
    });
  const samples = new Map(names.map((name) => [name, sampleValue]));

  const homepageTemplate = fields.homepageTemplate || (names.includes("uriBase") ? "{uriBase}" : "");
  for (const { field, code, templates } of uriTemplateFields({ ...fields, homepageTemplate })) {
    checkUris(templates, samples, code, field);
  }
  const tidyClient = <C extends { additionalScopes: string[] }>(client: C): C => ({
    ...client,
    additionalScopes: unique(client.additionalScopes),
  });
  const tidySignInClient = <C extends TemplateFields["clientsPublic"][number]>(client: C): C => ({
    ...tidyClient(client),
    redirectUriTemplates: unique(client.redirectUriTemplates),
    postLogoutRedirectUriTemplates: unique(client.postLogoutRedirectUriTemplates),
  });
  return {
    ...fields,
    homepageTemplate,
    idScopes: unique(fields.idScopes),
    clientsPublic: fields.clientsPublic.map(tidySignInClient),
    clientsBackend: fields.clientsBackend.map(tidySignInClient),
    clientsService: fields.clientsService.map(tidyClient),
    admins: unique(fields.admins),
  };
}
