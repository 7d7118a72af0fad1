import { describe, expect, it } from "vitest";
import { fieldErrorsOf, shownAt } from "./fieldErrors.ts";

describe("field errors", () => {
  it("are shown at the field that holds a list typed as one text", () => {
    expect(shownAt("clientsPublic.0.redirectUriTemplates.1")).toBe("clientsPublic.0.redirectUriTemplates");
    expect(shownAt("idScopes.0")).toBe("idScopes");
    expect(shownAt("variables.2.name")).toBe("variables.2.name");
    expect(shownAt("homepageTemplate")).toBe("homepageTemplate");
  });

  it("are found at their field and inside the parts that hold it", () => {
    const errors = fieldErrorsOf([{ field: "clientsService.1.accessTokenLifespan", message: "Too long" }]);
    expect(errors.at("clientsService.1.accessTokenLifespan")).toBe("Too long");
    expect(errors.at("clientsService.1.description")).toBeNull();
    expect(errors.inside("clientsService.1")).toBe(true);
    expect(errors.inside("clientsService.10")).toBe(false);
    expect(errors.inside("clientsPublic.1")).toBe(false);
  });
});
