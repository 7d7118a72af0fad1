import { z } from "zod/mini";
import { flowIdPattern, providerKeyPattern } from "../ids.ts";
import { locales } from "../limits.ts";

/**
 * Why the server answered a page request with an error page: the web app's HTML carrying this as an
 * inert JSON data block, which the app reads at start and shows as a translated page instead of the
 * view the address names.
 */
export const pageErrorSchema = z.object({
  /** A stable code: `notFound`, `unexpected`, or the OIDC engine's error (`invalid_client`, ...). */
  error: z.string(),
  /** For a fault of the server: the ID its log names the request by. */
  requestId: z.optional(z.string()),
  /** The language the app asked for with `ui_locales`, used unless the person chose one. */
  locale: z.optional(z.enum(locales)),
  /** The app that sent the person here, when the server knows it and its homepage. */
  app: z.optional(z.object({ name: z.string(), homepage: z.url() })),
  /** For a refused third-party provider's answer: the check it failed (`samlExpired`, ...). */
  reason: z.optional(z.string()),
  /** The third-party provider whose answer was refused, by its key in the context. */
  provider: z.optional(z.string().check(z.regex(providerKeyPattern))),
  /**
   * Where the person goes on from a refused provider's answer: the sign-in it was for, which still
   * waits, or the account page that was linking the provider. Absent when the answer names neither.
   */
  resume: z.optional(
    z.union([z.object({ flowId: z.string().check(z.regex(flowIdPattern)) }), z.literal("account")]),
  ),
});

export type PageError = z.infer<typeof pageErrorSchema>;

/** The `id` of the `<script type="application/json">` element holding the page error. */
export const pageErrorElementId = "vrata-page-error";
