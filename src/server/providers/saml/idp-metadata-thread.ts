import { isMainThread, parentPort, workerData } from "node:worker_threads";
import { IdpMetadataError, parseIdpMetadata } from "./idp-metadata.ts";

// Reads one IdP metadata document in a worker thread (see `readIdpMetadataInThread`) and posts back
// what it found, or why the metadata cannot be used. Loaded anywhere else (`vrata precompile`), it
// does nothing.

function answer({ xml, entityId }: { xml: string; entityId: string | undefined }): void {
  try {
    parentPort?.postMessage({ metadata: parseIdpMetadata(xml, entityId) });
  } catch (error) {
    if (!(error instanceof IdpMetadataError)) throw error;
    parentPort?.postMessage({ refused: error.message });
  }
}

if (!isMainThread) answer(workerData as Parameters<typeof answer>[0]);
