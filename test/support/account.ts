import { expect } from "vitest";
import { accountSchema, type Account } from "../../src/common/api/account.ts";
import { postJson, type ConsoleApi } from "./console.ts";

// Calls of the account page's API, as the console makes them.

export interface Answer {
  status: number;
  json: Record<string, unknown>;
}

export async function answer(response: Response): Promise<Answer> {
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

/** Posts `body` to the path with the console's token; its status and JSON. */
export const call = async (api: ConsoleApi, path: string, body: unknown = {}) =>
  answer(await postJson(api, path, body));

/** The account as the account page reads it. */
export async function account(api: ConsoleApi): Promise<Account> {
  const response = await api("/api/account");
  expect(response.status).toBe(200);
  return accountSchema.parse(await response.json());
}
