import { SignInButton } from "./SignInButton.tsx";

/** What a page that needs a signed-in person shows everybody else. */
export function SignInPrompt({ message }: { readonly message: string }) {
  return (
    <div className="flex flex-col items-start gap-4">
      <p>{message}</p>
      <SignInButton />
    </div>
  );
}
