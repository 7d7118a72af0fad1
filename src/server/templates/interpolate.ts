import { HttpError } from "../http/errors.ts";

const placeholder = /\{([^}]+)\}/g;

/**
 * Replaces every `{name}` with the variable's value. Unknown names are an error that lists them,
 * sorted (spec §3).
 */
export function interpolate(template: string, values: ReadonlyMap<string, string>): string {
  const unknown = new Set<string>();
  const result = template.replace(placeholder, (match, name: string) => {
    const value = values.get(name);
    if (value === undefined) unknown.add(name);
    return value ?? match;
  });
  if (unknown.size > 0) {
    throw new HttpError(400, "unknownVariables", `unknown variables: ${[...unknown].sort().join(", ")}`);
  }
  return result;
}
