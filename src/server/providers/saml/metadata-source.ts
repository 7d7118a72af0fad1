import fs from "node:fs/promises";
import path from "node:path";
import { samlMetadata } from "../../../common/limits.ts";
import { IdpMetadataError, readIdpMetadataInThread, type IdpMetadata } from "./idp-metadata.ts";
import type { SamlProviderSettings } from "./settings.ts";

/** What the metadata source reports to the operator (a pino logger fits). */
export interface SamlLog {
  info: (details: object, message: string) => void;
  warn: (details: object, message: string) => void;
}

/** An IdP's metadata as last read successfully, kept up to date in the background. */
export interface IdpMetadataSource {
  /** The last good copy, or undefined while none could be read. */
  current: () => IdpMetadata | undefined;
  /** Stops refreshing. */
  close: () => void;
}

export interface MetadataSourceOptions {
  log: SamlLog;
  /** Where a relative `metadataFile` is found: the configuration file's folder. */
  configDir?: string;
  refreshMs?: number;
  retryMs?: number;
  timeoutMs?: number;
}

async function fetchText(url: string, timeoutMs: number): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
  } catch (error) {
    throw new IdpMetadataError(
      `the IdP's metadata could not be fetched from ${url}: ${(error as Error).message}`,
    );
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new IdpMetadataError(`the IdP's metadata at ${url} answered ${response.status}`);
  }
  const length = Number(response.headers.get("content-length") ?? 0);
  if (length > samlMetadata.maxBytes) {
    await response.body?.cancel();
    throw new IdpMetadataError(`the IdP's metadata at ${url} is larger than ${samlMetadata.maxBytes} bytes`);
  }
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > samlMetadata.maxBytes) {
    throw new IdpMetadataError(`the IdP's metadata at ${url} is larger than ${samlMetadata.maxBytes} bytes`);
  }
  return bytes.toString("utf8");
}

async function readText(file: string): Promise<string> {
  try {
    return await fs.readFile(file, "utf8");
  } catch (error) {
    throw new IdpMetadataError(
      `the IdP's metadata file ${file} could not be read: ${(error as Error).message}`,
    );
  }
}

/**
 * Reads the IdP's metadata now and again every `refreshMs`, keeping the last good copy when a
 * refresh fails (the IdP's server may be down for a while; its keys rarely change). A metadata file
 * that cannot be used at start stops the start: it is the operator's to fix. A URL that does not
 * answer at start only makes the IdP unavailable until it does, retried every `retryMs`, so one
 * IdP's outage does not keep Vrata from starting.
 */
export async function openIdpMetadataSource(
  settings: SamlProviderSettings,
  {
    log,
    configDir = process.cwd(),
    refreshMs = samlMetadata.refreshMs,
    retryMs = samlMetadata.retryMs,
    timeoutMs = samlMetadata.timeoutMs,
  }: MetadataSourceOptions,
): Promise<IdpMetadataSource> {
  const { metadataUrl, metadataFile, idpEntityId } = settings;
  const load = async () => {
    const text = metadataUrl
      ? await fetchText(metadataUrl, timeoutMs)
      : await readText(path.resolve(configDir, metadataFile ?? ""));
    return readIdpMetadataInThread(text, idpEntityId);
  };

  let current: IdpMetadata | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const schedule = () => {
    if (closed) return;
    timer = setTimeout(() => void refresh(), current ? refreshMs : retryMs);
    // A pending refresh never keeps the process alive on its own.
    timer.unref();
  };
  const refresh = async () => {
    try {
      const loaded = await load();
      if (!current) log.info({ provider: settings.key, idp: loaded.entityId }, "SAML IdP metadata loaded");
      current = loaded;
    } catch (error) {
      log.warn(
        { provider: settings.key, kept: current !== undefined },
        error instanceof IdpMetadataError ? error.message : String(error),
      );
    }
    schedule();
  };

  if (metadataFile === undefined) await refresh();
  else {
    current = await load();
    schedule();
  }
  return {
    current: () => current,
    close: () => {
      closed = true;
      clearTimeout(timer);
    },
  };
}
