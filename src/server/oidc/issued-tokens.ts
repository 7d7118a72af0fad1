import type { FastifyBaseLogger } from "fastify";
import type Provider from "oidc-provider";
import { logEvent } from "../operations/events.ts";
import { tokensIssued } from "../operations/metrics.ts";
import type { AppAccount } from "./accounts.ts";

/**
 * Each answer of the token endpoint that issued tokens is counted by grant type and logged with the
 * client and the subject the tokens are about (the app's own identifier of the person, or none for a
 * service client), never a token.
 */
export function reportIssuedTokens(provider: Provider, log: FastifyBaseLogger): void {
  provider.on("grant.success", (ctx) => {
    const requested = ctx.oidc.params?.grant_type;
    const grant = typeof requested === "string" ? requested : "unknown";
    tokensIssued.inc({ grant });
    // The identity the app knows, never the account behind it.
    const subject = (ctx.oidc.account as AppAccount | undefined)?.membershipId;
    logEvent(log, "tokenIssued", {
      clientId: ctx.oidc.client?.clientId ?? "unknown",
      grant,
      ...(subject === undefined ? {} : { subject }),
    });
  });
}
