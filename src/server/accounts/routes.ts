import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import {
  accountPasskeyCreateBodySchema,
  credentialRenameBodySchema,
  emailAddBodySchema,
  passwordRemoveBodySchema,
  passwordSetBodySchema,
} from "../../common/api/account.ts";
import { codeBodySchema, emptyBodySchema } from "../../common/api/flow.ts";
import { totpSetUpCompleteBodySchema } from "../../common/api/second-factor.ts";
import { apiPrefix, routes, type RouteName } from "../../common/routes.ts";
import { parseBody } from "../http/body.ts";
import { requireConsoleCaller, type CallerDeps } from "../access/caller.ts";
import { requireFreshSignIn } from "../access/fresh-sign-in.ts";
import { preferredLocale } from "../http/locale.ts";
import {
  type AccountDeps,
  accountView,
  completePasskeyCreation,
  isUpstreamCredential,
  ownCredential,
  removePasskey,
  renamePasskey,
  startPasskeyCreation,
} from "./account-passkeys.ts";
import { startProviderLink, unlinkProvider, type ProviderLinkDeps } from "./account-providers.ts";
import {
  completeAccountTotpSetUp,
  regenerateRecoveryCodes,
  removeTotp,
  startAccountTotpSetUp,
  type SecondFactorDeps,
} from "./account-second-factors.ts";
import { disconnectApp, listConnectedApps, type ConnectedAppDeps } from "./account-apps.ts";
import { callingBrowser, endOtherSessions, endSession, listSessions } from "./account-sessions.ts";
import {
  addEmail,
  cancelEmail,
  makeEmailPrimary,
  removeEmail,
  removePassword,
  setPassword,
  verifyEmail,
  type SignInMethodDeps,
} from "./account-sign-in-methods.ts";
import { passkeyProvider } from "./passkeys.ts";
import { totpProvider } from "./totp.ts";
import { HttpError } from "../http/errors.ts";
import { accountActivityQuerySchema, securityCategories } from "../../common/api/activity.ts";
import { activityPage } from "../activity/activity.ts";
import { accountExport } from "./account-export.ts";
import { accountExportFileName } from "../../common/api/account-export.ts";

const credentialId = (request: FastifyRequest) => (request.params as { id: string }).id;

/**
 * The account page's API: its sign-in methods listed, passkeys added, renamed and removed, and its
 * second factors (an authenticator app, recovery codes) managed.
 */
