import { useMemo, type Ref } from "react";
import { useTranslation } from "../../i18n/index.ts";
import { Link } from "react-router";
import type { Activity } from "../../../common/api/activity.ts";
import { useSiteContext } from "../../api.ts";
import { useFormatTimestamp } from "../../format.ts";
import { ActivityIcon } from "./ActivityIcon.tsx";
import {
  changeSentence,
  headline,
  namer,
  providerText,
  referencesOf,
  type ReferenceKind,
  type Sentence,
} from "./activityText.ts";
import { useRelativeTime } from "./relativeTime.ts";

/** The words of activity in the reader's language, with the built-in names translated. */
export function useActivityWords() {
  const { t, language } = useTranslation();
  const context = useSiteContext();
  return useMemo(
    () => ({
      t,
      language,
      name: namer(t, context),
      provider: (key: string) => providerText(t, context, key, language),
    }),
    [t, language, context],
  );
}

const nameLink =
  "font-semibold text-blue-800 underline underline-offset-4 hover:text-blue-900 dark:text-blue-300 dark:hover:text-blue-100";

/** A sentence with its names as links to their pages, where the reader can open them. */
export function SentenceView({ sentence }: { readonly sentence: Sentence }) {
  return sentence.map((part, index) =>
    typeof part === "string" ? (
      // The parts of a sentence are fixed by its words; their order never changes.
      <span key={index}>{part}</span>
    ) : part.path ? (
      <Link key={index} to={part.path} className={nameLink}>
        {part.name}
      </Link>
    ) : (
      <strong key={index} className="font-semibold">
        {part.name}
      </strong>
    ),
  );
}

/** The names of an entry's items of one kind, as links, or that they are not shown to the reader. */
export function ReferenceNames({ entry, kind }: { readonly entry: Activity; readonly kind: ReferenceKind }) {
  const { t } = useTranslation();
  const words = useActivityWords();
  return referencesOf(entry, kind).map((reference, index) => {
    const named = words.name(kind, reference);
    return (
      // An entry's items keep their order.
      <span key={index} className="block">
        {named ? (
          <SentenceView sentence={[named]} />
        ) : (
          <span className="text-slate-600 dark:text-slate-400">{t("activity.hidden")}</span>
        )}
      </span>
    );
  });
}

/** Where a sign-in or sign-out was and how: the organization, the identity and the methods used. */
function SignInContext({ entry }: { readonly entry: Activity }) {
  const { t } = useTranslation();
  const words = useActivityWords();
  const context = useSiteContext();
  const [organization] = entry.organizations ?? [];
  const [identity] = entry.identities ?? [];
  const named = (kind: ReferenceKind, reference: typeof organization) => {
    const part = reference && words.name(kind, reference);
    return part ? <SentenceView sentence={[part]} /> : t("activity.hidden");
  };
  const details: [string, React.ReactNode][] = [
    [t("activity.fields.organizations"), organization && named("organization", organization)],
    [t("activity.fields.identities"), identity && named("identity", identity)],
    [
      t("activity.fields.providers"),
      entry.providers?.length
        ? entry.providers.map((provider) => providerText(t, context, provider, words.language)).join(", ")
        : null,
    ],
  ];
  return (
    <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700 dark:text-slate-300">
      {details
        .filter(([, value]) => Boolean(value))
        .map(([label, value]) => (
          <span key={label}>
            <span className="text-slate-600 dark:text-slate-400">{label}:</span> {value}
          </span>
        ))}
    </p>
  );
}

/** The entry's changes, one sentence each. */
export function ChangeSentences({ entry }: { readonly entry: Activity }) {
  const words = useActivityWords();
  const sentences = (entry.changes ?? []).map((change) => changeSentence(words, entry.type, change));
  if (sentences.length === 0) return null;
  return (
    <ul className="flex flex-col gap-0.5 text-slate-800 dark:text-slate-200">
      {sentences.map((sentence, index) => (
        // The changes of an entry are fixed; their order never changes.
        <li key={index} className="break-words">
          <SentenceView sentence={sentence} />.
        </li>
      ))}
    </ul>
  );
}

/** Who did it, when the entry names someone other than the reader (an organization's activity). */
export function ActorName({ entry }: { readonly entry: Activity }) {
  const { t } = useTranslation();
  const words = useActivityWords();
  const named = entry.actor && words.name("identity", entry.actor);
  if (!entry.actor) return null;
  return named ? (
    <SentenceView sentence={[named]} />
  ) : (
    <span className="text-slate-600 dark:text-slate-400">{t("activity.hidden")}</span>
  );
}

/** Types whose row names the organization and identity instead of an actor: the identity is who acted. */
const sessionTypes: readonly Activity["type"][] = ["signIn", "signOut"];

/** One row of the activity list: what happened, in words, who did it, and when (a link to the entry). */
export function ActivityRow({
  entry,
  path,
  linkRef,
}: {
  readonly entry: Activity;
  /** The entry's own page. */
  readonly path: string;
  readonly linkRef: Ref<HTMLAnchorElement>;
}) {
  const { t } = useTranslation();
  const words = useActivityWords();
  const relativeTime = useRelativeTime();
  const formatTimestamp = useFormatTimestamp();
  const when = relativeTime(entry.timestamp);
  return (
    <li className="flex gap-3 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900">
      <ActivityIcon type={entry.type} />
      {/* When: beside what happened on wide screens, below it on narrow ones. */}
      <div className="flex min-w-0 flex-1 flex-col gap-1 sm:flex-row sm:justify-between sm:gap-4">
        <div className="flex min-w-0 flex-col gap-1">
          <p className="font-medium break-words text-slate-900 dark:text-slate-100">
            <SentenceView sentence={headline(words, entry)} />
          </p>
          {entry.actor && !sessionTypes.includes(entry.type) && (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              <span className="text-slate-600 dark:text-slate-400">{t("activity.fields.actor")}:</span>{" "}
              <ActorName entry={entry} />
            </p>
          )}
          {sessionTypes.includes(entry.type) && <SignInContext entry={entry} />}
          <div className="text-sm">
            <ChangeSentences entry={entry} />
          </div>
        </div>
        <Link
          ref={linkRef}
          to={path}
          aria-label={t("activity.details", { time: when })}
          className="shrink-0 self-start text-sm text-slate-700 underline underline-offset-4 hover:text-slate-900 sm:mt-0.5 dark:text-slate-300 dark:hover:text-slate-100"
        >
          <time dateTime={entry.timestamp} title={formatTimestamp(entry.timestamp)}>
            {when}
          </time>
        </Link>
      </div>
    </li>
  );
}
