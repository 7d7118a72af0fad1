import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { z } from "zod/mini";
import { providerKeyPattern } from "../common/ids.ts";
import { decodeInstanceKey, keyFormatHint, type SecretKeySource } from "./secrets/instance-key.ts";
import { logFormats, type LogFormat } from "./operations/log-output.ts";
import { samlProviderSettingsSchema, type SamlProviderSettings } from "./providers/saml/settings.ts";
import "./validation-messages.ts";

/**
 * Vrata's settings: each one is a flag, an environment variable and a default. The same table
 * drives parsing, validation and `--help`, so the three never drift apart.
 */
const optionTable = {
  config: {
    env: "VRATA_CONFIG",
    help: "JSON file with settings (named as the flags, which win over it) and third-party providers",
    schema: z.string().check(z.minLength(1)),
  },
  port: {
    env: "VRATA_PORT",
    help: "port to listen on",
    // Port 0 would listen on a port nobody knows in advance, while the issuer names port 0.
    schema: z.coerce
      .number()
      .check(z.int(), z.gte(1, "must be between 1 and 65535"), z.lte(65535, "must be between 1 and 65535")),
    defaultValue: "8080",
  },
  host: {
    env: "VRATA_HOST",
    help: "address to listen on (0.0.0.0 or :: for every interface)",
    schema: z.string().check(z.minLength(1)),
    defaultValue: "localhost",
  },
  data: {
    env: "VRATA_DATA",
    help: "folder for the SQLite database, the instance key and the generated TLS certificates",
    schema: z.string().check(z.minLength(1)),
    defaultValue: "./data",
  },
  issuer: {
    env: "VRATA_ISSUER",
    help: "public https:// origin of this server (default https://localhost:<port>)",
    schema: z
      .string()
      .check(
        z.refine(isHttpsOrigin, "must be an https:// origin without a path, e.g. https://id.example.com"),
      ),
  },
  database: {
    env: "VRATA_DATABASE_URL",
    help: "postgres://user:password@host/db for PostgreSQL (default: SQLite in the data folder)",
    schema: z.string().check(z.refine(isPostgresUrl, "must be a postgres:// or postgresql:// URL")),
    shown: withoutPassword,
  },
  "database-wait": {
    env: "VRATA_DATABASE_WAIT",
    help: "seconds a start waits for a PostgreSQL that does not answer yet before it gives up",
    schema: z.coerce
      .number()
      .check(z.int(), z.gte(0, "must be 0 or more"), z.lte(3600, "must be at most 3600 (an hour)")),
    defaultValue: "60",
  },
  "tls-cert": {
    env: "VRATA_TLS_CERT",
    help: "PEM certificate chain file (default: a generated local CA and localhost certificate)",
    schema: z.string().check(z.minLength(1)),
  },
  "tls-key": {
    env: "VRATA_TLS_KEY",
    help: "PEM private key file for --tls-cert",
    schema: z.string().check(z.minLength(1)),
  },
  "behind-proxy": {
    env: "VRATA_BEHIND_PROXY",
    help: "listen on plain HTTP behind a TLS-terminating proxy (needs --issuer)",
    schema: z.stringbool(),
    boolean: true,
    defaultValue: "false",
  },
  title: {
    env: "VRATA_TITLE",
    help: "name of this instance shown in the interface",
    schema: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
    defaultValue: "Vrata",
  },
  "mail-host": {
    env: "VRATA_MAIL_HOST",
    help: "SMTP server for e-mail (without it, e-mails are written to the log)",
    schema: z.string().check(z.minLength(1)),
  },
  "mail-port": {
    env: "VRATA_MAIL_PORT",
    help: "SMTP port (465 means TLS from the start)",
    schema: z.coerce.number().check(z.int(), z.gte(1), z.lte(65535)),
    defaultValue: "587",
  },
  "mail-user": {
    env: "VRATA_MAIL_USER",
    help: "SMTP user name",
    schema: z.string().check(z.minLength(1)),
  },
  "mail-password-file": {
    env: "VRATA_MAIL_PASSWORD_FILE",
    help: "file holding the SMTP password",
    schema: z.string().check(z.minLength(1)),
  },
  "mail-from": {
    env: "VRATA_MAIL_FROM",
    help: "sender of e-mails, e.g. Vrata <noreply@example.com>",
    schema: z.string().check(z.refine((value) => /@/.test(value), "must contain an e-mail address")),
    defaultValue: "Vrata <noreply@localhost>",
  },
  "mail-starttls": {
    env: "VRATA_MAIL_STARTTLS",
    help: "require STARTTLS on the SMTP connection (turn off only for a server on this machine)",
    schema: z.stringbool(),
    boolean: true,
    defaultValue: "true",
  },
  "secret-key-file": {
    env: "VRATA_SECRET_KEY_FILE",
    help: "file holding the instance key that seals the store's secrets (default: secret.key in the data folder, made on first start)",
    schema: z.string().check(z.minLength(1)),
  },
  "secret-key": {
    env: "VRATA_SECRET_KEY",
    help: "the instance key itself, instead of --secret-key-file",
    schema: z
      .string()
      .check(z.refine((value) => decodeInstanceKey(value) !== undefined, `must be ${keyFormatHint}`)),
    secret: true,
  },
  "metrics-token-file": {
    env: "VRATA_METRICS_TOKEN_FILE",
    help: "file holding the token a Prometheus scraper presents at /metrics (without it, /metrics is off)",
    schema: z.string().check(z.minLength(1)),
  },
  "key-rotation-days": {
    env: "VRATA_KEY_ROTATION_DAYS",
    help: "days a signing key signs before a new one replaces it (0: only by `vrata keys rotate`)",
    schema: z.coerce
      .number()
      .check(z.int(), z.gte(0, "must be 0 or more"), z.lte(3650, "must be at most 3650 (ten years)")),
    defaultValue: "90",
  },
  "key-lead-minutes": {
    env: "VRATA_KEY_LEAD_MINUTES",
    help: "minutes a new signing key is published before it signs, so relying parties' caches have it",
    schema: z.coerce
      .number()
      .check(z.int(), z.gte(0, "must be 0 or more"), z.lte(10080, "must be at most 10080 (a week)")),
    defaultValue: "60",
  },
  "backchannel-logout-retries": {
    env: "VRATA_BACKCHANNEL_LOGOUT_RETRIES",
    help: "seconds to wait before each new attempt to tell an app that cannot be reached of a logout",
    schema: z
      .pipe(
        z.string(),
        z.transform((value) =>
          value.trim() === "" ? [] : value.split(",").map((part) => Number(part.trim())),
        ),
      )
      .check(
        z.refine(
          (delays) =>
            delays.length <= 10 &&
            delays.every((delay) => Number.isFinite(delay) && delay > 0 && delay <= 3600),
          "must be up to 10 comma-separated numbers of seconds, each above 0 and at most 3600 (e.g. 5,30,120)",
        ),
      ),
    defaultValue: "5,30,120",
  },
  "backchannel-logout-private": {
    env: "VRATA_BACKCHANNEL_LOGOUT_PRIVATE",
    help: "let logout tokens go to apps on loopback and private addresses (off: refused, so that no template can make Vrata call internal services)",
    schema: z.stringbool(),
    boolean: true,
    defaultValue: "false",
  },
  workers: {
    env: "VRATA_WORKERS",
    help: "processes serving requests, sharing one port (default: the number of cores Vrata may use; 1: a single process)",
    schema: z.coerce
      .number()
      .check(z.int(), z.gte(1, "must be 1 or more"), z.lte(256, "must be at most 256")),
  },
  "drain-delay": {
    env: "VRATA_DRAIN_DELAY",
    help: "seconds between SIGTERM and no longer taking connections, while readiness says 503 so that load balancers move away",
    schema: z.coerce
      .number()
      .check(z.gte(0, "must be 0 or more"), z.lte(300, "must be at most 300 (five minutes)")),
    defaultValue: "5",
  },
  "account-deletion-grace-days": {
    env: "VRATA_ACCOUNT_DELETION_GRACE_DAYS",
    help: "days an account asked to be deleted stays, during which signing in offers to keep it (0: deleted at the next cleanup)",
    schema: z.coerce
      .number()
      .check(z.int(), z.gte(0, "must be 0 or more"), z.lte(365, "must be at most 365 (a year)")),
    defaultValue: "7",
  },
  "log-level": {
    env: "VRATA_LOG_LEVEL",
    help: "fatal, error, warn, info, debug, trace or silent",
    schema: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]),
    defaultValue: "info",
  },
  "log-format": {
    env: "VRATA_LOG_FORMAT",
    help: "json, pretty (one readable line each) or auto (pretty at a terminal, json otherwise)",
    schema: z.enum(logFormats),
    defaultValue: "auto",
  },
  dev: {
    env: "VRATA_DEV",
    help: "serve the web app from Vite with hot reload (development only)",
    schema: z.stringbool(),
    boolean: true,
    defaultValue: "false",
  },
} as const satisfies Record<string, OptionDefinition>;

