// The steps after the first, in a chunk of their own: the flow page shows its first step without
// them and loads them while the person is busy with it (see FlowPage).
export { CodeStep } from "./CodeStep.tsx";
export { IdentityStep } from "./IdentityStep.tsx";
export { KeepAccountStep } from "./KeepAccountStep.tsx";
export { ManualRedirectStep } from "./ManualRedirectStep.tsx";
export { PasskeyStep } from "./PasskeyStep.tsx";
export { PasswordStep } from "./PasswordStep.tsx";
export { ProviderStep } from "./ProviderStep.tsx";
export { RecoveryCodesStep } from "./RecoveryCodesStep.tsx";
export { RedirectStep } from "./RedirectStep.tsx";
export { SecondFactorStep } from "./SecondFactorStep.tsx";
