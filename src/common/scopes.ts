// Scopes a template's clients may be granted: the OpenID scopes the engine knows, and the scopes an
// app defines for its own API. The same rules check a template when it is typed, when it is saved and
// when a stored one is read at start, so none reaches the token endpoint to fail there.

/** The OpenID scopes the engine supports, for every client. */
export const openIdScopes = ["openid", "offline_access", "profile", "email"] as const;

/** The OpenID scopes that give an app data of the person's identity, in the order pages name them. */
export const personalDataScopes = ["profile", "email"] as const;
export type PersonalDataScope = (typeof personalDataScopes)[number];

/** A new template's OpenID scopes: what relying parties ask for unless told otherwise. */
export const defaultIdScopes = ["openid", "profile", "email"];

/**
 * Names an app may not define: they are the OpenID scopes' (the ones the engine supports and the
 * standard ones it does not), whatever their case, so no app scope passes for one of them.
 */
const reservedScopeNames = new Set([...openIdScopes, "address", "phone"]);

/** The longest name of an app's scope. */
const appScopeNameMaxLength = 100;

/** A letter or digit first, then letters, digits and `: . _ - /` (`orders:read`, `api/v1.write`). */
const appScopeNamePattern = new RegExp(`^[A-Za-z0-9][A-Za-z0-9:._/-]{0,${appScopeNameMaxLength - 1}}$`);

export type ScopeProblemCode = "invalidScopeName" | "reservedScopeName" | "duplicateScope" | "unknownScope";

/** What is wrong with a name for an app's scope, if anything. */
export function appScopeNameProblem(name: string): "invalidScopeName" | "reservedScopeName" | undefined {
  if (!appScopeNamePattern.test(name)) return "invalidScopeName";
  if (reservedScopeNames.has(name.toLowerCase())) return "reservedScopeName";
  return undefined;
}

export const isOpenIdScope = (scope: string): boolean => (openIdScopes as readonly string[]).includes(scope);

/** One problem with a template's scopes, at the dotted path of its field (`appScopes.0.name`). */
export interface ScopeProblem {
  readonly field: string;
  readonly code: ScopeProblemCode;
  readonly scope: string;
}

/** The parts of a template (or an organization's copy of one) that say which scopes its clients get. */
export interface TemplateScopes {
  readonly idScopes: readonly string[];
  readonly appScopes?: readonly { readonly name: string }[] | undefined;
  readonly clientsPublic: readonly { readonly additionalScopes: readonly string[] }[];
  readonly clientsBackend: readonly { readonly additionalScopes: readonly string[] }[];
  readonly clientsService: readonly { readonly additionalScopes: readonly string[] }[];
}

/**
 * Every problem with a template's scopes, in the order of its fields: app scope names that are
 * malformed, reserved or defined twice; OpenID scopes the engine does not know; additional scopes of
 * clients that are neither OpenID scopes nor the template's own.
 */
export function templateScopeProblems(template: TemplateScopes): ScopeProblem[] {
  const problems: ScopeProblem[] = [];
  const defined = new Set<string>();
  (template.appScopes ?? []).forEach(({ name }, index) => {
    const field = `appScopes.${index}.name`;
    const code = appScopeNameProblem(name) ?? (defined.has(name) ? "duplicateScope" : undefined);
    if (code) problems.push({ field, code, scope: name });
    defined.add(name);
  });
  template.idScopes.forEach((scope, index) => {
    if (!isOpenIdScope(scope)) problems.push({ field: `idScopes.${index}`, code: "unknownScope", scope });
  });
  const clientLists = ["clientsPublic", "clientsBackend", "clientsService"] as const;
  for (const list of clientLists) {
    template[list].forEach((client, clientIndex) => {
      client.additionalScopes.forEach((scope, index) => {
        if (isOpenIdScope(scope) || defined.has(scope)) return;
        problems.push({
          field: `${list}.${clientIndex}.additionalScopes.${index}`,
          code: "unknownScope",
          scope,
        });
      });
    });
  }
  return problems;
}

/**
 * The scopes a client of the template is granted, split the way the engine takes them: OpenID scopes,
 * and the template's own. A scope that is neither (in a template stored before these rules) is left
 * out, so the client still works and a request for that scope is refused.
 */
export function grantedScopes(
  template: Pick<TemplateScopes, "idScopes" | "appScopes">,
  additionalScopes: readonly string[],
): { openId: string[]; app: string[] } {
  const all = [...new Set([...template.idScopes, ...additionalScopes])];
  const defined = new Set((template.appScopes ?? []).map(({ name }) => name));
  return {
    openId: all.filter(isOpenIdScope),
    app: all.filter((scope) => !isOpenIdScope(scope) && defined.has(scope)),
  };
}

/**
 * How an app's scope is told to a person in `language`: its description there, else the other
 * language's, else its name.
 */
export function scopeDescription(
  scope: { readonly name: string; readonly description: Readonly<Record<"en" | "sl", string>> },
  language: string | undefined,
): string {
  const { en, sl } = scope.description;
  const [first, second] = language?.startsWith("sl") ? [sl, en] : [en, sl];
  return first || second || scope.name;
}
