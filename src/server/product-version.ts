import fs from "node:fs";
import { z } from "zod/mini";

/** Vrata's version, as its package.json names it (the about page, the build-info metric). */
export function productVersion(): string {
  const manifest = JSON.parse(
    fs.readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
  ) as unknown;
  return z.object({ version: z.string() }).parse(manifest).version;
}
