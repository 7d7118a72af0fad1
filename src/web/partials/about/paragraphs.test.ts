import { describe, expect, it } from "vitest";
import { paragraphsOf } from "./paragraphs.ts";

describe("paragraphsOf", () => {
  it("joins lines wrapped for a terminal and keeps short lines apart", () => {
    const text = [
      "                                 Apache License",
      "                           Version 2.0, January 2004",
      "",
      "   1. Definitions.",
      "",
      '      "License" shall mean the terms and conditions for use, reproduction,',
      "      and distribution as defined by Sections 1 through 9 of this document.",
      "",
      "",
    ].join("\n");
    expect(paragraphsOf(text)).toEqual([
      "Apache License\nVersion 2.0, January 2004",
      "1. Definitions.",
      '"License" shall mean the terms and conditions for use, reproduction, and distribution as defined by Sections 1 through 9 of this document.',
    ]);
  });
});
