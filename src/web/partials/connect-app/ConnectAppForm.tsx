import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import {
  appKinds,
  derivedUris,
  kindsAtAnAddress,
  loopbackRedirectUri,
  type AppKind,
} from "../../../common/api/connect-app.ts";
import { pathFor } from "../../../common/routes.ts";
import { ApiError, errorMessage } from "../../api.ts";
import { Alert } from "../../components/Alert.tsx";
import { Button, buttonClassName } from "../../components/Button.tsx";
import { TextField } from "../../components/Field.tsx";
import { SelectField } from "../../components/SelectField.tsx";
import { useTranslation } from "../../i18n/index.ts";
import { organizationsQuery } from "../organization/organizationApi.ts";
import { ChoiceField } from "../template/ChoiceField.tsx";
import { connectApp } from "./connectAppApi.ts";

/** Where a first app most often runs while it is being built. */
const defaultAddress = "http://localhost:3000";
/** The organization choice that makes a new one. */
const newOrganization = "";

/**
 * The few things Vrata needs to connect an app: its kind, its name, where it runs (for the kinds a
 * browser comes back to) and its organization; the rest has defaults. Ends on the app's page.
 */
export function ConnectAppForm({ labelledBy }: { readonly labelledBy: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const administered = (useQuery(organizationsQuery).data ?? []).filter((summary) => summary.canUpdate);
  const [kind, setKind] = useState<AppKind>("webServer");
  const [name, setName] = useState("");
  const [address, setAddress] = useState(defaultAddress);
  const [chosenOrganization, setOrganization] = useState<string | undefined>(undefined);
  const [organizationName, setOrganizationName] = useState("");
  const [busy, setBusy] = useState(false);
  const [nameMissing, setNameMissing] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const nameInput = useRef<HTMLInputElement>(null);
  const addressInput = useRef<HTMLInputElement>(null);

  // The first organization the person administers, until they choose: most add apps to the one they have.
  const organizationId = chosenOrganization ?? administered[0]?.id ?? newOrganization;
  const atAddress = kindsAtAnAddress.includes(kind);
  // Left empty, the new organization's name is the app's, which the server gives it.
  const organization =
    organizationId !== newOrganization
      ? { organizationId }
      : organizationName.trim()
        ? { organizationName }
        : {};
  const addressError = error?.field === "address";

  async function submit(): Promise<void> {
    if (busy) return;
    setNameMissing(name.trim() === "");
    if (name.trim() === "") {
      nameInput.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const location = await connectApp(queryClient, {
        kind,
        name,
        address: atAddress ? address : "",
        ...organization,
      });
      await navigate(location);
    } catch (caught) {
      const failure = caught instanceof ApiError ? caught : new ApiError("unexpected", 0);
      setError(failure);
      setBusy(false);
      if (failure.field === "address") addressInput.current?.focus();
    }
  }

  return (
    <form
      noValidate
      aria-labelledby={labelledBy}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      className="flex flex-col gap-6"
    >
      <ChoiceField
        legend={t("connectApp.kind")}
        name="kind"
        value={kind}
        choices={appKinds.map((value) => ({
          value,
          label: t(`connectApp.kinds.${value}`),
          hint: t(`connectApp.kindHints.${value}`),
        }))}
        onChange={setKind}
      />
      <TextField
        ref={nameInput}
        required
        label={t("connectApp.name")}
        hint={t("connectApp.nameHint")}
        name="name"
        value={name}
        error={nameMissing ? t("common.nameRequired") : null}
        onChange={(event) => setName(event.target.value)}
      />
      {atAddress ? (
        <TextField
          ref={addressInput}
          required
          type="url"
          inputMode="url"
          autoComplete="url"
          label={t("connectApp.address")}
          hint={t("connectApp.addressHint", derivedUris(address))}
          name="address"
          value={address}
          error={addressError ? t("connectApp.addressInvalid") : null}
          onChange={(event) => setAddress(event.target.value)}
        />
      ) : (
        <p className="rounded-md bg-slate-50 px-4 py-3 text-slate-700 ring-1 ring-slate-200 dark:bg-slate-900 dark:text-slate-300 dark:ring-slate-700">
          {kind === "native"
            ? t("connectApp.loopbackNote", { redirectUri: loopbackRedirectUri })
            : t("connectApp.serviceNote")}
        </p>
      )}
      <div className="flex flex-col gap-4">
        {administered.length > 0 && (
          <SelectField
            label={t("connectApp.organization")}
            value={organizationId}
            options={[
              ...administered.map(({ id, name: organization }) => [id, organization] as const),
              [newOrganization, t("connectApp.newOrganization")] as const,
            ]}
            onChange={setOrganization}
          />
        )}
        {organizationId === newOrganization && (
          <TextField
            label={t("connectApp.organizationName")}
            hint={`${t("connectApp.organizationHint")} ${t("connectApp.organizationNameHint")}`}
            name="organizationName"
            placeholder={name.trim()}
            value={organizationName}
            onChange={(event) => setOrganizationName(event.target.value)}
          />
        )}
      </div>
      {error && !addressError && <Alert message={errorMessage(t, error.code, error.values)} />}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" size="large" busy={busy}>
          {t("connectApp.submit")}
        </Button>
        <Link to={pathFor("Home")} className={buttonClassName({ variant: "secondary", size: "large" })}>
          {t("common.cancel")}
        </Link>
      </div>
    </form>
  );
}
