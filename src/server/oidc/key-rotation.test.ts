import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerTestApp } from "../../../test/support/apps.ts";
import { storeEngines, type TestStore } from "../../../test/support/stores.ts";
import { deriveInstanceSecrets } from "../secrets/instance-secrets.ts";
import { insertSigningKeys, signingKeyRows } from "../store/signing-keys.ts";
import { keyPollMs, maintainSigningKeys, nextKeyChange, rotateSigningKeys } from "./key-rotation.ts";
import { generateSigningKey, keyRoles, loadSigningKeys } from "./keys.ts";

const minute = 60_000;
const day = 24 * 60 * minute;
const schedule = { rotateAfterMs: 90 * day, leadMs: 60 * minute };

describe.each(storeEngines)("signing-key lifecycle on $name", ({ open }) => {
  let store: TestStore;
  const { sealer } = deriveInstanceSecrets(randomBytes(32));
  const start = Date.UTC(2030, 0, 1);
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.dispose());

  /** The stored keys' roles at a moment, as `alg generation role`. */
  const rolesAt = async (now: number) => {
    const rows = await signingKeyRows(store.db);
    const roles = keyRoles(rows, now);
    return rows.map((row) => `${row.alg} ${row.generation} ${roles.get(row.kid) ?? ""}`);
  };

  it("starts with one signing key of each algorithm, however many instances start at once", async () => {
    await Promise.all([1, 2, 3].map(() => maintainSigningKeys(store.db, sealer, start, schedule)));
    expect(await rolesAt(start)).toEqual(["ES256 1 signing", "RS256 1 signing"]);
  });

  it("rotates on schedule: the new keys wait for the lead, then sign, and the old ones retire", async () => {
    // Tokens of JWT access tokens count; opaque access tokens are not signed and do not.
    await registerTestApp(store.db, "Long JWTs", {
      accessTokenType: "jwt",
      accessTokenLifespan: (10 * day) / 1000,
    });
    await registerTestApp(store.db, "Long opaque", {
      accessTokenType: "hmac",
      accessTokenLifespan: (20 * day) / 1000,
    });
    const due = start + schedule.rotateAfterMs;
    expect(nextKeyChange(await signingKeyRows(store.db), start, schedule)).toBe(due);
    await maintainSigningKeys(store.db, sealer, due - 1, schedule);
    expect(await rolesAt(due - 1)).toEqual(["ES256 1 signing", "RS256 1 signing"]);

    const rows = await maintainSigningKeys(store.db, sealer, due, schedule);
    const activation = due + schedule.leadMs;
    expect(await rolesAt(due)).toEqual([
      "ES256 2 pending",
      "ES256 1 signing",
      "RS256 2 pending",
      "RS256 1 signing",
    ]);
    expect(nextKeyChange(rows, due, schedule)).toBe(activation);
    expect(await rotateSigningKeys(store.db, sealer, due + minute, 0)).toEqual({
      started: false,
      activatesAt: activation,
    });

    const retired = await maintainSigningKeys(store.db, sealer, activation, schedule);
    expect(await rolesAt(activation)).toEqual([
      "ES256 2 signing",
      "ES256 1 retired",
      "RS256 2 signing",
      "RS256 1 retired",
    ]);
    const removal = activation + 10 * day + 30_000;
    expect(
      retired.filter((row) => row.generation === 1).map((row) => [row.retiredAt, row.removesAt]),
    ).toEqual([
      [activation, removal],
      [activation, removal],
    ]);
    expect(nextKeyChange(retired, activation, schedule)).toBe(removal);

    await maintainSigningKeys(store.db, sealer, removal - 1, schedule);
    expect(await rolesAt(removal - 1)).toHaveLength(4);
    await maintainSigningKeys(store.db, sealer, removal, schedule);
    expect(await rolesAt(removal)).toEqual(["ES256 2 signing", "RS256 2 signing"]);
    const keys = await loadSigningKeys(store.db, sealer, removal);
    expect(keys.signing.map((key) => key.alg)).toEqual(["RS256", "ES256"]);
    expect(keys.verifyOnly).toEqual([]);
  });

  it("keeps a key retired by one made without lead until every instance can have learned of it", async () => {
    const now = start + 100 * day;
    const outcome = await rotateSigningKeys(store.db, sealer, now, 0);
    expect(outcome).toMatchObject({ started: true, activatesAt: now });
    const rows = await maintainSigningKeys(store.db, sealer, now, schedule);
    const retired = rows.filter((row) => row.generation === 2);
    expect(retired.map((row) => row.retiredAt)).toEqual([now + keyPollMs, now + keyPollMs]);
  });

  it("makes one generation of rotations started at the same moment", async () => {
    const now = start + 200 * day;
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () => rotateSigningKeys(store.db, sealer, now, schedule.leadMs)),
    );
    expect(outcomes.filter((outcome) => outcome.started)).toHaveLength(1);
    expect(new Set(outcomes.map((outcome) => outcome.activatesAt))).toEqual(new Set([now + schedule.leadMs]));
    const newest = (await signingKeyRows(store.db)).filter((row) => row.generation === 4);
    expect(newest.map((row) => row.alg).toSorted()).toEqual(["ES256", "RS256"]);
  });

  it("adds the keys of a rotation all or none", async () => {
    const taken = await generateSigningKey("RS256", sealer, 4, start);
    const free = await generateSigningKey("ES256", sealer, 5, start);
    expect(await insertSigningKeys(store.db, [free, taken], start)).toBe(false);
    expect((await signingKeyRows(store.db)).some((row) => row.kid === free.kid)).toBe(false);
  });
});