interface OptionDefinition {
  env: string;
  help: string;
  schema: z.ZodMiniType;
  boolean?: boolean;
  defaultValue?: string;
  /** Only from the environment (process lists show flags to everyone), and never repeated in messages. */
  secret?: boolean;
  /** The value as a message may repeat it, when part of it is secret. */
  shown?: (value: string) => string;
}

type OptionName = keyof typeof optionTable;

export interface MailConfig {
  host: string;
  port: number;
  user?: string;
  passwordFile?: string;
  from: string;
  starttls: boolean;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  issuer: string;
  /** Issuer given explicitly rather than derived from the port. */
  issuerExplicit: boolean;
  database: { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };
  /** How long a start waits for a PostgreSQL store that does not answer yet. */
  databaseWaitMs: number;
  tls: { kind: "generated" } | { kind: "files"; certFile: string; keyFile: string } | { kind: "proxy" };
  title: string;
  logLevel: z.infer<(typeof optionTable)["log-level"]["schema"]>;
  logFormat: LogFormat;
  mail?: MailConfig;
  secretKey: SecretKeySource;
  /** When new signing keys replace the ones that sign (README, Signing keys). */
  keyRotation: { days: number; leadMinutes: number };
  /** Turns /metrics on for whoever presents the token in this file. */
  metricsTokenFile?: string;
  /** Milliseconds before each further attempt at a back-channel logout that failed. */
  backchannelLogoutRetriesMs: number[];
  /** Days an account asked to be deleted stays before the cleanup deletes it. */
  accountDeletionGraceDays: number;
  /** Back-channel logout may reach loopback and private network addresses. */
  backchannelLogoutPrivate: boolean;
  dev: boolean;
  /** Processes serving requests: with more than one, a primary process starts them and replaces any that dies. */
  workers: number;
  /** How long a SIGTERM leaves the instance taking connections while readiness turns load balancers away. */
  drainDelayMs: number;
  /** Third-party sign-in providers from the configuration file, in its order. */
  providers: ProviderSettings[];
}

