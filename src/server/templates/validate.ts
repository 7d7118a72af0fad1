import type { TemplateFields } from "../../common/api/template.ts";
import { templateScopeProblems } from "../../common/scopes.ts";
import { HttpError } from "../http/errors.ts";
import { checkVariables, interpolate } from "./interpolate.ts";
import { uriProblem, uriTemplateFields, type UriTemplateField } from "./uri-fields.ts";

/** What a variable stands for while a template is checked on its own (reference §9.1). */
const sampleValue = "https://sub.example.com:8080/foo";

const unique = <T>(values: readonly T[]) => [...new Set(values)];

/** URI templates given in one field must use known variables only and give URIs without a problem. */
function checkUris(uris: UriTemplateField, values: ReadonlyMap<string, string>, reachInternal: boolean) {
  const { field, templates } = uris;
  checkVariables(templates, values, field);
  for (const template of templates) {
    const problem = uriProblem(uris, interpolate(template, values), reachInternal);
    if (problem) throw new HttpError(400, problem.code, `${template} ${problem.rule}`, { field });
  }
}

const scopeMessages = {
  invalidScopeName: "is not a scope name: a letter or digit, then letters, digits and :._-/, at most 100",
  reservedScopeName: "is an OpenID scope's name",
  duplicateScope: "is defined twice",
  unknownScope: "is neither an OpenID scope nor one the template defines",
} as const;

/** The template's scopes must be ones the engine will accept for its clients (common/scopes.ts). */
function checkScopes(fields: TemplateFields): void {
  const [problem] = templateScopeProblems(fields);
  if (problem) {
    throw new HttpError(400, problem.code, `scope ${problem.scope} ${scopeMessages[problem.code]}`, {
      field: problem.field,
      values: [problem.scope],
    });
  }
}

/**
 * Checks a template's rules that its schema cannot express and tidies it: scopes and URIs without
 * duplicates, scopes the engine accepts, unique variable names, URI templates that interpolate to
 * secure URIs, and ones Vrata calls that name no internal host unless it may call such hosts
 * (`reachInternal`).
 */
export function validTemplate(fields: TemplateFields, reachInternal: boolean): TemplateFields {
  checkScopes(fields);
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
  for (const uris of uriTemplateFields({ ...fields, homepageTemplate })) {
    checkUris(uris, samples, reachInternal);
  }
  // Apps that get a variable's default use it as it is: the URIs must be right with it too.
  if (fields.variables.some((variable) => variable.default)) {
    const defaults = new Map(
      fields.variables.map((variable) => [variable.name, variable.default || sampleValue]),
    );
    for (const uris of uriTemplateFields({ ...fields, homepageTemplate })) {
      checkUris(uris, defaults, reachInternal);
    }
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
    // No default is stored as none.
    variables: fields.variables.map(({ default: fallback, ...variable }) =>
      fallback ? { ...variable, default: fallback } : variable,
    ),
    clientsPublic: fields.clientsPublic.map(tidySignInClient),
    clientsBackend: fields.clientsBackend.map(tidySignInClient),
    clientsService: fields.clientsService.map(tidyClient),
    admins: unique(fields.admins),
  };
}
