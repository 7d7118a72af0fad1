import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { displayName, type IdentityMatch } from "../../../common/api/identity.ts";
import { idPattern } from "../../../common/ids.ts";
import { Identifier } from "../../components/Identifier.tsx";
import { identitySearchQuery } from "./identityApi.ts";
import { useKnownIdentity } from "../../currentIdentity.ts";
import { otherNames, PersonAvatar } from "./Person.tsx";

/** Identities a search shows at once; the person types more of a name to find others. */
const shownResults = 8;
/** Typing pauses this long before the search is sent. */
const searchDelayMs = 200;

/** An option of the list: a found identity, or an ID typed in that names nobody the person knows. */
type Option = { kind: "found"; identity: IdentityMatch } | { kind: "id"; id: string };
const optionKey = (option: Option) => (option.kind === "found" ? option.identity.id : option.id);

interface IdentityPickerProps {
  readonly label: string;
  /** Names the list of chosen identities; "Chosen: <label>" unless given. */
  readonly chosenLabel?: string | undefined;
  readonly hint?: string | undefined;
  /** The chosen identity IDs. */
  readonly selected: readonly string[];
  readonly onChange: (selected: string[]) => void;
  /** One identity at most: a new choice replaces the old one. */
  readonly single?: boolean | undefined;
  /** An identity that stays chosen (the signed-in one among admins), labelled "you". */
  readonly current?: string | undefined;
  /** The form field's name, so that the server's error about it lands here. */
  readonly name?: string | undefined;
  readonly error?: string | null | undefined;
}

/**
 * Choosing people by name (ARIA 1.2 combobox with a list box): typing searches the identities the
 * signed-in person may pick; arrows move through the results, Enter picks, Escape closes the list. An
 * identity of someone else is picked by pasting the ID they shared. The chosen ones are shown as chips
 * with a remove button each.
 */
