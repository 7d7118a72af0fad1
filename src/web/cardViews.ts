import type { ComponentType } from "react";
import type { RouteName } from "../common/routes.ts";

/**
 * The card views (`card` in the route table), each loaded on first use in its own chunk: the light
 * page holds only these, and the console reaches them without loading the page again.
 */
export const cardViews: Partial<Record<RouteName, () => Promise<ComponentType>>> = {
  AuthFlowGet: async () => (await import("./views/AuthFlow.tsx")).AuthFlow,
  OIDCEndSession: async () => (await import("./views/SignOutConfirm.tsx")).SignOutConfirm,
  OIDCEndSessionSuccess: async () => (await import("./views/SignedOut.tsx")).SignedOut,
  About: async () => (await import("./views/About.tsx")).About,
  License: async () => (await import("./views/License.tsx")).License,
  Notice: async () => (await import("./views/Notice.tsx")).Notice,
};
