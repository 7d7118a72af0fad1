import { apiPrefix, routes, type RouteDefinition, type RouteName } from "../../src/common/routes.ts";

/** One request of the bad-input suite: already encoded, sent as it is. */
export interface BadRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** An oidc-provider route: its errors are OAuth errors. */
  engine: boolean;
  /** A page route: a browser may get HTML. */
  page: boolean;
}

/** What the suite knows of the server's stored data, so requests reach past the checks on IDs and callers. */
export interface KnownData {
  flowId: string;
  identityId: string;
  templateId: string;
  organizationId: string;
  applicationId: string;
  activityId: string;
  clientId: string;
  /** Headers that prove the console caller (and the live flow's browser) on the console's routes. */
  callerHeaders: (path: string) => Record<string, string>;
  /** A valid body of each route that takes one; `version` of an update is the current one. */
  bodies: Partial<Record<RouteName, Record<string, unknown>>>;
}

const engineRouteNames: readonly RouteName[] = [
  "OIDCAuthorize",
  "OIDCResume",
  "OIDCToken",
  "OIDCPar",
  "OIDCEndSession",
  "OIDCEndSessionConfirm",
  "OIDCEndSessionSuccess",
  "OIDCRevoke",
  "OIDCIntrospect",
  "OIDCUserinfo",
  "OIDCKeys",
  "OIDCDiscovery",
  "OAuthDiscovery",
];

// Raw UTF-8 bytes as a header value: fetch sends each character below 256 as one byte.
const headerBytes = (text: string) => Buffer.from(text, "utf8").toString("latin1");

const nul = "a\u0000b";
const loneSurrogate = "a\ud800b";
const rightToLeft = "\u202eabc\u200f";
const emoji = "\u{1f600}\u{1f468}\u200d\u{1f469}";
/** Full-width letters that NFKC folds to ASCII ("admin"). */
const lookAlike = "\uff41\uff44\uff4d\uff49\uff4e";

/** Values that break the format or the storage of a text; never valid anywhere. */
const invalidTexts = [nul, loneSurrogate, "x".repeat(5000)];
/** Odd but well-formed text: a request may take it, but it must never crash one. */
const oddTexts = [rightToLeft, emoji, lookAlike];

/** Path segments, percent-encoded as a client would send them (or would not). */
const badSegments = (valid: string) => [
  "a%00b",
  `${valid}%00`,
  "%00",
  "x".repeat(3000),
  "%ED%A0%80", // a lone surrogate in CESU-8: not UTF-8
  "%C0%AF", // an overlong "/"
  "%F0%9F%98%80",
  "%E2%80%AEabc%E2%80%8F",
  "%EF%BD%81%EF%BD%84%EF%BD%8D%EF%BD%89%EF%BD%8E",
  // The valid value with its first character made a full-width look-alike.
  encodeURIComponent(String.fromCodePoint((valid.codePointAt(0) ?? 65) + 0xfee0) + valid.slice(1)),
  "%zz",
  "..%2F..%2Fetc",
  "%20",
];

const oddHeaderSets: Record<string, string>[] = [
  { "accept-language": headerBytes(`${rightToLeft}${emoji}, *;q=NaN, ${lookAlike};q=2`) },
  { "accept-language": "x".repeat(8000) },
  { cookie: headerBytes(`_session=${emoji}; _interaction=%00; a=\u00ff`) },
  { authorization: headerBytes(`Bearer ${emoji}`) },
  { authorization: `Basic ${Buffer.from(`${nul}:${nul}`).toString("base64")}` },
  { authorization: `Bearer ${"x".repeat(10_000)}` },
  { "content-type": "application/json; charset=utf-16" },
  { "if-none-match": headerBytes(lookAlike), origin: headerBytes(`https://${emoji}.example`) },
  { dpop: headerBytes(`${emoji}.${lookAlike}.x`), "x-forwarded-for": "::zz, 999.1.1.1" },
];

const methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"];

function urlsOf(route: RouteDefinition): string[] {
  if (!route.api) return [route.path];
  return [route.path, apiPrefix + route.path];
}

/** The route's path with its parameters set to the known values, or one of them to `segment`. */
function fill(path: string, valid: (param: string) => string, bad?: { param: string; segment: string }) {
  return path.replace(/:([A-Za-z]+)/g, (_, param: string) =>
    bad?.param === param ? bad.segment : encodeURIComponent(valid(param)),
  );
}

/** Every string or number of a JSON value replaced, one at a time, by each of `replacements`. */
function mutations(value: unknown, replacements: (leaf: string | number) => unknown[]): unknown[] {
  if (typeof value === "string" || typeof value === "number") return replacements(value);
  if (Array.isArray(value)) {
    const items: unknown[] = value;
    return items.flatMap((item, index) =>
      mutations(item, replacements).map((changed) => items.map((old, at) => (at === index ? changed : old))),
    );
  }
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) =>
      mutations(item, replacements).map((changed) => ({ ...value, [key]: changed })),
    );
  return [];
}

const invalidLeaf = (leaf: string | number) =>
  typeof leaf === "string" ? invalidTexts : [1e308, -1, 1.5, "1", null];

