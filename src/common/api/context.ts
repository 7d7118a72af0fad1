import { z } from "zod/mini";
import { locales } from "../limits.ts";

/** `GET /context.json`: what the web app needs to know before it renders anything (design.md §4). */
export const contextSchema = z.object({
  clientId: z.string(),
  redirectUri: z.url(),
  /** The built-in organization and its console application: the web app names them in the reader's language. */
  organizationId: z.string(),
  applicationId: z.string(),
  /** The account page's own client of the built-in organization (its sign-ins choose no identity). */
  account: z.object({ clientId: z.string(), redirectUri: z.url(), applicationId: z.string() }),
  title: z.string(),
  /** Third-party sign-in providers, each named in every language (the page picks the one it shows). */
  providers: z.array(
    z.object({
      key: z.string(),
      name: z.object({ en: z.string(), sl: z.string() }),
      type: z.enum(["oidc", "saml"]),
    }),
  ),
  locales: z.array(z.enum(locales)),
});

export type Context = z.infer<typeof contextSchema>;