export function IdentityPicker({
  label,
  chosenLabel,
  hint,
  selected,
  onChange,
  single = false,
  current,
  name,
  error,
}: IdentityPickerProps) {
  const { t } = useTranslation();
  const id = useId();
  const [ids] = useState(() => ({
    input: `${id}-input`,
    list: `${id}-list`,
    hint: `${id}-hint`,
    status: `${id}-status`,
    error: `${id}-error`,
    chips: `${id}-chips`,
  }));
  const input = useRef<HTMLInputElement>(null);
  const known = useKnownIdentity();
  // Identities picked from results, so that their chips have names even before the list reloads.
  const [picked, setPicked] = useState<ReadonlyMap<string, IdentityMatch>>(new Map());
  const [text, setText] = useState("");
  const [searched, setSearched] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  useEffect(() => {
    const timer = setTimeout(() => setSearched(text.trim()), searchDelayMs);
    return () => clearTimeout(timer);
  }, [text]);

  const results = useQuery({
    ...identitySearchQuery(searched, shownResults + selected.length),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const typedId = text.trim();
  // Results of an earlier text are not offered: Enter would pick someone the text no longer names.
  const upToDate = searched === typedId && !results.isPlaceholderData;
  const found = upToDate
    ? (results.data?.identities ?? []).filter((identity) => !selected.includes(identity.id))
    : [];
  const options: Option[] = [
    ...found.slice(0, shownResults).map((identity): Option => ({ kind: "found", identity })),
    ...(idPattern.test(typedId) &&
    !found.some((identity) => identity.id === typedId) &&
    !selected.includes(typedId)
      ? [{ kind: "id", id: typedId } as const]
      : []),
  ];
  const loading = open && (results.isFetching || !upToDate);
  const listed = open && options.length > 0;

  function pick(option: Option): void {
    const chosen = optionKey(option);
    if (option.kind === "found") setPicked(new Map(picked).set(chosen, option.identity));
    onChange(single ? [chosen] : [...selected, chosen]);
    setText("");
    setActive(-1);
    setOpen(single ? false : open);
    input.current?.focus();
  }

  function remove(removed: string): void {
    onChange(selected.filter((candidate) => candidate !== removed));
    input.current?.focus();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>): void {
    const move = (step: number) => {
      event.preventDefault();
      if (!open) setOpen(true);
      if (options.length === 0) return;
      setActive((old) => (old + step + options.length) % options.length);
    };
    if (event.key === "ArrowDown") move(1);
    else if (event.key === "ArrowUp") move(-1);
    else if (event.key === "Escape") {
      if (open) {
        event.preventDefault();
        setOpen(false);
        setActive(-1);
      } else if (text !== "") {
        event.preventDefault();
        setText("");
      }
    } else if (event.key === "Enter") {
      const option = options[active];
      // Enter picks; with text typed and nothing to pick it does not send the form half-filled.
      if (open && option) {
        event.preventDefault();
        pick(option);
      } else if (text.trim() !== "") event.preventDefault();
    }
  }

  const status = !open
    ? ""
    : loading
      ? t("identities.picker.searching")
      : options.length === 0
        ? t("identities.picker.none")
        : results.data?.more
          ? t("identities.picker.more", { count: options.length })
          : t("identities.picker.found", { count: options.length });
  const describedBy = [hint ? ids.hint : "", ids.status, error ? ids.error : ""].filter(Boolean).join(" ");
  const nameOf = (chosen: string) => picked.get(chosen) ?? known(chosen);

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={ids.input} className="font-medium">
        {label}
      </label>
      {hint && (
        <p id={ids.hint} className="text-sm text-slate-700 dark:text-slate-300">
          {hint}
        </p>
      )}
      {selected.length > 0 && (
        <ul
          id={ids.chips}
          aria-label={chosenLabel ?? t("identities.picker.chosen", { label })}
          className="flex flex-wrap gap-2"
        >
          {selected.map((chosen) => {
            const identity = nameOf(chosen);
            const chipName = identity ? displayName(identity) : chosen;
            return (
              <li
                key={chosen}
                className="inline-flex max-w-full min-w-0 items-center gap-2 rounded-full border border-slate-300 bg-slate-50 py-1 pr-1 pl-1 dark:border-slate-600 dark:bg-slate-900"
              >
                {identity ? <PersonAvatar identity={identity} size="compact" /> : null}
                <span className="min-w-0 pl-1 text-sm break-words">
                  {identity ? chipName : <Identifier value={chosen} />}
                  {chosen === current && (
                    <span className="ml-2 text-xs text-slate-700 dark:text-slate-300">
                      {t("identities.picker.you")}
                    </span>
                  )}
                </span>
                {chosen !== current && (
                  <button
                    type="button"
                    aria-label={t("identities.picker.remove", { name: chipName })}
                    onClick={() => remove(chosen)}
                    className="inline-flex size-7 shrink-0 items-center justify-center rounded-full text-slate-700 hover:bg-slate-200 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-700 dark:hover:text-slate-100"
                  >
                    <span aria-hidden="true">×</span>
                  </button>
                )}
                {chosen === current && <span className="w-2" />}
              </li>
            );
          })}
        </ul>
      )}
      <div className="relative">
        <input
          ref={input}
          id={ids.input}
          name={name}
          type="text"
          role="combobox"
          autoComplete="off"
          spellCheck={false}
          aria-autocomplete="list"
          aria-expanded={listed}
          aria-controls={ids.list}
          aria-activedescendant={listed && active >= 0 ? `${ids.list}-${active}` : undefined}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          placeholder={t("identities.picker.placeholder")}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            setActive(-1);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={() => {
            setOpen(false);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          className="w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 aria-invalid:border-red-700 dark:border-slate-500 dark:bg-slate-900 dark:text-slate-100 dark:aria-invalid:border-red-400"
        />
        <ul
          id={ids.list}
          role="listbox"
          aria-label={label}
          hidden={!listed}
          className="absolute z-20 mt-1 max-h-80 w-full overflow-y-auto rounded-md border border-slate-300 bg-white py-1 shadow-lg dark:border-slate-600 dark:bg-slate-900"
        >
          {options.map((option, index) => {
            const key = optionKey(option);
            return (
              <li
                key={key}
                id={`${ids.list}-${index}`}
                role="option"
                aria-selected={index === active}
                // Keeps the focus in the input, so that the list does not close before the click.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => pick(option)}
                onMouseMove={() => setActive(index)}
                className="flex cursor-pointer items-center gap-3 px-3 py-2 aria-selected:bg-blue-50 dark:aria-selected:bg-blue-950"
              >
                {option.kind === "found" ? (
                  <>
                    <PersonAvatar identity={option.identity} />
                    <span className="flex min-w-0 flex-col">
                      <span className="font-medium break-words">{displayName(option.identity)}</span>
                      {otherNames(option.identity) && (
                        <span className="text-sm break-words text-slate-700 dark:text-slate-300">
                          {otherNames(option.identity)}
                        </span>
                      )}
                    </span>
                  </>
                ) : (
                  <span className="flex min-w-0 flex-col">
                    <span className="font-medium">{t("identities.picker.useId")}</span>
                    <Identifier value={option.id} />
                  </span>
                )}
              </li>
            );
          })}
        </ul>
      </div>
      <p id={ids.status} role="status" className="text-sm text-slate-700 dark:text-slate-300">
        {status}
      </p>
      {error && (
        <p id={ids.error} className="text-sm font-medium text-red-800 dark:text-red-300">
          {error}
        </p>
      )}
    </div>
  );
}
