import type { Locale } from "../../common/limits.ts";

// The makes of well-known authenticators by the AAGUID they report, so that a person can tell their
// passkeys apart. From the community list passkeydeveloper/passkey-authenticator-aaguids (aaguid.json)
// and, for security keys, the FIDO Metadata Service entries it combines with. Only models people
// commonly use are named; any other AAGUID, and the all-zero one of an authenticator that does not
// say, names nothing.

const names: Readonly<Record<string, string>> = {
  "ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4": "Google Password Manager",
  "adce0002-35bc-c60a-648b-0b25f1f05503": "Chrome on Mac",
  "b5397666-4885-aa6b-cebf-e52262a439a2": "Chromium Browser",
  "771b48fd-d3d4-4f74-9232-fc157ab0507a": "Edge on Mac",
  "08987058-cadc-4b81-b6e1-30de50dcbe96": "Windows Hello",
  "9ddd1817-af5a-4672-a2b9-3e3dd95000a9": "Windows Hello",
  "6028b017-b1d4-4c02-b4b3-afcdafc96bb2": "Windows Hello",
  "fbfc3007-154e-4ecc-8c0b-6e020557d7bd": "iCloud Keychain",
  "dd4ec289-e01d-41c9-bb89-70fa845d4bf2": "iCloud Keychain (Managed)",
  "d3452668-01fd-4c12-926c-83a4204853aa": "Microsoft Password Manager",
  "53414d53-554e-4700-0000-000000000000": "Samsung Pass",
  "bada5566-a7aa-401f-bd96-45619a55120d": "1Password",
  "d548826e-79b4-db40-a3d8-11116f7e8349": "Bitwarden",
  "531126d6-e717-415c-9320-3d9aa6981239": "Dashlane",
  "b84e4048-15dc-4dd0-8640-f4f60813c8af": "NordPass",
  "0ea242b4-43c4-4a1b-8b17-dd6d0b6baec6": "Keeper",
  "b78a0a55-6ef8-d246-a042-ba0f6d55050c": "LastPass",
  "50726f74-6f6e-5061-7373-50726f746f6e": "Proton Pass",
  "f3809540-7f14-49c1-a8b3-8f813b225541": "Enpass",
  "fdb141b2-5d84-443e-8a35-4698c205a502": "KeePassXC",
  "eaecdef2-1c31-5634-8639-f1cbd9c00a08": "KeePassDX",
  "ee882879-721c-4913-9775-3dfcce97072a": "YubiKey 5 Series",
  "19083c3d-8383-4b18-bc03-8f1c9ab2fd1b": "YubiKey 5 Series",
  "cb69481e-8ff7-4039-93ec-0a2729a154a8": "YubiKey 5 Series",
  "fa2b99dc-9e39-4257-8f92-4a30d23c4118": "YubiKey 5 Series with NFC",
  "a25342c0-3cdc-4414-8e46-f4807fca511c": "YubiKey 5 Series with NFC",
  "2fc0579f-8113-47ea-b116-bb5a8db9202a": "YubiKey 5 Series with NFC",
  "c5ef55ff-ad9a-4b9f-b580-adebafe026d0": "YubiKey 5 Series with Lightning",
  "a02167b9-ae71-4ac7-9a07-06432ebb6f1c": "YubiKey 5 Series with Lightning",
  "73bb0cd4-e502-49b8-9c6f-b59445bf720b": "YubiKey 5 FIPS Series",
  "c1f9a0bc-1dd2-404a-b27f-8e29047a43fd": "YubiKey 5 FIPS Series with NFC",
  "d8522d9f-575b-4866-88a9-ba99fa02f35b": "YubiKey Bio Series",
};

/** The make of the authenticator with this AAGUID, when it is a well-known one. */
export function authenticatorName(aaguid: string): string | undefined {
  return names[aaguid.toLowerCase()];
}

/** What a passkey of an unknown make is called, in each language of the pages. */
const passkeyWord: Readonly<Record<Locale, string>> = { en: "Passkey", sl: "Ključ za dostop" };
const dateLanguage: Readonly<Record<Locale, string>> = { en: "en-GB", sl: "sl-SI" };

/**
 * The name a new passkey gets until its owner renames it: its make, or "Passkey", and the day it was
 * made ("iCloud Keychain, 28 Nov 2026"), in the language of the page that made it. The day is UTC's:
 * the server does not know the person's time zone.
 */
export function defaultPasskeyName(aaguid: string, locale: Locale, madeAt: Date): string {
  const day = new Intl.DateTimeFormat(dateLanguage[locale], {
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  }).format(madeAt);
  return `${authenticatorName(aaguid) ?? passkeyWord[locale]}, ${day}`;
}
