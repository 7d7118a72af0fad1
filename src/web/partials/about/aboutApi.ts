import { queryOptions } from "@tanstack/react-query";
import { aboutSchema, documentTextSchema } from "../../../common/api/documents.ts";
import { apiPath } from "../../../common/routes.ts";
import { getJson } from "../../api.ts";

// The documents do not change while the server runs.

export const aboutQuery = queryOptions({
  queryKey: ["about"],
  queryFn: ({ signal }) => getJson(apiPath("About"), aboutSchema, signal),
  staleTime: "static",
});

export const documentTextQuery = (document: "License" | "Notice") =>
  queryOptions({
    queryKey: ["document", document],
    queryFn: ({ signal }) => getJson(apiPath(document), documentTextSchema, signal),
    staleTime: "static",
  });
