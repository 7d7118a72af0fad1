import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { contextSchema, type Context } from "../src/common/api/context.ts";

export { expect };

interface Fixtures {
  /** The server's context document. */
  siteContext: Context;
  /** Console errors and uncaught page errors; every test fails when there are any. */
  pageErrors: string[];
}

export const test = base.extend<Fixtures>({
  siteContext: async ({ request }, use) => {
    const response = await request.get("/context.json");
    expect(response.ok()).toBe(true);
    await use(contextSchema.parse(await response.json()));
  },
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(`console: ${message.text()}`);
      });
      page.on("pageerror", (error) => errors.push(`page: ${error.message}`));
      await use(errors);
      expect(errors).toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Accessibility violations of serious or critical impact on the page as it is now: the rule, what it
 * asks for, and each element by its CSS selector and the start of its HTML.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => {
      const elements = violation.nodes.map(
        (node) => `${node.target.join(" ")} ${node.html.replace(/\s+/g, " ").slice(0, 120)}`,
      );
      return `${violation.id} (${violation.impact}): ${violation.help}; at ${elements.join(" | ")}`;
    });
}

/** Chromium logs each answer with an error status as a failed load: drops those of the expected status. */
export function dropFailedLoads(pageErrors: string[], status: number): void {
  const rest = pageErrors.filter((error) => !error.includes(`status of ${status}`));
  pageErrors.splice(0, pageErrors.length, ...rest);
}
