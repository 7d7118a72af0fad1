import { z } from "zod/mini";

/** `GET /api/LICENSE` and `GET /api/NOTICE`: the text of the product's license documents. */
export const documentTextSchema = z.object({ text: z.string() });

export type DocumentText = z.infer<typeof documentTextSchema>;

/** `GET /api/about`: what the About page tells about this instance. */
export const aboutSchema = z.object({
  title: z.string(),
  version: z.string(),
  issuer: z.url(),
});

export type About = z.infer<typeof aboutSchema>;
