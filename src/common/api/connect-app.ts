import { z } from "zod/mini";
import { idText, typedText } from "./text.ts";

// Connecting an app in one step: Vrata makes an application template with one client of the app's
// kind, adds it to an organization (a new one, or one the caller administers) and hands over what
// the app is configured with.

/**
 * What kind of app is connected, each made as one client: a single-page app signs people in as a
 * public client with PKCE, a web app with a server as a backend client with a secret, an API or
 * service gets tokens of its own (client credentials), and a native or command-line app signs people
 * in as a public client on a loopback redirect (RFC 8252).
 */
export const appKinds = ["singlePage", "webServer", "service", "native"] as const;
export type AppKind = (typeof appKinds)[number];

/** The kinds a browser comes back to at the address where the app runs: they are asked for it. */
export const kindsAtAnAddress: readonly AppKind[] = ["singlePage", "webServer"];

/** Where a native or command-line app listens for the browser's return; any port (RFC 8252 §7.3). */
export const loopbackRedirectUri = "http://127.0.0.1/callback";

/** The address as given, without the white space and the trailing slashes that would double a `/`. */
export const tidyAddress = (address: string) => address.trim().replace(/\/+$/, "");

/** The URIs derived from where the app runs: where people come back after signing in and after signing out. */
export function derivedUris(address: string) {
  const base = tidyAddress(address);
  return { redirectUri: `${base}/callback`, postLogoutRedirectUri: `${base}/` };
}

export const connectAppSchema = z.strictObject({
  kind: z.enum(appKinds),
  name: typedText(200).check(z.minLength(1)),
  /** Where the app runs, such as `http://localhost:3000`: for the kinds of {@link kindsAtAnAddress}. */
  address: z._default(typedText(2000), ""),
  /** An organization the caller administers that gets the app; without it, a new organization does. */
  organizationId: z.optional(idText()),
  /** The new organization's name; the app's name when absent. */
  organizationName: z.optional(typedText(200).check(z.minLength(1))),
});
export type ConnectApp = z.infer<typeof connectAppSchema>;

/** `POST /api/start`: where the app now is, and the secret of its client (a confidential one), once. */
export const connectedAppSchema = z.object({
  organizationId: z.string(),
  applicationId: z.string(),
  templateId: z.string(),
  secrets: z.array(z.object({ clientId: z.string(), secret: z.string() })),
});
export type ConnectedApp = z.infer<typeof connectedAppSchema>;
