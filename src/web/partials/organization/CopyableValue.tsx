import { CopyButton } from "../../components/CopyButton.tsx";
import { Identifier } from "../../components/Identifier.tsx";

/** A value to paste into the app's configuration, with its copy button beside it or under it. */
export function CopyableValue({ value, copyLabel }: { readonly value: string; readonly copyLabel: string }) {
  return (
    <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <Identifier value={value} />
      <CopyButton value={value} label={copyLabel} />
    </span>
  );
}
