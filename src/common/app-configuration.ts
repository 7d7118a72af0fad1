import type { OrganizationApplication } from "./api/organization.ts";

/**
 * What an organization must still give its app after the app's template changed: a value for each
 * variable the template added without a default, and a secret for each confidential client it added.
 * Until then the app keeps working with what it has; the URIs that use a missing value are left out.
 */
export interface ConfigurationNeeds {
  readonly variables: string[];
  /** Client IDs. */
  readonly secrets: string[];
}

export function configurationNeeds(
  application: Pick<
    OrganizationApplication,
    "applicationTemplate" | "values" | "clientsBackend" | "clientsService"
  >,
): ConfigurationNeeds {
  const given = new Set(application.values.filter(({ value }) => value !== "").map(({ name }) => name));
  return {
    variables: application.applicationTemplate.variables
      .map(({ name }) => name)
      .filter((name) => !given.has(name)),
    secrets: [...application.clientsBackend, ...application.clientsService]
      .filter((client) => client.needsSecret)
      .map((client) => client.id),
  };
}

/** Whether the app is marked "needs configuration". */
export function needsConfiguration(needs: ConfigurationNeeds): boolean {
  return needs.variables.length + needs.secrets.length > 0;
}
