import type { Change } from "../../common/api/activity.ts";
import type { Locale } from "../../common/limits.ts";
import { pathFor } from "../../common/routes.ts";
import { recordActivity } from "../activity/activity.ts";
import { MailUnavailableError, type Mailer } from "../mail/mailer.ts";
import { shareMessage } from "../mail/share-message.ts";
import { accountOfShare } from "../store/accounts.ts";
import type { Database } from "../store/database.ts";
import type { ShareTarget } from "../store/identities.ts";

// The people whose shares an edit changed are told after the answer has gone: whether an account has
// an address the identity was shared with must not change what the sharer gets, nor when.

export interface ShareNoticeDeps {
  db: Database;
  mailer: Mailer;
  issuer: string;
  title: string;
}

export interface ShareNotice {
  identityId: string;
  /** The account that made the edit: it is told in its own entry. */
  sharer: string;
  /** The permission changes of the edit, each naming the people it concerns. */
  permissions: readonly Change[];
  changed: readonly (ShareTarget & { added: boolean })[];
  /** The sharer's language, for the e-mails: the person's own is not known. */
  locale: Locale;
}

/**
 * Each person whose access changed reads it in their own activity, told only about themselves; an
 * account given an identity by one of its e-mail addresses is also told by e-mail. An address no
 * account has is told nothing: it is not sent mail on anybody's say-so.
 */
export async function tellSharedPeople(deps: ShareNoticeDeps, notice: ShareNotice): Promise<void> {
  const { db } = deps;
  for (const target of notice.changed) {
    const accountId = await accountOfShare(db, target);
    if (accountId === undefined || accountId === notice.sharer) continue;
    const own = notice.permissions.flatMap((change) =>
      change.people?.includes(target.person)
        ? [{ ...change, identities: undefined, people: [target.person] }]
        : [],
    );
    if (own.length > 0)
      await recordActivity(db, accountId, {
        type: "identityUpdate",
        identities: [{ id: notice.identityId }],
        changes: own,
      });
    if (target.addressKey !== undefined && target.added)
      await deps.mailer
        .send(
          shareMessage({
            to: target.person,
            title: deps.title,
            issuer: deps.issuer,
            link: deps.issuer + pathFor("IdentityList"),
            locale: notice.locale,
          }),
        )
        .catch((error: unknown) => {
          // The mailer logged why; the person still reads the change in their activity, and the
          // others are told.
          if (!(error instanceof MailUnavailableError)) throw error;
        });
  }
}
