import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import tls from "node:tls";
import pg from "pg";
import { contextSchema } from "../src/common/api/context.ts";
import { consoleScope } from "../src/common/limits.ts";
import type { OrganizationDocument } from "../src/server/access/organizations.ts";
import { hashPassword } from "../src/server/accounts/passwords.ts";
import { openDatabase } from "../src/server/store/database.ts";
import { findDocument, replaceDocument } from "../src/server/store/documents.ts";
import { vrataCommand } from "../test/support/command.ts";
import { freePort } from "../test/support/ports.ts";
import { addBenchClients, type BenchClients } from "./clients.ts";
import { codeFlow } from "./code-flow.ts";
import { flowLoad, type FlowMeasurement } from "./flow-load.ts";
import { load } from "./load.ts";
import { createFreshDatabase } from "./postgres.ts";
import { listWorkloads, type ListSubjects, type ListWorkload } from "./scale-lists.ts";
import { seedIdentities, type SeedResult } from "./seed-identities.ts";
import { launch, prepareVrata, stop, type Server } from "./servers.ts";
import { combined, type Measurement } from "./stats.ts";
import { passwordSignIn } from "./vrata-sign-in.ts";

// Vrata on PostgreSQL with few and with many people: each size in a fresh database, seeded, then the
// same sign-in flows and console list pages measured on both, so that the ratios show what size costs.

/** The size every run is compared with. */
export const baselineIdentities = 1000;

export { printScaleResult, scaleTargets } from "./scale-report.ts";

/** Sign-in flows run one after another: their median is a person's wait, not the server's capacity. */
const flowWorkers = 1;
/** How many alternating rounds each measurement is cut into. */
const rounds = 4;

const person = { username: "bench-person", password: "a long benchmark passphrase" };

export interface ListResult extends Pick<ListWorkload, "name" | "commonWords"> {
  measurement: Measurement;
}

export interface SizeResult {
  identities: number;
  seed: SeedResult;
  flow: FlowMeasurement;
  lists: ListResult[];
}

export interface ScaleResult {
  durationSeconds: number;
  baseline: SizeResult;
  scaled: SizeResult;
}

/** Trusts the CA of Vrata's data folder, which signed the certificate it serves. */
function trustCertificateAuthority(dataDir: string): void {
  const ca = fs.readFileSync(path.join(dataDir, "tls", "ca.pem"), "utf8");
  tls.setDefaultCACertificates([...tls.getCACertificates("default"), ca]);
}

/** The bench person's account, identity and membership in the bench organization, as the flow stored them. */
async function benchPersonRows(url: string, organizationId: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ account_id: string; identity_id: string; membership_id: string }>(
      `select credential.account_id, identity.id as identity_id, membership.id as membership_id
         from credentials credential
         join identities identity on identity.creator_account_id = credential.account_id
         join identity_organizations membership on membership.identity_id = identity.id
        where credential.provider = 'username' and credential.provider_id = $1
          and membership.organization_id = $2`,
      [person.username, organizationId],
    );
    const [row] = rows;
    if (!row) throw new Error("the bench person's sign-up stored no membership");
    return row;
  } finally {
    await client.end();
  }
}

/** The organization and application of the bench clients, as syncClients stored them. */
async function benchApplication(url: string, clients: BenchClients) {
  const db = await openDatabase({ database: { kind: "postgres", url } });
  try {
    const client = await db
      .selectFrom("oauth_clients")
      .select(["organization_id", "application_id"])
      .where("id", "=", clients.person.clientId)
      .executeTakeFirstOrThrow();
    return { organizationId: client.organization_id, applicationId: client.application_id };
  } finally {
    await db.destroy();
  }
}

/** Makes the identity an admin of the organization, as its admins would at the console. */
async function makeAdmin(url: string, organizationId: string, identityId: string): Promise<void> {
  const db = await openDatabase({ database: { kind: "postgres", url } });
  try {
    const stored = await findDocument<OrganizationDocument>(db, "organizations", organizationId);
    if (!stored) throw new Error("no bench organization");
    const document = { ...stored.document, admins: [identityId] };
    if (!(await replaceDocument(db, "organizations", organizationId, stored.version, document, Date.now())))
      throw new Error("the bench organization changed meanwhile");
  } finally {
    await db.destroy();
  }
}

/** An access token of the console's own client, signed in to as the bench person. */
async function consoleAccessToken(vrata: Server): Promise<string> {
  const context = contextSchema.parse(await (await fetch(`${vrata.url}/context.json`)).json());
  const console = { clientId: context.clientId, redirectUri: context.redirectUri };
  const tokens = await codeFlow(
    vrata.url,
    console,
    consoleScope,
    passwordSignIn(person.username, person.password, "signin"),
  );
  return tokens.access_token;
}

/** One size under test: its seeded database, the Vrata serving it, and what is measured on it. */
interface SizeUnderTest {
  identities: number;
  seed: SeedResult;
  server: Server;
  flow: () => Promise<unknown>;
  lists: ListWorkload[];
}

