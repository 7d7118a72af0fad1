import { useState, type ReactNode } from "react";
import { ConfirmDialog } from "../../components/ConfirmDialog.tsx";

export interface ConfirmationRequest {
  readonly title: string;
  /** What going ahead does, in a sentence or two. */
  readonly message: ReactNode;
  readonly confirmLabel: string;
  /** Cannot be undone (removing, rotating): the go-ahead button is red. */
  readonly destructive?: boolean;
  readonly onConfirm: () => void;
}

/**
 * One question at a time before an action: `ask` opens the dialog, which `dialog` renders. Focus goes
 * back to the button that asked when the dialog closes (the browser does it for a modal `<dialog>`).
 */
export function useConfirmation() {
  const [request, setRequest] = useState<ConfirmationRequest | null>(null);
  const dialog = (
    <ConfirmDialog
      open={request !== null}
      title={request?.title ?? ""}
      confirmLabel={request?.confirmLabel ?? ""}
      destructive={request?.destructive ?? false}
      onCancel={() => setRequest(null)}
      onConfirm={() => {
        setRequest(null);
        request?.onConfirm();
      }}
    >
      {request?.message}
    </ConfirmDialog>
  );
  return { ask: setRequest, dialog };
}
