/**
 * The public pages behind the spec's default footer links (shell §9: imprint and privacy policy).
 * Staff write their texts in the site settings; until then a notice says so.
 */
export const LEGAL_PAGES = {
  imprint: {
    path: "/imprint",
    title: "Imprint",
    field: "imprint_text",
    placeholder:
      "The operator of this site has not filled in the imprint yet. Please ask your administrator for the operator's contact details.",
  },
  "privacy-policy": {
    path: "/privacy-policy",
    title: "Privacy policy",
    field: "privacy_policy_text",
    placeholder:
      "The operator of this site has not filled in the privacy policy yet. Please ask your administrator how your data is processed.",
  },
} as const;

export type LegalPageKey = keyof typeof LEGAL_PAGES;
export type LegalField = (typeof LEGAL_PAGES)[LegalPageKey]["field"];

/** The longest text accepted for one page. */
export const LEGAL_TEXT_MAX = 20_000;