/** Sign-in methods of Vrata's own: a provider cannot take their names. */
const builtInMethods = ["password", "code", "passkey", "username", "email"];

const httpsUrl = z
  .string()
  .check(
    z.refine(
      (value) => URL.canParse(value) && new URL(value).protocol === "https:",
      "must be an https:// URL",
    ),
  );

const providerFields = {
  key: z.string().check(
    z.regex(providerKeyPattern, "must be 1-64 letters, digits, _ or - (it is a path segment)"),
    z.refine((key) => !builtInMethods.includes(key), "is the name of one of Vrata's own sign-in methods"),
  ),
  /** The button's text in each language of the interface. */
  name: z.strictObject({
    en: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
    sl: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  }),
};

/** Where well-known providers publish their discovery document, and what their quirks need. */
export const oidcPresets = {
  google: { issuer: "https://accounts.google.com" },
  microsoft: { issuer: "https://login.microsoftonline.com/common/v2.0" },
  // Facebook's discovery document names no token endpoint, and its code flow needs PKCE.
  facebook: {
    issuer: "https://www.facebook.com",
    tokenEndpoint: "https://graph.facebook.com/oauth/access_token",
    forcePkce: true,
  },
  generic: {},
} as const satisfies Record<string, { issuer?: string; tokenEndpoint?: string; forcePkce?: boolean }>;

