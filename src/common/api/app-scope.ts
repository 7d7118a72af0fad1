import { z } from "zod/mini";
import { typedText } from "./text.ts";

/** A scope the app defines for its own API, described to the people it asks, in each language. */
export const appScopeSchema = z.strictObject({
  name: typedText(200),
  description: z._default(
    z.strictObject({ en: z._default(typedText(500), ""), sl: z._default(typedText(500), "") }),
    { en: "", sl: "" },
  ),
});
export type AppScope = z.infer<typeof appScopeSchema>;
