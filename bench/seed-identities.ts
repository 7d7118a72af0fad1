import pg from "pg";
import { categoryOf } from "../src/common/api/activity.ts";
import { newId } from "../src/server/ids.ts";
import type { IdentityDocument } from "../src/server/store/identities.ts";
import { memberWordRows } from "../src/server/store/member-search-words.ts";

// Fills a migrated PostgreSQL database with people the way Vrata's own code stores someone who signs
// up with a username and signs in to an organization's app: the account and its credentials, the
// identity it made itself admin of, the membership in the organization with the app used, and the
// activity each of those steps records (the person's own, and the organization's). Rows go in as
// column arrays unnested by the server, a few thousand people per statement, on two connections, so
// that generating one batch overlaps storing the previous one.

/** Where the people sign in: the organization and the app they all use. */
export interface SeedTarget {
  organizationId: string;
  applicationId: string;
}

export interface SeedResult {
  people: number;
  /** Rows written per table. */
  rows: Record<string, number>;
  seconds: number;
  /** Where the time went: writing the rows, building the indexes again, vacuuming and checkpointing. */
  phaseSeconds: { rows: number; indexes: number; vacuum: number };
}

const batchSize = 5000;
const connections = 2;
/** The seeded people joined over the two years before the seeding, one after the other. */
const spanMs = 2 * 365 * 24 * 3600 * 1000;

const givenNames = [
  "Ana",
  "Luka",
  "Maja",
  "Jan",
  "Eva",
  "Nik",
  "Zala",
  "Tim",
  "Sara",
  "Žiga",
  "Nina",
  "Matej",
];
const familyNames = [
  "Novak",
  "Horvat",
  "Kovačič",
  "Krajnc",
  "Zupančič",
  "Potočnik",
  "Mlakar",
  "Kos",
  "Vidmar",
];

/** Column types of the tables written, in the order of the arrays handed to the server. */
const tables = {
  accounts: { id: "text", created_at: "bigint" },
  credentials: {
    id: "text",
    account_id: "text",
    provider: "text",
    provider_id: "text",
    display_name: "text",
    data: "text",
    created_at: "bigint",
    updated_at: "bigint",
  },
  identities: {
    id: "text",
    version: "integer",
    document: "text",
    creator_account_id: "text",
    created_at: "bigint",
    updated_at: "bigint",
  },
  identity_members: { identity_id: "text", member_identity_id: "text", role: "text" },
  identity_organizations: {
    id: "text",
    identity_id: "text",
    organization_id: "text",
    active: "integer",
    created_at: "bigint",
    last_signed_in_at: "bigint",
  },
  member_search_words: { organization_id: "text", word: "text", joined_at: "bigint", membership_id: "text" },
  identity_applications: { membership_id: "text", application_id: "text", created_at: "bigint" },
  activities: {
    id: "text",
    account_id: "text",
    type: "text",
    category: "text",
    document: "text",
    created_at: "bigint",
  },
  activity_organizations: {
    activity_id: "text",
    organization_id: "text",
    membership_id: "text",
    category: "text",
    created_at: "bigint",
  },
} as const;

type TableName = keyof typeof tables;
type Row<T extends TableName> = Record<keyof (typeof tables)[T], string | number | null>;
/** A batch's rows, column by column. */
type Batch = { [T in TableName]: Record<string, unknown[]> };

function emptyBatch(): Batch {
  const batch = {} as Batch;
  for (const [table, columns] of Object.entries(tables))
    batch[table as TableName] = Object.fromEntries(Object.keys(columns).map((column) => [column, []]));
  return batch;
}

function add<T extends TableName>(batch: Batch, table: T, row: Row<T>): void {
  const columns = batch[table];
  for (const [column, value] of Object.entries(row)) columns[column]?.push(value);
}

/** An activity entry as recordActivity stores it, and the organization's link to it if it has one. */
function addActivity(
  batch: Batch,
  entry: { accountId: string | null; document: Record<string, unknown> & { type: string }; at: number },
  organization?: { organizationId: string; membershipId: string },
): void {
  const id = newId();
  const category = categoryOf(entry.document.type) ?? null;
  add(batch, "activities", {
    id,
    account_id: entry.accountId,
    type: entry.document.type,
    category,
    document: JSON.stringify(entry.document),
    created_at: entry.at,
  });
  if (organization)
    add(batch, "activity_organizations", {
      activity_id: id,
      organization_id: organization.organizationId,
      membership_id: organization.membershipId,
      category,
      created_at: entry.at,
    });
}

