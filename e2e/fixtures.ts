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

/** Accessibility violations of serious or critical impact on the page as it is now. */
export async function seriousAccessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.html).join(", ")})`,
    );
}
