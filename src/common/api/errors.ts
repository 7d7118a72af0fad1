import { z } from "zod/mini";

/**
 * Stable error codes the server sends in `{"error": code, "message": detail}` bodies. The web app
 * translates the code; the English `message` is for logs and API users only.
 */
export const errorCodes = [
  "badRequest",
  "unauthorized",
  "forbidden",
  "conflict",
  "tooManyRequests",
  "emptyIdentity",
  "invalidUsername",
  "invalidEmail",
  "invalidPictureUrl",
  "identityDisabled",
  "identityBlocked",
  "alreadyBlocked",
  "notBlocked",
  "blockSelf",
  /** An admin lifting a block of their own identity or account. */
  "unblockSelf",
  /** An admin whom a block in the organization binds: no admin of it until the block is lifted. */
  "adminBlocked",
  "unknownVariables",
  "duplicateVariable",
  "invalidRedirectUri",
  "invalidPostLogoutRedirectUri",
  "invalidBackchannelLogoutUri",
  /** A back-channel logout URI on loopback, a private network or another internal address. */
  "internalBackchannelLogoutUri",
  "invalidHomepage",
  /** A name for an app's own scope that is malformed (letters, digits and `:._-/`, at most 100). */
  "invalidScopeName",
  /** A name for an app's own scope that belongs to an OpenID scope. */
  "reservedScopeName",
  /** An app's own scope defined twice in one template. */
  "duplicateScope",
  /** A scope of a client that is neither an OpenID scope nor one the template defines. */
  "unknownScope",
  "unknownIdentity",
  "invalidValues",
  "unknownTemplate",
  "adminByInvitation",
  "joinByInvitation",
  "alreadyInvited",
  "alreadyJoined",
  "invitationExpired",
  "invitationWithdrawn",
  /** An e-mailed invitation's link that was accepted or declined already: it works once. */
  "invitationUsed",
  "unknownPerson",
  "alreadyShared",
  "lastAdmin",
  "consoleOnly",
  "freshSignInRequired",
  /** The confirmation typed to delete the account is not what the page asked for. */
  "deletionNotConfirmed",
  /** The account is not pending deletion (it was cancelled or has been carried out). */
  "deletionNotPending",
  "passkeyExpired",
  "passkeyFailed",
  "passkeyExists",
  "duplicateCredentialName",
  "credentialNotManaged",
  "lastSignInMethod",
  /** The browser named on the account page was signed out already (or never was the account's). */
  "sessionNotFound",
  /** The app named on the account page holds no grant of the account (disconnected already). */
  "appNotConnected",
  /** The console's own app is disconnected by signing out. */
  "consoleAppNotDisconnectable",
  /** The account has an authenticator app already: one per account (remove it to set up another). */
  "totpExists",
  /** The authenticator app's set-up is too old or was made for another account: start it again. */
  "totpSetUpExpired",
  /** The code is not the authenticator app's code for now, or was used already. */
  "invalidTotpCode",
  /** Recovery codes are made for an account with a second factor (an authenticator app or a passkey). */
  "noSecondFactor",
  /** The current password typed to change or remove it is not right. */
  "wrongCurrentPassword",
  /** A new password shorter than 8 characters. */
  "passwordTooShort",
  /** A new password longer than 1024 characters, or with characters that cannot be typed. */
  "passwordInvalid",
  /** A new password that is the account's username or one of its e-mail addresses. */
  "passwordIsIdentifier",
  /** A sign-in method changed by another request since it was checked: load the page again. */
  "credentialChanged",
  /** The address is already one of the account's own. */
  "emailExists",
  /** The code proved the mailbox, but another account has the address. */
  "emailTaken",
  /** The code typed for a new address is not its code. */
  "invalidEmailCode",
  /** The new address's code expired, was used, or was replaced by a newer one: send a new one. */
  "emailCodeExpired",
  /** A third-party provider's answer that is for no sign-in of this browser (forged, replayed, expired). */
  "providerCallbackInvalid",
  /** A third-party provider's answer that failed its checks (its ID token, say). */
  "providerAnswerInvalid",
  /** The third-party provider cannot be reached now. */
  "providerUnavailable",
  /** The provider's account is already linked to another account here. */
  "providerLinkedElsewhere",
  "notFound",
  "methodNotAllowed",
  "payloadTooLarge",
  "unsupportedMediaType",
  "notImplemented",
  /** The SMTP server did not take an e-mail the person waits for (a code): try again shortly. */
  "mailUnavailable",
  /** The database does not answer for a moment (a restart, a lost connection): try again shortly. */
  "storeUnavailable",
  "unexpected",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const errorBodySchema = z.object({
  error: z.string(),
  message: z.optional(z.string()),
  /** The request body's field the error is about, as a dotted path (`clientsPublic.0.redirectUriTemplates`). */
  field: z.optional(z.string()),
  /** What the error names, e.g. the unknown variables, sorted; the web app puts them in its message. */
  values: z.optional(z.array(z.string())),
  /** For a third-party provider's answer that was refused: the check it failed (`samlExpired`, ...). */
  reason: z.optional(z.string()),
  requestId: z.optional(z.string()),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;
