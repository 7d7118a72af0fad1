import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { accountPasskeyCreateBodySchema, credentialRenameBodySchema } from "../../common/api/account.ts";
import { emptyBodySchema } from "../../common/api/flow.ts";
import { apiPrefix, routes, type RouteName } from "../../common/routes.ts";
import { parseBody } from "../http/body.ts";
import { requireCaller, type CallerDeps } from "../http/caller.ts";
import { HttpError } from "../http/errors.ts";
import {
  accountView,
  completePasskeyCreation,
  removePasskey,
  renamePasskey,
  startPasskeyCreation,
} from "./account-passkeys.ts";

/**
 * The account of whoever signed in to the console. Never from an auth flow: a flow's session proves
 * a sign-in that is still under way, not a person at their console.
 */
async function requireConsoleAccount(deps: CallerDeps, request: FastifyRequest): Promise<string> {
  if ((request.query as { flow?: unknown }).flow !== undefined)
    throw new HttpError(403, "consoleOnly", "the account is managed from the console only");
  return (await requireCaller(deps, request)).accountId;
}

const credentialId = (request: FastifyRequest) => (request.params as { id: string }).id;

/** The account page's API: its sign-in methods listed, passkeys added, renamed and removed. */
export const accountPlugin: FastifyPluginAsync<{ deps: CallerDeps }> = (app, { deps }) => {
  const { db } = deps;
  const post = (
    name: RouteName,
    handler: (request: FastifyRequest, accountId: string) => Promise<unknown>,
  ) => {
    for (const url of [routes[name].path, apiPrefix + routes[name].path])
      app.post(url, async (request) => handler(request, await requireConsoleAccount(deps, request)));
  };

  app.get(apiPrefix + routes.Account.path, async (request) =>
    accountView(db, await requireConsoleAccount(deps, request)),
  );
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
  post("AccountCredentialRemove", (request, accountId) => {
    parseBody(emptyBodySchema, request.body);
    return removePasskey(deps, accountId, credentialId(request));
  });
  return Promise.resolve();
};