function staleVersion(body: Record<string, unknown>) {
  return "version" in body ? { ...body, version: 1_000_000 } : body;
}

const json = { "content-type": "application/json" };
const form = { "content-type": "application/x-www-form-urlencoded" };

/** Whole bodies no route takes. */
const brokenBodies: { headers: Record<string, string>; body: string }[] = [
  { headers: json, body: "{" },
  { headers: json, body: "null" },
  { headers: json, body: "[]" },
  { headers: json, body: '"text"' },
  { headers: json, body: '{"__proto__": {"admin": true}}' },
  { headers: json, body: "[".repeat(5000) },
  { headers: json, body: JSON.stringify({ padding: "x".repeat(65 * 1024) }) },
  { headers: { "content-type": "text/plain" }, body: "{}" },
  { headers: form, body: "a=%00&b=%zz" },
  { headers: { "content-type": "multipart/form-data; boundary=x" }, body: "--x\r\n" },
  { headers: { "content-type": headerBytes(`application/${emoji}`) }, body: "{}" },
];

/** The engine's parameters, each set to a NUL, an over-long value or odd Unicode in turn. */
function engineParameterSets(clientId: string): URLSearchParams[] {
  const valid = {
    client_id: clientId,
    response_type: "code",
    scope: "openid",
    redirect_uri: "https://app.example/callback",
    state: "s",
    nonce: "n",
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    grant_type: "authorization_code",
    code: "c",
    code_verifier: "v",
    refresh_token: "r",
    token: "t",
    token_type_hint: "access_token",
    access_token: "a",
    ui_locales: "sl",
    prompt: "login",
    max_age: "10",
    client_secret: "s",
  };
  const sets = [new URLSearchParams({ ...valid, client_id: "made-up" })];
  for (const key of Object.keys(valid))
    for (const value of [nul, loneSurrogate, "x".repeat(3000), rightToLeft, emoji, lookAlike])
      sets.push(new URLSearchParams({ ...valid, [key]: value }));
  return sets;
}

const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** Activity cursors that are not one the server made. */
const badCursors = [
  "a%00b",
  "%ED%A0%80",
  "x".repeat(3000),
  cursorOf([1.5, "a"]),
  cursorOf([1e308, "a"]),
  cursorOf([-1e308, nul]),
  cursorOf([Date.now(), nul]),
  cursorOf([Date.now(), loneSurrogate]),
  cursorOf({ createdAt: 1 }),
];

/** The requests of the bad-input suite: every route of the route table, every kind of bad input. */
export function badRequests(known: KnownData): BadRequest[] {
  const validParam = (name: RouteName) => (param: string) => {
    if (name.startsWith("AuthFlow") || name === "OIDCResume") return known.flowId;
    if (param === "appId") return known.applicationId;
    if (param === "identityId") return known.identityId;
    if (param === "activityId") return known.activityId;
    if (param === "provider") return "google";
    if (name.startsWith("ApplicationTemplate")) return known.templateId;
    if (name.startsWith("Organization")) return known.organizationId;
    if (name.startsWith("Activity")) return known.activityId;
    return known.identityId;
  };

  const requests: BadRequest[] = [];
  const push = (
    kind: { engine: boolean; page: boolean },
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ) =>
    requests.push({
      method,
      path,
      headers: { ...(kind.engine ? {} : known.callerHeaders(path)), ...headers },
      ...(body === undefined || method === "GET" || method === "HEAD" ? {} : { body }),
      ...kind,
    });

  for (const [name, route] of Object.entries(routes) as [RouteName, RouteDefinition][]) {
    const kind = { engine: engineRouteNames.includes(name), page: route.page === true };
    for (const url of urlsOf(route)) {
      const add = (method: string, path: string, headers?: Record<string, string>, body?: string) =>
        push(kind, method, path, headers, body);
      const path = fill(url, validParam(name));

      for (const method of methods) add(method, path, json, "{}");
      add("FOO", path);
      for (const headers of oddHeaderSets) add(route.page ? "GET" : "POST", path, headers, "{}");
      for (const query of ["?flow=a%00b", "?flow=x", `?flow=${"x".repeat(3000)}`, "?a=%00&a=%ED%A0%80"])
        add("GET", path + query);

      for (const param of [...url.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1] ?? ""))
        for (const segment of badSegments(validParam(name)(param))) {
          const bad = fill(url, validParam(name), { param, segment });
          add("GET", bad);
          add("POST", bad, json, "{}");
        }

      if (name === "ActivityList" || name === "OrganizationActivity")
        for (const cursor of badCursors) add("GET", `${path}?cursor=${cursor}`);
      for (const broken of brokenBodies) add("POST", path, broken.headers, broken.body);
      const body = known.bodies[name];
      if (body) {
        for (const changed of mutations(body, invalidLeaf)) add("POST", path, json, JSON.stringify(changed));
        for (const changed of mutations(staleVersion(body), () => oddTexts))
          add("POST", path, json, JSON.stringify(changed));
      }
      if (kind.engine)
        for (const parameters of engineParameterSets(known.clientId)) {
          add("GET", `${path}?${parameters.toString()}`);
          add("POST", path, form, parameters.toString());
        }
    }
  }
  return requests;
}
