import os from "node:os";
import { routes } from "../src/common/routes.ts";
import type { Argon2Capacity } from "./argon2-capacity.ts";
import { codeFlow, type SignIn } from "./code-flow.ts";
import { flowLoad } from "./flow-load.ts";
import { startProbe } from "./latency-probe.ts";
import type { FlowResult } from "./report.ts";
import { cpuMs } from "./servers.ts";
import { basicAuthorization, type Side } from "./sides.ts";

// Password sign-ins through Vrata's whole flow, measured against what argon2 alone allows on this
// machine, while a light request keeps running alongside to show what the hashing costs others.

/** Enough flows in flight to keep every core hashing while other flows are between hashes. */
const flowsInFlight = Math.max(4, 2 * os.availableParallelism());
const probe = { name: "client_credentials", perSecond: 20 };

function clientCredentials(side: Side): () => Promise<boolean> {
  const init = {
    method: "POST",
    headers: {
      authorization: basicAuthorization(side.clients),
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  };
  return async () => {
    const response = await fetch(side.server.url + routes.OIDCToken.path, init);
    const body = await response.text();
    return response.status === 200 && body.includes('"access_token"');
  };
}

export async function runFlowWorkload(
  side: Side,
  signIn: SignIn,
  argon2: Argon2Capacity,
  seconds: number,
): Promise<Omit<FlowResult, "role">> {
  const flow = () => codeFlow(side.server.url, side.clients.person, "openid profile email", signIn);
  await flowLoad(flow, flowsInFlight, 1); // warm-up
  const running = startProbe(clientCredentials(side), probe.perSecond);
  const [vrataCpu, benchCpu] = [cpuMs(side.server.process), process.cpuUsage()];
  const measured = await flowLoad(flow, flowsInFlight, seconds);
  const probed = await running.stop();
  // Where the cores went: on a small machine the benchmark's own client takes a good part of them.
  // (The light requests alongside are in these figures too; they are a few per cent of the work.)
  const { user, system } = process.cpuUsage(benchCpu);
  const perFlow = (ms: number) => ms / measured.flows;
  return {
    server: side.server.name,
    flowsInFlight,
    flow: measured,
    argon2,
    probe: { ...probe, ...probed },
    cpuMsPerFlow: {
      vrata: perFlow(cpuMs(side.server.process) - vrataCpu),
      benchClient: perFlow((user + system) / 1000),
    },
  };
}
