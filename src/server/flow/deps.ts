import type Provider from "oidc-provider";
import type { Database } from "../store/database.ts";
import type { Mailer } from "../mail/mailer.ts";

/** What the flow's steps work with. */
export interface FlowDeps {
  db: Database;
  provider: Provider;
  mailer: Mailer;
  issuer: string;
  title: string;
  /** Key of the tags that mark a browser as known to an account (flow/known-device.ts). */
  knownDeviceKey: Buffer;
}
