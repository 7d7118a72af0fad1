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
import { codeFlow, UnexpectedResponse } from "./code-flow.ts";
import { flowLoad, type FlowMeasurement } from "./flow-load.ts";
import { load } from "./load.ts";
import { createFreshDatabase } from "./postgres.ts";
import { listWorkloads, type ListSubjects } from "./scale-lists.ts";
import { seedIdentities, type SeedResult } from "./seed-identities.ts";
import { launch, prepareVrata, stop, type Server } from "./servers.ts";
import type { Measurement } from "./stats.ts";
import { passwordSignIn } from "./vrata-sign-in.ts";

// Vrata on PostgreSQL with few and with many people: each size in a fresh database, seeded, then the
// same sign-in flows and console list pages measured on both, so that the ratios show what size costs.

/** The size every run is compared with. */
export const baselineIdentities = 1000;

export { printScaleResult, scaleTargets } from "./scale-report.ts";

/** Sign-in flows run one after another: their median is a person's wait, not the server's capacity. */
const flowWorkers = 1;

const person = { username: "bench-person", password: "a long benchmark passphrase" };

export interface ListResult {
  name: string;
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

async function measureSize(
  serverUrl: string,
  identities: number,
  seconds: number,
  keep: boolean,
): Promise<SizeResult> {
  const database = await createFreshDatabase(serverUrl);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-scale-"));
  let vrata: Server | undefined;
  try {
    const port = await freePort();
    const vrataArgs = [
      "--port",
      String(port),
      "--data",
      dataDir,
      "--database",
      database.url,
      "--workers",
      "1",
    ];
    await prepareVrata(vrataArgs);
    const clients = await addBenchClients({ kind: "postgres", url: database.url });
    const target = await benchApplication(database.url, clients);
    trustCertificateAuthority(dataDir);
    vrata = await launch("Vrata", [...vrataCommand, ...vrataArgs, "--log-level", "warn"], port);
    const signedIn = vrata;

    // The bench person signs up through the flow itself, with a password of their own; everyone
    // seeded after them shares one precomputed hash (see seedIdentities).
    const signUp = passwordSignIn(person.username, person.password, "signup");
    await codeFlow(signedIn.url, clients.person, "openid", signUp);
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
    const flow = () => codeFlow(signedIn.url, clients.person, "openid profile email", signIn);
    await flowLoad(flow, flowWorkers, 1); // warm-up
    const flowMeasurement = await flowLoad(flow, flowWorkers, seconds);

    const subjects: ListSubjects = {
      organizationId: target.organizationId,
      accountId: bench.account_id,
      membershipId: bench.membership_id,
      accessToken: await consoleAccessToken(signedIn),
    };
    const lists: ListResult[] = [];
    for (const { name, workload } of await listWorkloads(database.url, subjects)) {
      await load(signedIn.url, workload, 1); // warm-up
      lists.push({ name, measurement: await load(signedIn.url, workload, seconds) });
    }
    return { identities, seed, flow: flowMeasurement, lists };
  } catch (error) {
    if (error instanceof UnexpectedResponse) console.error(`at ${identities} people: ${error.message}`);
    throw error;
  } finally {
    if (vrata) await stop(vrata.process);
    if (keep) console.log(`kept the database ${database.url}`);
    else await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
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
  const keep = options.keepDatabases ?? false;
  const baseline = await measureSize(options.database, baselineIdentities, options.seconds, keep);
  const scaled = await measureSize(options.database, options.identities, options.seconds, keep);
  return { durationSeconds: options.seconds, baseline, scaled };
}
