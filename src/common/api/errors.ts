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
  "unknownVariables",
  "duplicateVariable",
  "invalidRedirectUri",
  "invalidHomepage",
  "unknownIdentity",
  "invalidValues",
  "unknownTemplate",
  "unknownOrganization",
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
  requestId: z.string().optional(),
});

export type ErrorBody = z.infer<typeof errorBodySchema>;
