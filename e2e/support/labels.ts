/** The labels of the sign-in flow and of the console's account button, in each language of the page. */
export const flowLabels = {
  en: {
    signIn: "Sign-in or sign-up",
    identifier: "Username or e-mail address",
    next: "Next",
    password: "Password or passphrase",
    submit: "Submit",
    code: "Code",
    create: "Create new identity",
    cancel: "Cancel",
    select: "Select",
    pause: "Pause",
    redirectNow: "Redirect now",
    accountMenu: "Account menu",
    finished: "You have already been redirected and completed the flow.",
  },
  sl: {
    signIn: "Prijava ali registracija",
    identifier: "Uporabniško ime ali e-poštni naslov",
    next: "Naprej",
    password: "Geslo ali geselna fraza",
    submit: "Potrdi",
    code: "Koda",
    create: "Ustvari novo identiteto",
    cancel: "Prekliči",
    select: "Izberi",
    pause: "Zaustavi",
    redirectNow: "Preusmeri zdaj",
    accountMenu: "Meni računa",
    finished: "Preusmerjeni ste že bili in postopek je zaključen.",
  },
};

export type FlowLabels = (typeof flowLabels)["en"];
