// Errors about fields of the template's form, each at the dotted path of its field in the request
// (`clientsPublic.0.redirectUriTemplates`), as the server names them in `ApiError.field`.

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

export interface FieldErrors {
  /** The message of the error about the field at `path`, if there is one. */
  readonly at: (path: string) => string | null;
  /** Whether an error is about a field at or under `path`, e.g. in a client's card. */
  readonly inside: (path: string) => boolean;
}

/**
 * The path of the field that shows an error about `field`: an entry of a list typed as one text
 * (`redirectUriTemplates.1`, `idScopes.0`) is shown at the list's field.
 */
export function shownAt(field: string): string {
  return field.replace(/(\.\d+)+$/, "");
}

export function fieldErrorsOf(errors: readonly FieldError[]): FieldErrors {
  return {
    at: (path) => errors.find((error) => error.field === path)?.message ?? null,
    inside: (path) => errors.some((error) => error.field === path || error.field.startsWith(`${path}.`)),
  };
}