async function prepareSize(
  serverUrl: string,
  identities: number,
  cleanups: (() => Promise<void>)[],
  keep: boolean,
): Promise<SizeUnderTest> {
  const database = await createFreshDatabase(serverUrl);
  cleanups.push(async () => {
    if (keep) console.log(`kept the database ${database.url}`);
    else await database.drop();
  });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-scale-"));
  cleanups.push(() => Promise.resolve(fs.rmSync(dataDir, { recursive: true, force: true })));
  const port = await freePort();
  const vrataArgs = ["--port", String(port), "--data", dataDir, "--database", database.url, "--workers", "1"];
  await prepareVrata(vrataArgs);
  const clients = await addBenchClients({ kind: "postgres", url: database.url });
  const target = await benchApplication(database.url, clients);
  trustCertificateAuthority(dataDir);
  const server = await launch("Vrata", [...vrataCommand, ...vrataArgs, "--log-level", "warn"], port);
  cleanups.push(() => stop(server.process));

  // The bench person signs up through the flow itself, with a password of their own; everyone
  // seeded after them shares one precomputed hash (see seedIdentities).
  const signUp = passwordSignIn(person.username, person.password, "signup");
  await codeFlow(server.url, clients.person, "openid", signUp);
  const bench = await benchPersonRows(database.url, target.organizationId);
  await makeAdmin(database.url, target.organizationId, bench.identity_id);
  const seed = await seedIdentities(database.url, identities, target, {
    passwordHash: await hashPassword("a seeded person's passphrase"),
    bench: {
      accountId: bench.account_id,
      identityId: bench.identity_id,
      membershipId: bench.membership_id,
      activities: Math.max(100, Math.round(identities / 10)),
    },
  });
  console.log(`seeded ${identities} people in ${seed.seconds.toFixed(1)} s: ${JSON.stringify(seed.rows)}`);

  const signIn = passwordSignIn(person.username, person.password, "signin");
  const subjects: ListSubjects = {
    organizationId: target.organizationId,
    accountId: bench.account_id,
    membershipId: bench.membership_id,
    accessToken: await consoleAccessToken(server),
  };
  return {
    identities,
    seed,
    server,
    flow: () => codeFlow(server.url, clients.person, "openid profile email", signIn),
    lists: await listWorkloads(database.url, subjects),
  };
}

/** Rounds of sign-in flows as one measurement, combined as HTTP rounds are. */
function combinedFlows(rounds: readonly FlowMeasurement[]): FlowMeasurement {
  const { requestsPerSecond, ...figures } = combined(
    rounds.map(({ flows: _flows, flowsPerSecond, ...round }) => ({
      ...round,
      requestsPerSecond: flowsPerSecond,
    })),
  );
  return {
    ...figures,
    flows: rounds.reduce((sum, round) => sum + round.flows, 0),
    flowsPerSecond: requestsPerSecond,
  };
}

/**
 * Runs `measure` on both sizes in rounds that alternate which goes first, so that a busy moment of a
 * shared machine falls on both sizes rather than on one; returns each size's rounds.
 */
async function alternating<T>(
  sizes: readonly SizeUnderTest[],
  measure: (size: SizeUnderTest, index: number) => Promise<T>,
): Promise<T[][]> {
  const slices = sizes.map((): T[] => []);
  for (let round = 0; round < rounds; round++) {
    const order = sizes.map((_, index) => index);
    if (round % 2 === 1) order.reverse();
    for (const index of order) slices[index]?.push(await measure(sizes[index] as SizeUnderTest, index));
  }
  return slices;
}

/**
 * Measures Vrata at the baseline size and at `identities` people, each in a fresh database on the
 * PostgreSQL server of `database`, `seconds` per measured workload.
 */
export async function runScaleBench(options: {
  database: string;
  identities: number;
  seconds: number;
  /** Leaves the seeded databases in place, to look into their query plans. */
  keepDatabases?: boolean;
}): Promise<ScaleResult> {
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const sizes: SizeUnderTest[] = [];
    for (const identities of [baselineIdentities, options.identities])
      sizes.push(await prepareSize(options.database, identities, cleanups, options.keepDatabases ?? false));
    const roundSeconds = Math.max(1, Math.round(options.seconds / rounds));

    for (const size of sizes) await flowLoad(size.flow, flowWorkers, 1); // warm-up
    const flows = await alternating(sizes, (size) => flowLoad(size.flow, flowWorkers, roundSeconds));
    const lists = sizes.map((): ListResult[] => []);
    for (const [position, { name, commonWords }] of (sizes[0]?.lists ?? []).entries()) {
      const workloadOf = (size: SizeUnderTest) => (size.lists[position] as ListWorkload).workload;
      for (const size of sizes) await load(size.server.url, workloadOf(size), 1); // warm-up
      const measured = await alternating(sizes, (size) =>
        load(size.server.url, workloadOf(size), roundSeconds),
      );
      for (const [index, slices] of measured.entries())
        lists[index]?.push({ name, measurement: combined(slices), ...(commonWords && { commonWords }) });
    }
    const results = sizes.map((size, index): SizeResult => ({
      identities: size.identities,
      seed: size.seed,
      flow: combinedFlows(flows[index] ?? []),
      lists: lists[index] ?? [],
    }));
    const [baseline, scaled] = results as [SizeResult, SizeResult];
    return { durationSeconds: roundSeconds * rounds, baseline, scaled };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}
