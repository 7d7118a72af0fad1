import { Fragment } from "react";

/** After these a long address may wrap, so that its words ("callback", a host name) stay whole. */
const breakAfter = /(?<=[/.?&=#_-])/;

/**
 * An ID or address as it is shown: in a monospace font, wrapping after its separators where it can
 * and anywhere only where a part is wider than its box.
 */
export function Identifier({ value }: { readonly value: string }) {
  const parts = value.split(breakAfter);
  return (
    <span className="font-mono wrap-anywhere">
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </span>
  );
}
