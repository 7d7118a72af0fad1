import type Provider from "oidc-provider";
import type { Database } from "../store/database.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { InstanceSecrets } from "../secrets/instance-secrets.ts";
import type { ProviderRegistry } from "../providers/registry.ts";
import type { BackchannelLogouts } from "../oidc/backchannel-logout.ts";

/** What the flow's steps work with. */
export interface FlowDeps {
  db: Database;
  secrets: InstanceSecrets;
  provider: Provider;
  mailer: Mailer;
  issuer: string;
  title: string;
  /** The configured third-party providers. */
  providers: ProviderRegistry;
  /** Tells apps of single sign-on sessions that end. */
  logouts: BackchannelLogouts;
}
