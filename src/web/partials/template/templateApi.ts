import { queryOptions, type QueryClient } from "@tanstack/react-query";
import type { z } from "zod/mini";
import { createdSchema } from "../../../common/api/identity.ts";
import {
  templateSchema,
  type Template,
  type TemplateFields,
  type templateUpdateSchema,
} from "../../../common/api/template.ts";
import { documentListSchema } from "../../../common/api/summary.ts";
import { apiPath, apiPrefix, pathFor } from "../../../common/routes.ts";
import { getJson, postJson } from "../../api.ts";

export const templatesKey = ["templates"] as const;

export const templatesQuery = queryOptions({
  queryKey: [...templatesKey, "list"],
  queryFn: ({ signal }) => getJson(apiPath("ApplicationTemplateList"), documentListSchema, signal),
});

export function templateQuery(id: string) {
  return queryOptions({
    queryKey: [...templatesKey, "one", id],
    queryFn: ({ signal }) =>
      getJson(apiPrefix + pathFor("ApplicationTemplateGet", { id }), templateSchema, signal),
  });
}

export async function createTemplate(fields: Pick<TemplateFields, "name">): Promise<string> {
  return (await postJson(apiPath("ApplicationTemplateCreate"), fields, createdSchema)).id;
}

type TemplateUpdate = z.input<typeof templateUpdateSchema>;

/** The editable fields of a loaded template, to send back with a section's changes. */
export function fieldsOf(template: Template): TemplateUpdate {
  const {
    id: _id,
    canUpdate: _canUpdate,
    ownAdminIdentities: _ownAdminIdentities,
    organizationsUsing: _organizationsUsing,
    ...fields
  } = template;
  return fields;
}

/** Saves the whole template over `version`, and updates the cache from the answer. */
export async function updateTemplate(
  queryClient: QueryClient,
  id: string,
  body: TemplateUpdate,
): Promise<Template> {
  const updated = await postJson(
    apiPrefix + pathFor("ApplicationTemplateUpdate", { id }),
    body,
    templateSchema,
  );
  queryClient.setQueryData(templateQuery(id).queryKey, updated);
  await queryClient.invalidateQueries({ queryKey: templatesQuery.queryKey });
  return updated;
}
