// The Containerfile read as a builder reads it, for the test that replays the image's steps on a clean
// copy of the sources. It knows the instructions and forms the Containerfile uses, no more.

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  instructions: Instruction[];
}

/** The stages in order; a stage without `AS name` is named after its place. */
export function readContainerfile(text: string): Stage[] {
  const logical = text
    .split("\n")
    .filter((line) => !line.trimStart().startsWith("#"))
    .join("\n")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, keyword = "", args = ""] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === "FROM") {
      const name = /\bAS\s+(\S+)$/i.exec(args)?.[1] ?? `stage-${stages.length}`;
      stages.push({ name, instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`${keyword} before the first FROM`);
      stage.instructions.push({ keyword: keyword.toUpperCase(), args });
    }
  }
  return stages;
}

/** A COPY's sources, destination and the stage it copies from (none: the build context). */
export function copyArguments(args: string): {
  from: string | undefined;
  sources: string[];
  destination: string;
} {
  const words = args.split(/\s+/);
  const from = words.find((word) => word.startsWith("--from="))?.slice("--from=".length);
  const paths = words.filter((word) => !word.startsWith("--"));
  const destination = paths.pop();
  if (destination === undefined || paths.length === 0) throw new Error(`COPY ${args}: no source`);
  return { from, sources: paths, destination };
}

/** An ENV's variables, in the `NAME=value NAME=value` form (no quotes, no spaces in values). */
export function environmentArguments(args: string): Record<string, string> {
  return Object.fromEntries(
    args.split(/\s+/).map((pair) => {
      const at = pair.indexOf("=");
      if (at < 1) throw new Error(`ENV ${args}: only NAME=value is read`);
      return [pair.slice(0, at), pair.slice(at + 1)];
    }),
  );
}

/** The command of CMD or HEALTHCHECK in its exec form, `[...]` after any options. */
export function execForm(args: string): string[] {
  const json = /(\[.*\])$/.exec(args)?.[1];
  if (json === undefined) throw new Error(`${args}: only the exec form ["…"] is read`);
  return JSON.parse(json) as string[];
}
