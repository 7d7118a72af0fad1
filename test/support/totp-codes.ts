import { execFileSync } from "node:child_process";
import { totpPeriodSeconds } from "../../src/common/limits.ts";

/**
 * The authenticator app's code for a secret, computed by oathtool (an implementation independent of
 * Vrata's); `stepsAhead` gives the code of a later time step.
 */
export function totpCode(secret: string, stepsAhead = 0): string {
  const at = Math.floor(Date.now() / 1000) + stepsAhead * totpPeriodSeconds;
  return execFileSync("oathtool", ["--totp", "-b", `--now=@${at}`, secret], { encoding: "utf8" }).trim();
}
