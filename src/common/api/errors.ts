import { z } from "zod";

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
  "unknownVariables",
  "duplicateVariable",
  "invalidRedirectUri",
  "invalidHomepage",
  "unknownIdentity",
  "invalidValues",
  "unknownTemplate",
  "adminByInvitation",
  "joinByInvitation",
  "alreadyInvited",
  "alreadyJoined",
  "invitationExpired",
  "invitationWithdrawn",
  "unknownPerson",
  "alreadyShared",
  "lastAdmin",
  "consoleOnly",
  "passkeyExpired",
  "passkeyFailed",
  "passkeyExists",
  "duplicateCredentialName",
  "credentialNotManaged",
  "lastSignInMethod",
  "notFound",
  "methodNotAllowed",
  "payloadTooLarge",
  "unsupportedMediaType",
  "notImplemented",
  "unexpected",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const errorBodySchema = z.object({
  error: z.string(),
  message: z.string().optional(),
  /** The request body's field the error is about, as a dotted path (`clientsPublic.0.redirectUriTemplates`). */
  field: z.string().optional(),
  /** What the error names, e.g. the unknown variables, sorted; the web app puts them in its message. */
  values: z.array(z.string()).optional(),
  requestId: z.string().optional(),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;
