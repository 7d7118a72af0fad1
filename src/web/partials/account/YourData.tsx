import { Button } from "../../components/Button.tsx";
import { ActionFeedback, useAction } from "../../components/useAction.tsx";
import { useTranslation } from "../../i18n/index.ts";
import { downloadAccountData } from "./accountApi.ts";

/** "Download your data": everything Vrata holds about the account, as a JSON file. */
export function YourData() {
  const { t } = useTranslation();
  const action = useAction();
  return (
    <>
      <p className="text-slate-700 dark:text-slate-300">{t("account.data.description")}</p>
      <div>
        <Button
          variant="secondary"
          onClick={() => void action.run(downloadAccountData, t("account.data.downloaded"), "download")}
          {...action.button("download")}
        >
          {t("account.data.download")}
        </Button>
      </div>
      <ActionFeedback action={action} only="download" />
    </>
  );
}
