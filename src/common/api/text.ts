import { z } from "zod/mini";

/**
 * Text as both stores keep it: PostgreSQL's text cannot hold NUL, and a lone UTF-16 surrogate has no
 * UTF-8 form, so either would fail or change on one engine and not the other. Every string of a request
 * body is one of these.
 */
export const storableText = () =>
  z
    .string()
    .check(
      z.refine(
        (value) => !value.includes("\u0000") && value.isWellFormed(),
        "contains a NUL or a lone surrogate",
      ),
    );

/** Text a person types into a field: white space around it dropped, at most `max` UTF-16 units. */
export const typedText = (max: number) => storableText().check(z.trim(), z.maxLength(max));

/** An identifier sent in a body; an unknown one is refused by what it names (`unknownIdentity`, ...). */
export const idText = () => storableText().check(z.maxLength(64));
