import { parentPort, workerData } from "node:worker_threads";
import { IdpMetadataError, parseIdpMetadata } from "./idp-metadata.ts";

// Reads one IdP metadata document in a worker thread (see `readIdpMetadataInThread`) and posts back
// what it found, or why the metadata cannot be used.

const { xml, entityId } = workerData as { xml: string; entityId: string | undefined };
try {
  parentPort?.postMessage({ metadata: parseIdpMetadata(xml, entityId) });
} catch (error) {
  if (!(error instanceof IdpMetadataError)) throw error;
  parentPort?.postMessage({ refused: error.message });
}
