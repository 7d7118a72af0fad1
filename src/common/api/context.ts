import { z } from "zod";
import { locales } from "../limits.ts";

/** `GET /context.json`: what the web app needs to know before it renders anything (design.md §4). */
export const contextSchema = z.object({
  clientId: z.string(),
  redirectUri: z.url(),
  organizationId: z.string(),
  title: z.string(),
  providers: z.array(z.object({ key: z.string(), name: z.string(), type: z.enum(["oidc", "saml"]) })),
  locales: z.array(z.enum(locales)),
});

export type Context = z.infer<typeof contextSchema>;
