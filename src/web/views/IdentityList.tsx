import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { pathFor } from "../../common/routes.ts";
import { SignedInContent } from "../components/SignedInContent.tsx";
import { useDocumentTitle } from "../documentTitle.ts";
import { IdentityCard } from "../partials/identity/IdentityCard.tsx";
import { identitiesQuery } from "../partials/identity/identityApi.ts";
import { identityLabels } from "../partials/identity/identityLabels.ts";
import { useSignedIn } from "../session.ts";

/** The identities the signed-in person can use or administer (spec §2, IdentityList). */
export function IdentityList() {
  const { t } = useTranslation();
  const signedIn = useSignedIn();
  const identities = useQuery({ ...identitiesQuery, enabled: signedIn });
  useDocumentTitle(t("identities.title"));

  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold tracking-tight">{t("identities.title")}</h1>
        {signedIn && (
          <Link
            to={pathFor("IdentityCreate")}
            className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800"
          >
            {t("identities.create")}
          </Link>
        )}
      </div>
      <div className="mt-6">
        <SignedInContent signedOutMessage={t("identities.signedOut")} query={identities}>
          {(list) =>
            list.length === 0 ? (
              <p>{t("identities.empty")}</p>
            ) : (
              <>
                <p className="mb-4 text-slate-700">{t("identities.count", { count: list.length })}</p>
                <ul className="flex flex-col gap-2">
                  {list.map((identity) => (
                    <IdentityCard
                      key={identity.id}
                      identity={identity}
                      labels={identityLabels(t, identity)}
                      link={pathFor("IdentityGet", { id: identity.id })}
                    />
                  ))}
                </ul>
              </>
            )
          }
        </SignedInContent>
      </div>
    </>
  );
}
