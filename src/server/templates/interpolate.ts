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

/**
 * The template filled in, or undefined when it uses a name without a value: an app whose template
 * added a variable it has no value for yet leaves such URIs out until its organization gives one.
 */
export function filledOrNone(template: string, values: ReadonlyMap<string, string>): string | undefined {
  const names = [...template.matchAll(placeholder)].map((match) => match[1] ?? "");
  return names.every((name) => values.has(name)) ? interpolate(template, values) : undefined;
}
