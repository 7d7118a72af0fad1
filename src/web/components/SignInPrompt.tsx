import { SignInButton } from "./SignInButton.tsx";

/** What a page that needs a signed-in person shows everybody else. */
export function SignInPrompt({ message }: { readonly message: string }) {
  return (
    <div className="flex flex-col items-start gap-4 rounded-xl border border-slate-200 bg-slate-50 px-6 py-6 dark:border-slate-700 dark:bg-slate-900">
      <p className="max-w-prose text-slate-800 dark:text-slate-200">{message}</p>
      <SignInButton />
    </div>
  );
}
