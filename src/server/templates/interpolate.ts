import { HttpError } from "../http/errors.ts";

const placeholder = /\{([^}]+)\}/g;

/**
 * Refuses templates that use names without a value: the error lists them all, sorted (spec §3), and
 * names the field the templates were given in.
 */
export function checkVariables(
  templates: readonly string[],
  values: ReadonlyMap<string, string>,
  field?: string,
): void {
  const used = templates.flatMap((template) =>
    [...template.matchAll(placeholder)].map((match) => match[1] ?? ""),
  );
  const unknown = [...new Set(used.filter((name) => !values.has(name)))].sort();
  if (unknown.length > 0) {
    throw new HttpError(400, "unknownVariables", `unknown variables: ${unknown.join(", ")}`, {
      values: unknown,
      ...(field === undefined ? {} : { field }),
    });
  }
}

/** Replaces every `{name}` with the variable's value; unknown names are refused as by {@link checkVariables}. */
export function interpolate(template: string, values: ReadonlyMap<string, string>, field?: string): string {
  checkVariables([template], values, field);
  return template.replace(placeholder, (match, name: string) => values.get(name) ?? match);
}
