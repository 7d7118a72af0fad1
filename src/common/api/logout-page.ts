import { z } from "zod/mini";
import { locales } from "../limits.ts";

/**
 * What the server puts into the logout pages of RP-initiated logout: the web app's HTML carrying this
 * as an inert JSON data block, as page errors are carried.
 */
export const logoutPageSchema = z.discriminatedUnion("page", [
  z.object({
    /** The app asked to end the person's session: they confirm with the engine's one-time token. */
    page: z.literal("confirm"),
    xsrf: z.string(),
    app: z.optional(z.object({ name: z.string() })),
    /**
     * The app proved the request comes from this session (its ID token as `id_token_hint`) and no
     * other app is signed in with it: the page signs out at once, as apps expect, without asking.
     */
    atOnce: z.optional(z.literal(true)),
    locale: z.optional(z.enum(locales)),
  }),
  z.object({
    /** The session has ended and the app named no page to go back to. */
    page: z.literal("signedOut"),
    app: z.optional(z.object({ name: z.string(), homepage: z.optional(z.url()) })),
    locale: z.optional(z.enum(locales)),
  }),
]);

export type LogoutPage = z.infer<typeof logoutPageSchema>;

/** The `id` of the `<script type="application/json">` element holding the logout page's data. */
export const logoutPageElementId = "vrata-logout-page";