/** How Vrata may authenticate at a provider's token endpoint (RFC 6749 §2.3, OIDC Core §9). */
export const tokenEndpointAuthMethods = [
  "client_secret_basic",
  "client_secret_post",
  "private_key_jwt",
] as const;

const oidcProviderSchema = z.pipe(
  z
    .strictObject({
      ...providerFields,
      type: z.literal("oidc"),
      preset: z.optional(z.enum(Object.keys(oidcPresets) as [keyof typeof oidcPresets])),
      issuer: z.optional(httpsUrl),
      clientId: z.string().check(z.minLength(1), z.maxLength(500)),
      /** A file holding the client secret (relative to the configuration file). */
      clientSecretFile: z.optional(z.string().check(z.minLength(1))),
      /** An environment variable holding the client secret. */
      clientSecretEnv: z.optional(
        z.string().check(z.regex(/^[A-Za-z_]\w*$/, "must be the name of an environment variable")),
      ),
      scopes: z.optional(
        z
          .array(
            z.string().check(z.regex(/^[\x21\x23-\x5b\x5d-\x7e]+$/, "must be scope names without spaces")),
          )
          .check(z.minLength(1)),
      ),
      forcePkce: z.optional(z.boolean()),
      tokenEndpoint: z.optional(httpsUrl),
      tokenEndpointAuthMethod: z.optional(z.enum(tokenEndpointAuthMethods)),
    })
    .check(
      z.refine((entry) => !(entry.clientSecretFile && entry.clientSecretEnv), {
        message: "takes clientSecretFile or clientSecretEnv, not both",
      }),
      z.refine(
        (entry) =>
          entry.tokenEndpointAuthMethod !== "private_key_jwt" ||
          (entry.clientSecretFile === undefined && entry.clientSecretEnv === undefined),
        {
          message:
            "private_key_jwt signs with Vrata's own key and takes no clientSecretFile or clientSecretEnv",
          path: ["tokenEndpointAuthMethod"],
        },
      ),
      z.refine(
        (entry) =>
          !entry.tokenEndpointAuthMethod?.startsWith("client_secret_") ||
          entry.clientSecretFile !== undefined ||
          entry.clientSecretEnv !== undefined,
        {
          message: "sends a client secret: give clientSecretFile or clientSecretEnv",
          path: ["tokenEndpointAuthMethod"],
        },
      ),
      z.refine(
        (entry) => entry.issuer !== undefined || (entry.preset && "issuer" in oidcPresets[entry.preset]),
        {
          message: "needs an issuer (or a preset of google, microsoft or facebook)",
          path: ["issuer"],
        },
      ),
    ),
  z.transform((entry) => {
    const preset: { issuer?: string; tokenEndpoint?: string; forcePkce?: boolean } =
      oidcPresets[entry.preset ?? "generic"];
    const tokenEndpoint = entry.tokenEndpoint ?? preset.tokenEndpoint;
    const clientSecret =
      entry.clientSecretFile !== undefined
        ? { kind: "file" as const, file: entry.clientSecretFile }
        : entry.clientSecretEnv !== undefined
          ? { kind: "env" as const, name: entry.clientSecretEnv }
          : undefined;
    return {
      key: entry.key,
      type: entry.type,
      name: entry.name,
      // Exactly as written: an issuer is compared as a string, and "https://op/tenant/" is not "https://op/tenant".
      issuer: entry.issuer ?? preset.issuer ?? "",
      clientId: entry.clientId,
      clientSecret,
      // Without a secret, Vrata is a public client at the provider (PKCE protects its code).
      tokenEndpointAuthMethod:
        entry.tokenEndpointAuthMethod ??
        (clientSecret === undefined ? ("none" as const) : "client_secret_basic"),
      scopes: entry.scopes ?? ["openid", "email", "profile"],
      forcePkce: entry.forcePkce ?? preset.forcePkce ?? false,
      ...(tokenEndpoint === undefined ? {} : { tokenEndpoint }),
    };
  }),
);