/** The rows of one person, number `index`, who signed up at `at`. */
function addPerson(batch: Batch, index: number, at: number, target: SeedTarget, passwordHash: string): void {
  const { organizationId, applicationId } = target;
  const accountId = newId();
  const identityId = newId();
  const membershipId = newId();
  const username = `person-${index}`;
  add(batch, "accounts", { id: accountId, created_at: at });
  const credential = { account_id: accountId, created_at: at, updated_at: at };
  add(batch, "credentials", {
    ...credential,
    id: newId(),
    provider: "username",
    provider_id: username,
    display_name: username,
    data: "{}",
  });
  add(batch, "credentials", {
    ...credential,
    id: newId(),
    provider: "password",
    provider_id: null,
    display_name: "default password",
    data: JSON.stringify({ hash: passwordHash }),
  });
  const givenName = givenNames[index % givenNames.length] ?? "";
  const familyName = familyNames[Math.floor(index / givenNames.length) % familyNames.length] ?? "";
  const document: IdentityDocument = {
    username,
    givenName,
    fullName: `${givenName} ${familyName}`,
    admins: [identityId],
    users: [],
  };
  add(batch, "identities", {
    id: identityId,
    version: 1,
    document: JSON.stringify(document),
    creator_account_id: accountId,
    created_at: at,
    updated_at: at,
  });
  add(batch, "identity_members", { identity_id: identityId, member_identity_id: identityId, role: "admin" });
  addActivity(batch, {
    accountId,
    document: { type: "identityCreate", identities: [{ id: identityId }] },
    at,
  });

  const joinedAt = at + 1;
  const signedInAt = at + 2;
  add(batch, "identity_organizations", {
    id: membershipId,
    identity_id: identityId,
    organization_id: organizationId,
    active: 1,
    created_at: joinedAt,
    last_signed_in_at: signedInAt,
  });
  const joined = { id: membershipId, organization_id: organizationId, created_at: joinedAt };
  for (const row of memberWordRows([joined], document)) add(batch, "member_search_words", row);
  const membership = { organizationId, membershipId };
  addActivity(batch, {
    accountId,
    document: {
      type: "identityUpdate",
      identities: [{ id: identityId }],
      changes: [{ kind: "membershipAdded", organizations: [{ id: organizationId }] }],
    },
    at: joinedAt,
  });
  addActivity(
    batch,
    {
      accountId: null,
      document: {
        type: "organizationUpdate",
        actor: { id: identityId },
        organizations: [{ id: organizationId }],
        changes: [{ kind: "identitiesAdded", identities: [{ id: identityId }] }],
      },
      at: joinedAt,
    },
    membership,
  );
  add(batch, "identity_applications", {
    membership_id: membershipId,
    application_id: applicationId,
    created_at: signedInAt,
  });
  addActivity(batch, signInEntry(accountId, identityId, target, signedInAt), membership);
}

/** A sign-in to the app as the end of a flow records it. */
function signInEntry(accountId: string, identityId: string, target: SeedTarget, at: number) {
  return {
    accountId,
    document: {
      type: "signIn",
      identities: [{ id: identityId }],
      organizations: [{ id: target.organizationId }],
      applications: [target],
      providers: ["password"],
    },
    at,
  };
}

/**
 * Runs `seed` with the seeded tables' secondary indexes dropped, then builds them again: one sort per
 * index instead of a million inserts at random places in it. Constraints and their indexes stay.
 */
async function withoutSecondaryIndexes(pool: pg.Pool, seed: () => Promise<void>): Promise<number> {
  const { rows } = await pool.query<{ indexname: string; indexdef: string }>(
    `select indexname, indexdef from pg_indexes
      where schemaname = current_schema() and tablename = any($1)
        and indexname not in (select conname from pg_constraint)`,
    [Object.keys(tables)],
  );
  for (const { indexname } of rows) await pool.query(`drop index ${indexname}`);
  await seed();
  const indexed = performance.now();
  for (const { indexdef } of rows) await pool.query(indexdef);
  return (performance.now() - indexed) / 1000;
}

