import { pageErrorElementId, pageErrorSchema, type PageError } from "../../src/common/api/page-error.ts";

const dataBlock = new RegExp(`<script type="application/json" id="${pageErrorElementId}">(.*?)</script>`);

/** The page error an HTML answer carries; undefined for a page without one. */
export function pageErrorOf(html: string): PageError | undefined {
  const json = dataBlock.exec(html)?.[1];
  return json === undefined ? undefined : pageErrorSchema.parse(JSON.parse(json));
}

/** Whether an HTML answer is the web app's light page, which draws one card (not the console's). */
export const isCardPage = (html: string) => /<script type="module"[^>]* src="\/assets\/card-/.test(html);
