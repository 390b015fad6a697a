import { resolveStyle } from "../site-style.server";
import type { Db } from "../postgres.server";

export type ContactLink = { href: string; label: string };

/**
 * Where the holder of a deactivated account can turn (the contact link of its login message):
 * the support address (SUPPORT_EMAIL, which support messages go to) as a mailto link when set; else
 * a footer link of the account's style named "Contact"; else the imprint, which names the operator
 * of the site (a default footer link, public without login).
 */
export async function accountContactLink(db: Db, userId: number, supportEmail: string | undefined): Promise<ContactLink> {
  if (supportEmail) return { href: `mailto:${supportEmail}`, label: supportEmail };
  const style = await resolveStyle(db, userId);
  const contact = style.footerLinks.find((l) => l.text.trim().toLowerCase() === "contact");
  if (contact) return { href: contact.link, label: contact.text };
  return { href: "/imprint", label: "Imprint" };
}
