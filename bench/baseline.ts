import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { root } from "./servers.ts";

// The A/B of `npm run bench -- --baseline <ref>`: that ref checked out into a temporary git worktree
// beside this checkout, sharing its node_modules, with its web app built there, so that its Vrata can
// run in the same rounds as this one's.

export interface BaselineCheckout {
  ref: string;
  /** The commit the ref named when it was checked out. */
  commit: string;
  dir: string;
  remove: () => void;
}

const git = (args: string[], cwd = root) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

export function checkOutBaseline(ref: string): BaselineCheckout {
  const commit = git(["rev-parse", "--verify", `${ref}^{commit}`]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vrata-baseline-"));
  git(["worktree", "add", "--detach", "--quiet", dir, commit]);
  const modules = path.join(dir, "node_modules");
  const remove = () => {
    // The link goes first, so that nothing removing the worktree could reach this checkout's modules.
    fs.rmSync(modules, { force: true });
    git(["worktree", "remove", "--force", dir]);
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    fs.symlinkSync(fs.realpathSync(path.join(root, "node_modules")), modules);
    // Its own build of its own web app (the flow page it serves is part of what it is).
    execFileSync(process.execPath, ["scripts/build-web.ts"], { cwd: dir, stdio: "inherit" });
  } catch (error) {
    remove();
    throw error;
  }
  return { ref, commit, dir, remove };
}
