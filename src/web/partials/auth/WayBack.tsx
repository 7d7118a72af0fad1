import { useTranslation } from "../../i18n/index.ts";
import { Link } from "react-router";
import { pathFor } from "../../../common/routes.ts";
import { buttonClassName } from "../../components/Button.tsx";

const isWebAddress = (address: string) => /^https?:\/\//i.test(address);

interface WayBackProps {
  /** The app of the flow, when the flow is known. */
  readonly appName?: string | undefined;
  readonly homepage?: string | undefined;
  /** Secondary when another action comes first. */
  readonly variant?: "primary" | "secondary";
}

/** Where a person goes from a flow that cannot go on: the app's homepage when it has one, else home. */
export function WayBack({ appName, homepage, variant = "primary" }: WayBackProps) {
  const { t } = useTranslation();
  const className = `${buttonClassName({ variant, size: "large" })} w-full`;
  if (appName && homepage && isWebAddress(homepage)) {
    return (
      <a href={homepage} className={className}>
        {t("authFlow.ended.toApp", { appName })}
      </a>
    );
  }
  return (
    <Link to={pathFor("Home")} className={className}>
      {t("authFlow.ended.toHome")}
    </Link>
  );
}
