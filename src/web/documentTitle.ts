import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { contextQuery } from "./api.ts";

/** The browser's title for a page: `<page> · <instance title>`, or the instance title alone. */
function pageTitle(page: string | undefined, instanceTitle: string | undefined): string {
  return [page, instanceTitle].filter(Boolean).join(" · ");
}

/** Sets the browser's title for the page shown; without `page`, the instance title alone (home). */
export function useDocumentTitle(page?: string): void {
  const instanceTitle = useQuery(contextQuery).data?.title;
  useEffect(() => {
    document.title = pageTitle(page, instanceTitle);
  }, [page, instanceTitle]);
}