async function store(pool: pg.Pool, batch: Batch): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query("begin");
    // Tables in the order their foreign keys need.
    for (const [table, types] of Object.entries(tables)) {
      const columns = Object.keys(types);
      const values = columns.map((column) => batch[table as TableName][column] ?? []);
      if (values[0]?.length === 0) continue;
      const arrays = Object.values(types).map((type, index) => `$${index + 1}::${type}[]`);
      await client.query(
        `insert into ${table} (${columns.join(", ")}) select * from unnest(${arrays.join(", ")})`,
        values,
      );
    }
    await client.query("commit");
  } catch (error) {
    await client.query("rollback");
    throw error;
  } finally {
    client.release();
  }
}

/** Rows of each table in a batch. */
const rowCounts = (batch: Batch) =>
  Object.fromEntries(
    Object.entries(batch).map(([table, columns]) => [table, Object.values(columns)[0]?.length ?? 0]),
  );

/**
 * Seeds `people` people into the organization, and `benchActivity` sign-ins of the bench person's
 * (account and identity given) to its app, spread over the same time.
 *
 * Every seeded password credential holds the same argon2id hash, computed once by the caller:
 * hashing a million passwords would take hours and changes nothing the lists or sign-in read.
 */
export async function seedIdentities(
  url: string,
  people: number,
  target: SeedTarget,
  options: {
    passwordHash: string;
    bench: { accountId: string; identityId: string; membershipId: string; activities: number };
  },
): Promise<SeedResult> {
  const started = performance.now();
  // The seed is one load, redone from scratch if it fails: waiting for each commit to reach the
  // disk would only slow it.
  const pool = new pg.Pool({
    connectionString: url,
    max: connections,
    options: "-c synchronous_commit=off",
  });
  const rows: Record<string, number> = {};
  const count = (batch: Batch) => {
    for (const [table, written] of Object.entries(rowCounts(batch)))
      rows[table] = (rows[table] ?? 0) + written;
  };
  const inFlight = new Set<Promise<void>>();
  const send = async (batch: Batch) => {
    count(batch);
    const stored = store(pool, batch).finally(() => inFlight.delete(stored));
    inFlight.add(stored);
    if (inFlight.size >= connections) await Promise.race(inFlight);
  };
  const seedRows = async () => {
    const firstAt = Date.now() - spanMs;
    const step = spanMs / Math.max(people, 1);
    for (let from = 0; from < people; from += batchSize) {
      const batch = emptyBatch();
      for (let index = from; index < Math.min(people, from + batchSize); index++)
        addPerson(batch, index, Math.round(firstAt + index * step), target, options.passwordHash);
      await send(batch);
    }
    const { bench } = options;
    const benchStep = spanMs / Math.max(bench.activities, 1);
    for (let from = 0; from < bench.activities; from += batchSize) {
      const batch = emptyBatch();
      for (let index = from; index < Math.min(bench.activities, from + batchSize); index++) {
        const at = Math.round(firstAt + index * benchStep);
        addActivity(batch, signInEntry(bench.accountId, bench.identityId, target, at), {
          organizationId: target.organizationId,
          membershipId: bench.membershipId,
        });
      }
      await send(batch);
    }
    await Promise.all(inFlight);
  };
  try {
    const indexSeconds = await withoutSecondaryIndexes(pool, seedRows);
    const vacuumed = performance.now();
    // Vacuumed as well as analyzed, so that autovacuum does not start on the new rows while they are
    // measured; the checkpoint writes the seed out before the measuring too.
    await pool.query("vacuum analyze");
    await pool.query("checkpoint");
    const vacuumSeconds = (performance.now() - vacuumed) / 1000;
    const seconds = (performance.now() - started) / 1000;
    const phaseSeconds = {
      rows: seconds - indexSeconds - vacuumSeconds,
      indexes: indexSeconds,
      vacuum: vacuumSeconds,
    };
    return { people, rows, seconds, phaseSeconds };
  } finally {
    await pool.end();
  }
}