/** SAML providers are described by the SAML module; the key must not name one of Vrata's own methods. */
const samlProviderSchema = samlProviderSettingsSchema.check(
  z.refine((entry) => !builtInMethods.includes(entry.key), {
    path: ["key"],
    message: "is the name of one of Vrata's own sign-in methods",
  }),
);

export type OidcProviderSettings = z.infer<typeof oidcProviderSchema> & {
  /** Where the configuration file sets the provider (`vrata.json: providers[0]`), for messages. */
  entry: string;
};
export type ProviderSettings = OidcProviderSettings | SamlProviderSettings;

const providerSchemas = { oidc: oidcProviderSchema, saml: samlProviderSchema };

/** The configuration file: settings named as the flags, and the providers. */
interface ConfigFile {
  settings: Record<string, string>;
  providers: ProviderSettings[];
}

/** The first issue of a failed parse as "where: what" on one line. */
function issueText(error: z.core.$ZodError, prefix: string): string {
  const issue = error.issues[0];
  if (!issue) return `${prefix} is invalid`;
  const where = issue.path.reduce<string>(
    (text, part) =>
      typeof part === "number" ? `${text}[${part}]` : text ? `${text}.${String(part)}` : String(part),
    "",
  );
  const message = issue.message.replace(/^Invalid input: /, "");
  return `${prefix}${where ? `.${where}` : ""} ${message}`.replace(/\s+/g, " ");
}

