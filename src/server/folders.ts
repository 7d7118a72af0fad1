import fs from "node:fs";
import path from "node:path";

/** A folder Vrata needs could not be made; the message names the folder and the reason. */
export class FolderError extends Error {
  override name = "FolderError";
}

const reasons: Record<string, string> = {
  ENOENT: "no such file or directory can be made there",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "read-only file system",
  ENOTDIR: "a file is in the way",
  ENOSPC: "no space left on the device",
};

/**
 * Makes a folder and its missing parents, readable by the owner only. Each missing folder is made on
 * its own, so a place where no folder can be made (a file on the way, a read-only or virtual file
 * system such as /proc, where Node's recursive mkdir never returns) fails at once with its reason.
 */
export function makeFolder(folder: string): void {
  const missing: string[] = [];
  let current = path.resolve(folder);
  while (!fs.existsSync(current)) {
    missing.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  try {
    if (!fs.statSync(current).isDirectory()) throw new FolderError(`${current} is not a folder`);
    for (const dir of missing) fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if (error instanceof FolderError)
      throw new FolderError(`cannot create the folder ${folder}: ${error.message}`);
    const { code, message } = error as NodeJS.ErrnoException;
    // Another instance starting on the same folder made it meanwhile.
    if (code === "EEXIST" && fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) return;
    const reason = code === undefined ? message : (reasons[code] ?? code);
    throw new FolderError(`cannot create the folder ${folder}: ${reason}`);
  }
}