export const accountPlugin: FastifyPluginAsync<{
  deps: CallerDeps & AccountDeps & ProviderLinkDeps & SecondFactorDeps & ConnectedAppDeps & SignInMethodDeps;
}> = (app, { deps }) => {
  const { db } = deps;
  const post = (
    name: RouteName,
    handler: (request: FastifyRequest, accountId: string, reply: FastifyReply) => Promise<unknown>,
  ) => {
    for (const url of [routes[name].path, apiPrefix + routes[name].path])
      app.post(url, async (request, reply) =>
        handler(request, (await requireConsoleCaller(deps, request)).accountId, reply),
      );
  };
  const freshSignIn = (request: FastifyRequest, reply: FastifyReply, accountId: string) => () =>
    requireFreshSignIn(deps, request, reply, accountId);

  app.get(apiPrefix + routes.Account.path, async (request) =>
    accountView(db, (await requireConsoleCaller(deps, request)).accountId),
  );
  // The account's security activity, and everything Vrata holds about it as a download.
  app.get(apiPrefix + routes.AccountActivity.path, async (request) => {
    const caller = await requireConsoleCaller(deps, request);
    const query = parseBody(accountActivityQuerySchema, request.query);
    return activityPage(db, caller, { ...query, categories: securityCategories });
  });
  app.get(apiPrefix + routes.AccountExport.path, async (request, reply) => {
    const caller = await requireConsoleCaller(deps, request);
    const now = new Date();
    const exported = await accountExport(deps, caller, now);
    void reply
      .header("content-disposition", `attachment; filename="${accountExportFileName(now)}"`)
      .header("cache-control", "no-store");
    return exported;
  });
  post("AccountPasskeyCreateStart", (request, accountId) => {
    parseBody(emptyBodySchema, request.body);
    return startPasskeyCreation(deps, accountId);
  });
  post("AccountPasskeyCreateComplete", (request, accountId) =>
    completePasskeyCreation(
      deps,
      accountId,
      parseBody(accountPasskeyCreateBodySchema, request.body),
      request.log,
    ),
  );
  post("AccountCredentialRename", (request, accountId) =>
    renamePasskey(
      db,
      accountId,
      credentialId(request),
      parseBody(credentialRenameBodySchema, request.body).name,
    ),
  );
  post("AccountCredentialRemove", async (request, accountId) => {
    parseBody(emptyBodySchema, request.body);
    const credential = await ownCredential(db, accountId, credentialId(request));
    if (credential.provider === passkeyProvider) return removePasskey(deps, accountId, credential);
    if (credential.provider === totpProvider) return removeTotp(deps, accountId, credential);
    if (isUpstreamCredential(credential)) return unlinkProvider(deps, accountId, credential);
    if (credential.provider === "email") return removeEmail(db, accountId, credential);
    throw new HttpError(
      400,
      "credentialNotManaged",
      "only passkeys, e-mail addresses, linked providers and authenticator apps can be removed here",
    );
  });
  post("AccountPasswordSet", (request, accountId, reply) =>
    setPassword(
      deps,
      accountId,
      parseBody(passwordSetBodySchema, request.body),
      freshSignIn(request, reply, accountId),
    ),
  );
  post("AccountPasswordRemove", (request, accountId, reply) =>
    removePassword(
      deps,
      accountId,
      parseBody(passwordRemoveBodySchema, request.body),
      freshSignIn(request, reply, accountId),
    ),
  );
  post("AccountEmailAdd", (request, accountId) => {
    const { email, locale } = parseBody(emailAddBodySchema, request.body);
    return addEmail(deps, accountId, email, {
      address: request.ip,
      locale: locale ?? preferredLocale(request.headers["accept-language"]),
    });
  });
  post("AccountEmailVerify", (request, accountId) =>
    verifyEmail(deps, accountId, credentialId(request), parseBody(codeBodySchema, request.body).code),
  );
  post("AccountEmailCancel", (request, accountId) => {
    parseBody(emptyBodySchema, request.body);
    return cancelEmail(db, accountId, credentialId(request));
  });
  post("AccountEmailPrimary", (request, accountId) => {
    parseBody(emptyBodySchema, request.body);
    return makeEmailPrimary(db, accountId, credentialId(request));
  });
  post("AccountTotpSetUpStart", (request, accountId) => {
    parseBody(emptyBodySchema, request.body);
    return startAccountTotpSetUp(deps, accountId);
  });
  post("AccountTotpSetUpComplete", (request, accountId) =>
    completeAccountTotpSetUp(deps, accountId, parseBody(totpSetUpCompleteBodySchema, request.body)),
  );
  post("AccountRecoveryCodesRegenerate", (request, accountId) => {
    parseBody(emptyBodySchema, request.body);
    return regenerateRecoveryCodes(deps, accountId);
  });
  sessionRoutes(app, deps);
  for (const url of [routes.AccountProviderLinkStart.path, apiPrefix + routes.AccountProviderLinkStart.path])
    app.post(url, async (request, reply) => {
      const { accountId } = await requireConsoleCaller(deps, request);
      parseBody(emptyBodySchema, request.body);
      return startProviderLink(deps, reply, accountId, (request.params as { provider: string }).provider);
    });
  return Promise.resolve();
};

/**
 * The browsers where the account is signed in, and the apps it gave an identity to: listed, signed
 * out and disconnected. The caller's own browser is the one its single sign-on cookie names.
 */
function sessionRoutes(app: FastifyInstance, deps: CallerDeps & ConnectedAppDeps) {
  const { db } = deps;
  const handle = (
    method: "get" | "post",
    name: RouteName,
    handler: (accountId: string, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ) => {
    for (const url of [routes[name].path, apiPrefix + routes[name].path])
      app[method](url, async (request, reply) => {
        const { accountId } = await requireConsoleCaller(deps, request);
        if (method === "post") parseBody(emptyBodySchema, request.body);
        return handler(accountId, request, reply);
      });
  };
  const current = (accountId: string, request: FastifyRequest, reply: FastifyReply) =>
    callingBrowser(deps, request, reply, accountId);

  handle("get", "AccountSessions", async (accountId, request, reply) =>
    listSessions(db, accountId, (await current(accountId, request, reply)).sessionKey),
  );
  handle("post", "AccountSessionEnd", async (accountId, request, reply) =>
    endSession(deps, accountId, credentialId(request), await current(accountId, request, reply)),
  );
  handle("post", "AccountSessionsEndOthers", async (accountId, request, reply) =>
    endOtherSessions(deps, accountId, await current(accountId, request, reply)),
  );
  handle("get", "AccountApps", (accountId) => listConnectedApps(deps, accountId));
  handle("post", "AccountAppDisconnect", (accountId, request) =>
    disconnectApp(deps, accountId, credentialId(request)),
  );
}
