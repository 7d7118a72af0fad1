import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { retryUnlessRefused } from "./api.ts";
import { CardApp } from "./CardApp.tsx";
import { pageTexts, startTexts } from "./i18n/index.ts";

startTexts([pageTexts]);
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: retryUnlessRefused } } });
const root = document.getElementById("root");
if (root === null) throw new Error("card.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <CardApp />
    </QueryClientProvider>
  </StrictMode>,
);