function readConfigFile(file: string): ConfigFile {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(
      `cannot read the configuration file ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not JSON (${(error as Error).message.split("\n")[0] ?? ""})`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    throw new ConfigError(`${file}: must hold a JSON object`);
  const { providers = [], ...rest } = raw as Record<string, unknown>;
  const settings: Record<string, string> = {};
  for (const [name, value] of Object.entries(rest)) {
    const option = (optionTable as Record<string, OptionDefinition>)[name];
    if (!option || name === "config" || option.secret)
      throw new ConfigError(`${file}: "${name}" is not a setting of the configuration file`);
    if (!["string", "number", "boolean"].includes(typeof value))
      throw new ConfigError(`${file}: "${name}" must be a string, number or boolean`);
    settings[name] = String(value);
  }
  if (!Array.isArray(providers)) throw new ConfigError(`${file}: providers must be an array`);
  const folder = path.dirname(file);
  const parsed = providers.map((entry: unknown, index) => {
    const where = `${file}: providers[${index}]`;
    if (typeof entry === "object" && entry !== null && "clientSecret" in entry)
      throw new ConfigError(
        `${where}.clientSecret: keep the secret out of this file, in clientSecretFile or clientSecretEnv`,
      );
    const type = (entry as { type?: unknown } | null)?.type;
    if (type !== "oidc" && type !== "saml") throw new ConfigError(`${where}.type must be "oidc" or "saml"`);
    const result = providerSchemas[type].safeParse(entry);
    if (!result.success) throw new ConfigError(issueText(result.error, where));
    return resolvedPaths(result.data, folder, where);
  });
  const keys = new Set<string>();
  for (const provider of parsed) {
    if (keys.has(provider.key))
      throw new ConfigError(`${file}: provider key "${provider.key}" is used twice`);
    keys.add(provider.key);
  }
  return { settings, providers: parsed };
}

/** Files a provider names are relative to the configuration file's folder. */
function resolvedPaths(
  provider: z.infer<typeof oidcProviderSchema> | SamlProviderSettings,
  folder: string,
  entry: string,
): ProviderSettings {
  if (provider.type === "oidc")
    return provider.clientSecret?.kind === "file"
      ? {
          ...provider,
          entry,
          clientSecret: { kind: "file", file: path.resolve(folder, provider.clientSecret.file) },
        }
      : { ...provider, entry };
  return provider.metadataFile === undefined
    ? provider
    : { ...provider, metadataFile: path.resolve(folder, provider.metadataFile) };
}

/** A setting that cannot be used; its message is one line meant for the person starting Vrata. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

export class HelpRequested extends Error {
  override name = "HelpRequested";
}

function isHttpsOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return url.protocol === "https:" && url.origin === value.replace(/\/$/, "") && !url.username;
}

/**
 * A URL with its password, if any, replaced by `***`: everything between the user's name and the last
 * `@`, so that a password holding `@` or `/` is hidden whole, even in a URL that does not parse.
 */
export function withoutPassword(url: string): string {
  return url.replace(/^([a-z][\w+.-]*:\/\/[^:@/]*:).*@/i, "$1***@");
}

function isPostgresUrl(value: string): boolean {
  return URL.canParse(value) && ["postgres:", "postgresql:"].includes(new URL(value).protocol);
}

function validate<N extends OptionName>(
  name: N,
  raw: string,
  from: string,
): z.infer<(typeof optionTable)[N]["schema"]> {
  const result = optionTable[name].schema.safeParse(raw);
  if (!result.success) {
    const reason = result.error.issues[0]?.message ?? "is invalid";
    const option: OptionDefinition = optionTable[name];
    const given = option.secret ? "" : ` (got ${JSON.stringify(option.shown?.(raw) ?? raw)})`;
    throw new ConfigError(`${from} ${reason.replace(/^Invalid input: /, "")}${given}`);
  }
  return result.data as z.infer<(typeof optionTable)[N]["schema"]>;
}

/** Reads the settings from command-line arguments, then the environment, then the defaults. */
export function loadConfig(args: readonly string[], env: NodeJS.ProcessEnv): Config {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries(
      Object.entries(optionTable)
        .filter(([, option]) => !("secret" in option))
        .map(([name, option]) => [
          name,
          { type: "boolean" in option ? ("boolean" as const) : ("string" as const) },
        ]),
    );
    ({ values } = parseArgs({
      args: [...args],
      options: { ...options, help: { type: "boolean" } },
      strict: true,
      // --no-mail-starttls and the like turn off a setting that is on by default.
      allowNegative: true,
    }));
  } catch (error) {
    throw new ConfigError((error as Error).message.split("\n")[0] ?? "invalid arguments");
  }
  if (values.help) throw new HelpRequested(helpText());

  const fromFlagOrEnv = <N extends OptionName>(name: N) => {
    const option: OptionDefinition = optionTable[name];
    const flag = values[name];
    if (flag !== undefined) return validate(name, String(flag), `--${name}`);
    const fromEnv = env[option.env];
    if (fromEnv !== undefined && fromEnv !== "") return validate(name, fromEnv, option.env);
    return undefined;
  };
  const configFile = fromFlagOrEnv("config");
  const file = configFile === undefined ? undefined : readConfigFile(path.resolve(configFile));

  const setting = <N extends OptionName>(name: N): z.infer<(typeof optionTable)[N]["schema"]> | undefined => {
    const option: OptionDefinition = optionTable[name];
    const given = fromFlagOrEnv(name);
    if (given !== undefined) return given;
    const fromFile = file?.settings[name];
    if (fromFile !== undefined) return validate(name, fromFile, `${configFile ?? ""}: "${name}"`);
    if (option.defaultValue !== undefined) return validate(name, option.defaultValue, `default of --${name}`);
    return undefined;
  };

  const port = setting("port") as number;
  const dataDir = path.resolve(setting("data") as string);
  const explicitIssuer = setting("issuer");
  const behindProxy = setting("behind-proxy") as boolean;
  const certFile = setting("tls-cert");
  const keyFile = setting("tls-key");
  const database = setting("database");

  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new ConfigError("--tls-cert and --tls-key must be given together");
  }
  if (behindProxy && explicitIssuer === undefined) {
    throw new ConfigError("--behind-proxy needs --issuer with the public https:// origin");
  }
  if (behindProxy && certFile !== undefined) {
    throw new ConfigError("--behind-proxy listens on plain HTTP and cannot be combined with --tls-cert");
  }

  const mailHost = setting("mail-host");
  const mailUser = setting("mail-user");
  const mailPasswordFile = setting("mail-password-file");
  if ((mailUser === undefined) !== (mailPasswordFile === undefined)) {
    throw new ConfigError("--mail-user and --mail-password-file must be given together");
  }
  if (mailHost === undefined && mailUser !== undefined)
    throw new ConfigError("--mail-user needs --mail-host");

  const metricsTokenFile = setting("metrics-token-file");
  const secretKeyFile = setting("secret-key-file");
  const secretKey = setting("secret-key");
  // The flag wins over the environment; two settings from the environment leave it unclear which is meant.
  if (secretKeyFile !== undefined && secretKey !== undefined && values["secret-key-file"] === undefined) {
    throw new ConfigError("VRATA_SECRET_KEY and VRATA_SECRET_KEY_FILE cannot both be set");
  }

  return {
    port,
    host: setting("host") as string,
    dataDir,
    issuer: explicitIssuer?.replace(/\/$/, "") ?? `https://localhost:${port}`,
    issuerExplicit: explicitIssuer !== undefined,
    database:
      database === undefined
        ? { kind: "sqlite", file: path.join(dataDir, "vrata.sqlite") }
        : { kind: "postgres", url: database },
    databaseWaitMs: (setting("database-wait") as number) * 1000,
    tls: behindProxy
      ? { kind: "proxy" }
      : certFile !== undefined && keyFile !== undefined
        ? { kind: "files", certFile: path.resolve(certFile), keyFile: path.resolve(keyFile) }
        : { kind: "generated" },
    title: setting("title") as string,
    logLevel: setting("log-level") as Config["logLevel"],
    logFormat: setting("log-format") as LogFormat,
    secretKey:
      secretKeyFile !== undefined
        ? { kind: "file", file: path.resolve(secretKeyFile), createIfMissing: false }
        : secretKey !== undefined
          ? { kind: "value", value: secretKey }
          : { kind: "file", file: path.join(dataDir, "secret.key"), createIfMissing: true },
    dev: setting("dev") as boolean,
    workers: setting("workers") ?? os.availableParallelism(),
    drainDelayMs: (setting("drain-delay") as number) * 1000,
    keyRotation: {
      days: setting("key-rotation-days") as number,
      leadMinutes: setting("key-lead-minutes") as number,
    },
    backchannelLogoutPrivate: setting("backchannel-logout-private") as boolean,
    accountDeletionGraceDays: setting("account-deletion-grace-days") as number,
    backchannelLogoutRetriesMs: (setting("backchannel-logout-retries") as number[]).map((seconds) =>
      Math.round(seconds * 1000),
    ),
    ...(metricsTokenFile === undefined ? {} : { metricsTokenFile: path.resolve(metricsTokenFile) }),
    providers: file?.providers ?? [],
    ...(mailHost === undefined
      ? {}
      : {
          mail: {
            host: mailHost,
            port: setting("mail-port") as number,
            from: setting("mail-from") as string,
            starttls: setting("mail-starttls") as boolean,
            ...(mailUser === undefined ? {} : { user: mailUser }),
            ...(mailPasswordFile === undefined ? {} : { passwordFile: path.resolve(mailPasswordFile) }),
          },
        }),
  };
}

export function helpText(): string {
  const lines = Object.entries(optionTable).map(([name, option]: [string, OptionDefinition]) => {
    const onByDefault = option.defaultValue === "true";
    const flag = option.secret
      ? ""
      : "boolean" in option
        ? `--${onByDefault ? "no-" : ""}${name}`
        : `--${name} <value>`;
    const fallback =
      option.defaultValue !== undefined && !option.boolean ? ` (default ${option.defaultValue})` : "";
    return `  ${flag.padEnd(24)} ${option.env.padEnd(20)} ${option.help}${fallback}`;
  });
  const usage = [
    "Usage: vrata [options]                  serve",
    "       vrata keys rotate [options]      publish new signing keys, signing after --key-lead-minutes",
    "       vrata backup <file> [options]    copy the SQLite store while Vrata serves",
    "       vrata precompile                 compile every module into Node's compile cache",
  ];
  return [...usage, "", "  flag                     environment", ...lines, ""].join("\n");
}

/**
 * How many processes serve requests: the workers, or this one alone (--dev keeps Vrata in one, for the
 * dev server's hot reload).
 */
export const servingProcesses = (config: Pick<Config, "workers" | "dev">): number =>
  config.workers > 1 && !config.dev ? config.workers : 1;
